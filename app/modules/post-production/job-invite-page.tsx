import { Link } from "react-router";
import { AuthCard } from "~/components/forms";
import type { JobInviteData } from "./job-invite.server";
import { InviteMismatch, InviteRefused } from "~/components/invitation";
import { InvitedAccountForm } from "~/modules/accounts/invited-account-form";

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
          <span className="font-semibold text-stone-900">{invite.ownerName}</span> asks{" "}
          <span className="font-medium break-words text-stone-900">{invite.email}</span> for the {invite.service.toLowerCase()} of “{invite.songTitle}” by{" "}
          {invite.artistName}.
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
            <Link
              to={data.loginHref}
              className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
            >
              Log in to answer
            </Link>
          </div>
        ) : null}
        {data.mode === "register" ? (
          <InvitedAccountForm
            id="job-invite-register"
            invitation={data}
            intro="Create your free account to see the job, accept it and deliver your file. This link proves your email address, so you can start right away."
            submitLabel="Create account and open the job"
          />
        ) : null}
      </div>
    </AuthCard>
  );
}
