import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData } from "react-router";
import { AuthCard, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { NameFields, NewPasswordFields, TermsAgreementField } from "~/modules/accounts/account-fields";
import { RegisterSchema } from "~/modules/accounts/schemas";
import type { BandInviteActionData, BandInviteData } from "./band-invite-route.server";
import { InviteMismatch, inviteSecondaryButton as secondaryButton } from "~/components/invitation";

type Invitation = Extract<BandInviteData, { kind: "invite" }>;

/** /band-invite/{id}: the invitation, and what the visitor can do with it (see band-invite-route.server.ts). */
export function BandInvitePage({ data }: { data: BandInviteData }) {
  if (data.kind === "refused") {
    return (
      <AuthCard title="Band invitation">
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {data.message}
        </p>
        <p className="mt-4 text-sm text-stone-600">
          Ask the band to send you a new invitation if you still want to join.{" "}
          {data.loggedIn ? null : (
            <Link to="/login" className="font-medium text-brand-800 underline">
              Go to login
            </Link>
          )}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Band invitation" intro={<Summary invitation={data} />}>
      {data.mode === "accept" ? <AcceptForm /> : null}
      {data.mode === "mismatch" ? <InviteMismatch what="invitation" sentTo={data.invite.email} currentEmail={data.currentEmail} answer="accept" /> : null}
      {data.mode === "login" ? <LogInToAccept invitation={data} /> : null}
      {data.mode === "register" ? <CreateAccount invitation={data} /> : null}
    </AuthCard>
  );
}

function Summary({ invitation: { invite } }: { invitation: Invitation }) {
  return (
    <p>
      {invite.inviterName ? <span className="font-semibold text-stone-900">{invite.inviterName}</span> : "A band member"} invited{" "}
      <span className="font-medium break-words text-stone-900">{invite.email}</span> to join the band{" "}
      <span className="font-semibold text-stone-900">{invite.artistName}</span>
      {invite.canEdit ? ", with the right to edit its artist page." : "."}
    </p>
  );
}

function AcceptForm() {
  const actionData = useActionData<BandInviteActionData>();
  const errors = actionData?.intent === "accept" ? actionData.result.error?.[""] : undefined;
  return (
    <Form method="post" className="space-y-4">
      <FormAlert errors={errors} />
      <p className="text-sm text-stone-600">Once you accept, the artist appears in your menu under Your Artists.</p>
      <SubmitButton name="intent" value="accept" pendingLabel="Joining…">
        Accept invitation
      </SubmitButton>
    </Form>
  );
}

function LogInToAccept({ invitation }: { invitation: Invitation }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-600">
        You already have an account with <span className="font-medium break-words">{invitation.invite.email}</span>. Log in, and you can
        accept the invitation right after.
      </p>
      <Link
        to={invitation.loginHref}
        className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
      >
        Log in to accept
      </Link>
    </div>
  );
}

function CreateAccount({ invitation }: { invitation: Invitation }) {
  const actionData = useActionData<BandInviteActionData>();
  const lastResult = actionData?.intent === "register" ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "band-invite-register",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  const { documents, invite } = invitation;
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <p className="text-sm text-stone-600">Create your account to join. This link proves your email address, so you can start right away.</p>
      <FormAlert id={form.errorId} errors={form.errors} />
      <NameFields name={fields.name} lastName={fields.lastName} />
      <div>
        <p className="block text-sm font-medium text-stone-800">Email</p>
        <p className="mt-1 text-sm break-words text-stone-900">{invite.email}</p>
        {/* The account always gets the invited address; this copy only satisfies the shared form rules. */}
        <input type="hidden" name="email" value={invite.email} />
        {fields.email.errors?.length ? <p className="mt-1 text-sm text-red-700">{fields.email.errors.join(" ")}</p> : null}
      </div>
      <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} fresh={false} />
      <TermsAgreementField field={fields.terms} documents={documents} />
      <SubmitButton name="intent" value="register" pendingLabel="Creating your account…">
        Create account and join
      </SubmitButton>
    </Form>
  );
}
