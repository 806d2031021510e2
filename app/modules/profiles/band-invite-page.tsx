import { Form, Link, useActionData } from "react-router";
import { AuthCard, FormAlert, SubmitButton } from "~/components/forms";
import type { BandInviteActionData, BandInviteData } from "./band-invite-route.server";
import { InviteMismatch } from "~/components/invitation";
import { InvitedAccountForm } from "~/modules/accounts/invited-account-form";

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
      {data.mode === "register" ? (
        <InvitedAccountForm
          id="band-invite-register"
          invitation={data}
          intro="Create your account to join. This link proves your email address, so you can start right away."
          submitLabel="Create account and join"
        />
      ) : null}
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
        You already have an account with <span className="font-medium break-words">{invitation.invite.email}</span>. Log in, and you can accept the invitation
        right after.
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
