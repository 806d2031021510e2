import { Form, Link, useActionData } from "react-router";
import { AuthCard, FormAlert, SubmitButton } from "~/components/forms";
import type { CreditInviteActionData, CreditInviteData } from "./credit-invite-route.server";
import { InviteDeclineForm, InviteMismatch, InviteRefused, inviteSecondaryButton as secondaryButton } from "~/components/invitation";
import { InvitedAccountForm } from "~/modules/accounts/invited-account-form";

/** The credit invitation pages (see credit-invite-route.server.ts). */
export function CreditInvitePage({ data, title }: { data: CreditInviteData; title: string }) {
  if (data.kind === "refused") return <InviteRefused title={title} message={data.message} loggedIn={data.loggedIn} />;
  const { invite } = data;
  return (
    <AuthCard
      title={title}
      intro={
        <p>
          {invite.inviterName ? <span className="font-semibold text-stone-900">{invite.inviterName}</span> : "An artist"} would like to credit{" "}
          <span className="font-medium break-words text-stone-900">{invite.email}</span> as{" "}
          <span className="font-semibold text-stone-900">{invite.roleLabel.toLowerCase()}</span> on “{invite.songTitle}” by {invite.artistName}.
        </p>
      }
    >
      <div className="space-y-6">
        {data.mode === "accept" ? <AnswerForm /> : null}
        {data.mode === "mismatch" ? <InviteMismatch what="invitation" sentTo={data.invite.email} currentEmail={data.currentEmail} /> : null}
        {data.mode === "login" ? (
          <div className="space-y-4">
            <p className="text-sm text-stone-600">You already have an account with this address. Log in, and you can accept right after.</p>
            <Link
              to={data.loginHref}
              className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
            >
              Log in to accept
            </Link>
          </div>
        ) : null}
        {data.mode === "register" ? (
          <InvitedAccountForm
            id="credit-invite-register"
            invitation={data}
            intro="Create your account to accept. This link proves your email address, so you can start right away."
            submitLabel="Create account and accept"
          />
        ) : null}
        {data.mode === "login" || data.mode === "register" ? <DeclineForm /> : null}
      </div>
    </AuthCard>
  );
}

function errorsFor(actionData: CreditInviteActionData | undefined, intent: CreditInviteActionData["intent"]) {
  return actionData?.intent === intent ? actionData.result.error?.[""] : undefined;
}

function AnswerForm() {
  const actionData = useActionData<CreditInviteActionData>();
  return (
    <Form method="post" className="space-y-3">
      <FormAlert errors={errorsFor(actionData, "accept") ?? errorsFor(actionData, "decline")} />
      <p className="text-sm text-stone-600">An accepted credit is verified: it shows on the release page and on your profile.</p>
      <SubmitButton name="intent" value="accept" pendingLabel="Accepting…">
        Accept the credit
      </SubmitButton>
      <SubmitButton name="intent" value="decline" pendingLabel="Declining…" className={secondaryButton}>
        Decline
      </SubmitButton>
    </Form>
  );
}

function DeclineForm() {
  const actionData = useActionData<CreditInviteActionData>();
  return <InviteDeclineForm errors={errorsFor(actionData, "decline")} note="Not you, or you did not work on it?" label="Decline" />;
}
