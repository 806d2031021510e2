import { Link, useActionData } from "react-router";
import { AuthCard } from "~/components/forms";
import type { SplitInviteActionData, SplitInviteData } from "./split-invite.server";
import { InviteDeclineForm, InviteMismatch, InviteRefused } from "~/components/invitation";
import { InvitedAccountForm } from "~/modules/accounts/invited-account-form";

type Invitation = Extract<SplitInviteData, { kind: "invite" }>;

const STATUS_LABELS = { pending: "Pending", accepted: "Accepted", declined: "Declined" } as const;

/** `/share-split-proposals/create-account` (see split-invite.server.ts). */
export function SplitInvitePage({ data }: { data: SplitInviteData }) {
  const title = "Split proposal";
  if (data.kind === "refused") return <InviteRefused title={title} message={data.message} loggedIn={data.loggedIn} />;
  const { invite } = data;
  return (
    <AuthCard
      title={title}
      intro={
        <p>
          {invite.inviterName ? <span className="font-semibold text-stone-900">{invite.inviterName}</span> : "An artist"} proposes{" "}
          <span className="font-medium break-words text-stone-900">{invite.email}</span> a{" "}
          <span className="font-semibold text-stone-900">{invite.shareLabel}</span> share of the master royalties of “{invite.songTitle}” by {invite.artistName}
          , from {invite.effectiveFrom}.
        </p>
      }
    >
      <div className="space-y-6">
        <SheetSummary invitation={data} />
        {data.mode === "mismatch" ? <InviteMismatch what="proposal" sentTo={data.invite.email} currentEmail={data.currentEmail} /> : null}
        {data.mode === "login" ? (
          <div className="space-y-4">
            <p className="text-sm text-stone-600">You already have an account with this address. Log in to see the whole sheet and answer.</p>
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
            id="split-invite-register"
            invitation={data}
            intro="Create your free account to see the whole sheet and accept or decline. This link proves your email address, so you can start right away."
            submitLabel="Create account and open the proposal"
          />
        ) : null}
        {data.mode === "login" || data.mode === "register" ? <DeclineForm /> : null}
      </div>
    </AuthCard>
  );
}

function SheetSummary({ invitation }: { invitation: Invitation }) {
  const { invite } = invitation;
  return (
    <table className="w-full text-left text-sm">
      <caption className="mb-1 text-left text-xs font-medium tracking-wide text-stone-500 uppercase">Version {invite.versionNumber} of the split sheet</caption>
      <thead>
        <tr className="border-b border-stone-200 text-stone-600">
          <th scope="col" className="py-1 font-medium">
            Party
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Share
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Status
          </th>
        </tr>
      </thead>
      <tbody>
        {invite.parties.map((p, i) => (
          <tr key={i} className="border-b border-stone-100">
            <td className="py-1 break-all">{p.name}</td>
            <td className="py-1 text-right tabular-nums">{p.share}</td>
            <td className="py-1 text-right">{STATUS_LABELS[p.status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function errorsFor(actionData: SplitInviteActionData | undefined, intent: SplitInviteActionData["intent"]) {
  return actionData?.intent === intent ? actionData.result.error?.[""] : undefined;
}

function DeclineForm() {
  const actionData = useActionData<SplitInviteActionData>();
  return (
    <InviteDeclineForm
      errors={errorsFor(actionData, "decline")}
      note="Not you, or you did not work on it? Your share then goes back to the artist page's owner."
      label="Decline the share"
    />
  );
}
