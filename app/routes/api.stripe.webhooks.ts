import { apiError } from "~/modules/api/api.server";
import { handleStripeWebhook } from "~/modules/payouts/stripe/webhooks.server";
import type { Route } from "./+types/api.stripe.webhooks";

/**
 * POST /api/stripe/webhooks: Stripe's events (account.updated, transfer.created, transfer.reversed), verified
 * with STRIPE_WEBHOOK_SECRET and handled once per event id (app/modules/payouts/stripe/webhooks.server.ts).
 * 404 while Stripe is not configured. No session: Stripe's signature is the only credential.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Method not allowed.");
  return handleStripeWebhook(request);
}

export function loader() {
  return apiError(405, "Method not allowed.");
}
