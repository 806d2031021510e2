import { Form, Link } from "react-router";
import { AuthCard, FormAlert, SubmitButton, type ErrorList } from "~/components/forms";

/** The full-width secondary button of the invitation pages (an auth card's column of actions). */
export const inviteSecondaryButton =
  "inline-flex w-full items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2.5 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50";

/**
 * An invitation page (split, credit, band, post-production job) opened while logged in with another address:
 * who it was sent to, who is logged in, and a way out. The form posts `intent=logout` to the page itself.
 */
export function InviteMismatch({
  what,
  sentTo,
  currentEmail,
  answer = "answer",
}: {
  what: string;
  sentTo: string;
  currentEmail: string | null;
  answer?: string;
}) {
  return (
    <div className="space-y-4">
      <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        This {what} was sent to {sentTo}. Log in with that address to {answer} it.
      </p>
      <p className="text-sm text-stone-600">
        You are logged in as <span className="font-medium break-words">{currentEmail}</span>.
      </p>
      <Form method="post">
        <SubmitButton name="intent" value="logout" pendingLabel="Logging out…" className={inviteSecondaryButton}>
          Log out and use another account
        </SubmitButton>
      </Form>
    </div>
  );
}

/** An invitation link refused (bad signature, expired, used, withdrawn): why, and the way to log in for a visitor. */
export function InviteRefused({ title, message, loggedIn }: { title: string; message: string; loggedIn: boolean }) {
  return (
    <AuthCard title={title}>
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
        {message}
      </p>
      {loggedIn ? null : (
        <p className="mt-4 text-sm">
          <Link to="/login" className="font-medium text-brand-800 underline">
            Go to login
          </Link>
        </p>
      )}
    </AuthCard>
  );
}

/** Declining an invitation from its page, below the ways to accept it. The form posts `intent=decline` to the page itself. */
export function InviteDeclineForm({ errors, note, label }: { errors: ErrorList; note: string; label: string }) {
  return (
    <Form method="post" className="space-y-2 border-t border-stone-200 pt-4">
      <FormAlert errors={errors} />
      <p className="text-sm text-stone-600">{note}</p>
      <SubmitButton name="intent" value="decline" pendingLabel="Declining…" className={inviteSecondaryButton}>
        {label}
      </SubmitButton>
    </Form>
  );
}
