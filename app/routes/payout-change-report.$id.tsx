import { data, Form, Link } from "react-router";
import { AuthCard, SubmitButton } from "~/components/forms";
import { DateTime } from "~/components/formatting";
import { pageTitle } from "~/components/page-title";
import { parseId } from "~/modules/accounts/guards.server";
import { changeForReport, reportPayoutDetailChange } from "~/modules/payouts/payout-changes.server";
import { routeError } from "~/modules/http/route-errors.server";
import { readForm } from "~/modules/security/form-body.server";
import { INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import type { Route } from "./+types/payout-change-report.$id";

export const handle = { routeName: "payout-change-report" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Report a payout change");

/**
 * Where the "This was not me" link of a payout-change email leads. Opening it changes nothing
 * (mail scanners open links); the button records the report, signs every session out and tells the
 * administrators. The link is signed: a bad or expired signature is 403 'Invalid signature.'.
 */
async function changeOf(request: Request, idParam: string | undefined) {
  const id = parseId(idParam);
  const change = id === null ? null : await changeForReport(id, request.url);
  if (!change) throw routeError(403, INVALID_SIGNATURE);
  return change;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const change = await changeOf(request, params.id);
  return {
    change: { kind: change.kind, summary: change.summary, createdAt: change.createdAt.toISOString(), reported: change.reportedAt !== null },
    justReported: false,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const change = await changeOf(request, params.id);
  await readForm(request);
  const outcome = await reportPayoutDetailChange(change.id, request.url);
  if (!outcome) throw routeError(403, INVALID_SIGNATURE);
  return data({ justReported: true });
}

export default function PayoutChangeReportRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { change } = loaderData;
  const reported = change.reported || actionData?.justReported;
  return (
    <AuthCard title={reported ? "Thank you, we are on it" : "Report a payout change"}>
      <p className="text-sm text-stone-700">
        The change: <strong>{change.summary}</strong>, on <DateTime iso={change.createdAt} />.
      </p>
      {reported ? (
        <div role="status" className="mt-4 space-y-3 text-sm text-stone-700">
          <p>
            This change is reported. Every session of your account has been signed out, and our team has been told: they hold your payouts until they have
            checked with you.
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
            <li>Change the password of your email account too: whoever changed your details may have read your mail.</li>
          </ol>
        </div>
      ) : (
        <>
          <p className="mt-3 text-sm text-stone-600">
            If you did not make this change, report it. We sign every session of your account out and hold your payouts until we have checked with you. If you
            made it yourself, you can close this page.
          </p>
          <Form method="post" className="mt-6">
            <SubmitButton pendingLabel="Reporting…">This was not me: report it</SubmitButton>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
