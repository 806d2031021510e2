import { redirect } from "react-router";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { payoutsProviderPath, refreshStripeAccount } from "~/modules/payouts/stripe/stripe-connect.server";
import type { Route } from "./+types/member.$memberId.payment-account-stripe-refresh.$accountId";

export const handle = { routeName: "member-payment-account-stripe-refresh" };

/**
 * Where Stripe sends a member whose onboarding link expired or was used (the account link's refresh_url):
 * the account's status is read again from Stripe and, while onboarding is not complete, the member
 * goes straight on to a fresh onboarding link; once complete, back to payouts-provider. The account must be
 * this member's: any other account id (or someone else's member area) is 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user, memberId } = requireMemberAreaAccess(request, context, params.memberId);
  try {
    const result = await refreshStripeAccount(user, memberId, params.accountId);
    if (result.onboardingUrl) return redirect(result.onboardingUrl);
    const message = result.status === "complete" ? "Your Stripe account is ready: payouts are sent to it." : `Stripe onboarding is ${result.status}.`;
    return redirectWithFlash(payoutsProviderPath(memberId), { kind: result.status === "complete" ? "success" : "info", message });
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      throw routeError(error.status, error.message);
    }
    throw error;
  }
}
