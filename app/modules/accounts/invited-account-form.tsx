import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData } from "react-router";
import { FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { NameFields, NewPasswordFields, TermsAgreementField } from "./account-fields";
import { RegisterSchema } from "./schemas";

/**
 * Creating an account from an invitation link (split, credit, band, post-production job). The link proves the
 * invited address, so it is shown, not asked; the account always gets it (the hidden copy only satisfies the
 * register rules). Posts `intent=register` to the invitation page itself, whose reply to it is
 * `{ intent: "register", result }`.
 */
export function InvitedAccountForm({
  id,
  invitation,
  intro,
  submitLabel,
}: {
  id: string;
  invitation: { invite: { email: string }; documents: ReadonlyArray<{ id: number; name: string; slug: string }> };
  /** What the account is for, before the fields. */
  intro: string;
  submitLabel: string;
}) {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> } | undefined>();
  const lastResult = actionData?.intent === "register" ? actionData.result : undefined;
  const { email } = invitation.invite;
  const [form, fields] = useForm({
    id,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <p className="text-sm text-stone-600">{intro}</p>
      <FormAlert id={form.errorId} errors={form.errors} />
      <NameFields name={fields.name} lastName={fields.lastName} />
      <div>
        <p className="block text-sm font-medium text-stone-800">Email</p>
        <p className="mt-1 text-sm break-words text-stone-900">{email}</p>
        <input type="hidden" name="email" value={email} />
        {fields.email.errors?.length ? <p className="mt-1 text-sm text-red-700">{fields.email.errors.join(" ")}</p> : null}
      </div>
      <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} fresh={false} />
      <TermsAgreementField field={fields.terms} documents={invitation.documents} />
      <SubmitButton name="intent" value="register" pendingLabel="Creating your account…">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
