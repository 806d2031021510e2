import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { AuthCard, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import type { TokenLinkCheck } from "./accounts.server";
import { ResetPasswordSchema } from "./schemas";
import { NewPasswordFields } from "./account-fields";

/** Shared by /password-reset/{token} and /activate-account: a signed one-time link that sets a password. */
export function SetPasswordPage({
  title,
  intro,
  submitLabel,
  link,
  invalidLinkMessage,
}: {
  title: string;
  intro: string;
  submitLabel: string;
  link: TokenLinkCheck;
  invalidLinkMessage: string;
}) {
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const [form, fields] = useForm({
    id: "set-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  if (link !== "valid") {
    return (
      <AuthCard title={title}>
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {link === "invalid_signature" ? "Invalid signature." : invalidLinkMessage}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-800 underline">
            Request a new link
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} intro={intro}>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} />
        <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
