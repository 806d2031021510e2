import { data, Form, Link } from "react-router";
import { AuthCard, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { cancelEmailChangeFromLink, checkEmailChangeCancel } from "~/modules/accounts/profile.server";
import { routeError } from "~/modules/http/route-errors.server";
import { readForm } from "~/modules/security/form-body.server";
import { INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import type { Route } from "./+types/email-change-cancel.$token";

export const handle = { routeName: "email-change-cancel" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Cancel an email change");

const USED = "This link was used already, or it has expired (it works for 72 hours).";

/**
 * Where the "This was not me" link sent to the old address of an email change leads (decision 020). Opening it
 * changes nothing (mail scanners open links); its button keeps or puts back that address, withdraws the pending
 * change and any password reset link, and signs every session of the account out. Signed: a bad or expired
 * signature is 403 'Invalid signature.'.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const check = await checkEmailChangeCancel(params.token, request.url);
  if (!check.ok && check.reason === "invalid_signature") throw routeError(403, INVALID_SIGNATURE);
  // Not 410: after this page's own POST (which used the link) the loader runs again, finds it used, and its
  // status would be the answer's.
  if (!check.ok) return { usable: false as const, oldEmail: null };
  return { usable: true as const, oldEmail: check.oldEmail };
}

export async function action({ request, params }: Route.ActionArgs) {
  await readForm(request);
  const outcome = await cancelEmailChangeFromLink(params.token, request.url);
  if (!outcome.ok && outcome.reason === "invalid_signature") throw routeError(403, INVALID_SIGNATURE);
  if (!outcome.ok) return data({ done: null }, { status: 410 });
  return { done: { oldEmail: outcome.oldEmail, restored: outcome.restored, addressTaken: outcome.addressTaken } };
}

export default function EmailChangeCancelRoute({ loaderData, actionData }: Route.ComponentProps) {
  const done = actionData?.done;
  if (done) {
    return (
      <AuthCard title="The email change is cancelled">
        <div role="status" className="space-y-3 text-sm text-stone-700">
          <p>
            {done.addressTaken ? (
              <>
                The change is stopped, but <strong className="break-all">{done.oldEmail}</strong> is now used by another account, so it could not be put back.
                Contact us: we will check the account with you.
              </>
            ) : done.restored ? (
              <>
                Your account uses <strong className="break-all">{done.oldEmail}</strong> again.
              </>
            ) : (
              <>
                Your account keeps <strong className="break-all">{done.oldEmail}</strong>; the new address&rsquo;s link no longer works.
              </>
            )}{" "}
            Every session of your account has been signed out, and our team has been told.
          </p>
          <p className="font-semibold">What to do now</p>
          <ol className="list-decimal space-y-1 pl-5">
            <li>
              Choose a new password with{" "}
              <Link to="/forgot-password" className="font-medium text-brand-800 underline">
                Forgot your password?
              </Link>{" "}
              (use one you use nowhere else).
            </li>
            <li>Log in, turn on two-factor authentication on your Account page, and check your payout details and requests.</li>
            <li>Change the password of your email account too: whoever asked for the change may have read your mail.</li>
          </ol>
        </div>
      </AuthCard>
    );
  }
  if (!loaderData.usable || actionData) {
    return (
      <AuthCard title="Cancel an email change">
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {USED}
        </p>
        <p className="mt-4 text-sm text-stone-600">
          If your account&rsquo;s address was changed without you, contact us.{" "}
          <Link to="/login" className="font-medium text-brand-800 underline">
            Go to login
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Cancel an email change">
      <p className="text-sm text-stone-700">
        Someone asked to move your account away from <strong className="break-all">{loaderData.oldEmail}</strong>.
      </p>
      <p className="mt-3 text-sm text-stone-600">
        If it was not you, cancel it: your account keeps (or gets back) this address, and every session of it is signed out. If you made the change yourself,
        you can close this page.
      </p>
      <Form method="post" className="mt-6">
        <SubmitButton pendingLabel="Cancelling…">This was not me: cancel the change</SubmitButton>
      </Form>
    </AuthCard>
  );
}
