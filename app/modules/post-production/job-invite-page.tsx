import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData } from "react-router";
import { AuthCard, FormAlert, SubmitButton, useClearOnError } from "~/components/forms";
import { NameFields, NewPasswordFields, TermsAgreementField } from "~/modules/accounts/account-fields";
import { RegisterSchema } from "~/modules/accounts/schemas";
import type { JobInviteActionData, JobInviteData } from "./job-invite.server";
import { InviteMismatch, InviteRefused, inviteSecondaryButton as secondaryButton } from "~/components/invitation";

type Invitation = Extract<JobInviteData, { kind: "invite" }>;

/** `/post-production-jobs/create-account` (see job-invite.server.ts). */
export function JobInvitePage({ data }: { data: JobInviteData }) {
  const title = "Post production job";
  if (data.kind === "refused") return <InviteRefused title={title} message={data.message} loggedIn={data.loggedIn} />;
  const { invite } = data;
  return (
    <AuthCard
      title={title}
      intro={
        <p>
          <span className="font-semibold text-stone-900">{invite.ownerName}</span> asks <span className="font-medium break-words text-stone-900">{invite.email}</span> for the{" "}
          {invite.service.toLowerCase()} of “{invite.songTitle}” by {invite.artistName}.
        </p>
      }
    >
      <div className="space-y-6">
        {invite.notes ? (
          <div>
            <p className="text-xs font-medium tracking-wide text-stone-500 uppercase">Notes</p>
            <p className="text-sm whitespace-pre-wrap text-stone-800">{invite.notes}</p>
          </div>
        ) : null}
        {data.mode === "mismatch" ? <InviteMismatch what="job" sentTo={data.invite.email} currentEmail={data.currentEmail} /> : null}
        {data.mode === "login" ? (
          <div className="space-y-4">
            <p className="text-sm text-stone-600">You already have an account with this address. Log in to see the job and answer it.</p>
            <Link to={data.loginHref} className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800">
              Log in to answer
            </Link>
          </div>
        ) : null}
        {data.mode === "register" ? <CreateAccount invitation={data} /> : null}
      </div>
    </AuthCard>
  );
}

function CreateAccount({ invitation }: { invitation: Invitation }) {
  const actionData = useActionData<JobInviteActionData>();
  const lastResult = actionData?.intent === "register" ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "job-invite-register",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  useClearOnError(form.id, lastResult, ["password", "passwordConfirmation"]);
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <p className="text-sm text-stone-600">Create your free account to see the job, accept it and deliver your file. This link proves your email address, so you can start right away.</p>
      <FormAlert id={form.errorId} errors={form.errors} />
      <NameFields name={fields.name} lastName={fields.lastName} />
      <div>
        <p className="block text-sm font-medium text-stone-800">Email</p>
        <p className="mt-1 text-sm break-words text-stone-900">{invitation.invite.email}</p>
        <input type="hidden" name="email" value={invitation.invite.email} />
      </div>
      <NewPasswordFields password={fields.password} confirmation={fields.passwordConfirmation} fresh={false} />
      <TermsAgreementField field={fields.terms} documents={invitation.documents} />
      <SubmitButton name="intent" value="register" pendingLabel="Creating your account…">
        Create account and open the job
      </SubmitButton>
    </Form>
  );
}
