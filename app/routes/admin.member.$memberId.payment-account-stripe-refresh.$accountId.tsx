import { requireAdminUser } from "~/modules/accounts/guards.server";
import { parseId } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { refreshStripeAccount } from "~/modules/payouts/stripe/stripe-connect.server";
import type { Route } from "./+types/admin.member.$memberId.payment-account-stripe-refresh.$accountId";

export const handle = { routeName: "admin-member-payment-account-stripe-refresh" };

/**
 * An administrator refreshes a member's Stripe account status from Stripe. The account must be
 * that member's, otherwise 404. Onboarding itself is the member's to do (an account link is for the account
 * holder), so an administrator is sent back to Payment accounts with the status, never to a Stripe link.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = requireAdminUser(request, context);
  const memberId = parseId(params.memberId);
  if (memberId === null) throw notFound();
  try {
    const result = await refreshStripeAccount(user, memberId, params.accountId);
    const message =
      result.status === "complete"
        ? `Stripe account ${params.accountId} is ready for payouts.`
        : `Stripe account ${params.accountId}: onboarding is ${result.status}. The member continues it from their Payouts page.`;
    return redirectWithFlash("/admin/payment-accounts?method=stripe", { kind: result.status === "complete" ? "success" : "info", message });
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      throw routeError(error.status, error.message);
    }
    throw error;
  }
}
