import { redirect } from "react-router";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { requireFreshConfirmation } from "~/modules/accounts/step-up.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { recordPayoutDetailChange } from "~/modules/payouts/payout-changes.server";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { stripeEnabled } from "~/modules/payouts/stripe/client.server";
import { payoutsProviderPath, startStripeOnboarding } from "~/modules/payouts/stripe/stripe-connect.server";
import { readForm } from "~/modules/security/form-body.server";
import { requestInfoContext } from "~/request-context";
import type { Route } from "./+types/member.$memberId.payment-account-stripe-onboarding";

export const handle = { routeName: "member-payment-account-stripe-onboarding" };

/**
 * POST only (the Stripe option on payouts-provider posts here, app/modules/payouts/stripe/stripe-method.tsx):
 * the member sets up Stripe Connect Express or continues its onboarding, and is sent to Stripe's onboarding
 * link; when the account is already complete, back to payouts-provider with Stripe as the method. Only the
 * member themself (404 for anyone else, and while Stripe is not configured). A refusal goes back to
 * payouts-provider with its message.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const form = await readForm(request);
  const country = form.get("country");
  const { ip } = context.get(requestInfoContext);
  // Only the member, with Stripe configured (else 404, before asking to confirm); changing the payout method needs a
  // confirmation within the last 10 minutes, as the other payout details do.
  if (user.id !== memberId || !stripeEnabled()) throw notFound();
  await requireFreshConfirmation(request, user, form, ip);
  try {
    const result = await startStripeOnboarding(user, memberId, { country: typeof country === "string" ? country : null });
    if (result.kind === "link") return redirect(result.url);
    await recordPayoutDetailChange(user, { kind: "method", summary: "Stripe Connect (your Stripe Express account)", ip });
    return redirectWithFlash(payoutsProviderPath(memberId), { kind: "success", message: "Your payouts are sent to your Stripe account." });
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      return redirectWithFlash(payoutsProviderPath(memberId), { kind: "error", message: error.message });
    }
    throw error;
  }
}

/** Nothing to show: the page is payouts-provider. */
export function loader({ request, params, context }: Route.LoaderArgs) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  return redirect(payoutsProviderPath(memberId));
}

/**
 * Never shown (the loader redirects). It makes this a page module, so that what the action throws (the
 * "Confirm it is you" form, a refusal) renders as a page of the app, as on payouts-provider.
 */
export default function StripeOnboarding() {
  return null;
}
