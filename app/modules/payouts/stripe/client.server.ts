import Stripe from "stripe";
import { env } from "~/env.server";

/**
 * The Stripe SDK, configured from the environment: STRIPE_SECRET_KEY turns Stripe Connect on;
 * STRIPE_API_BASE (protocol, host and port only) sends the SDK's requests elsewhere than api.stripe.com,
 * which is how tests reach their local stand-in. Nothing else in the app talks to Stripe.
 */

let cached: { key: string; base: string | undefined; client: Stripe } | undefined;

/** Whether the Stripe method is offered at all. */
export function stripeEnabled(): boolean {
  return Boolean(env().STRIPE_SECRET_KEY);
}

/** The configured client, or null without STRIPE_SECRET_KEY. */
export function stripeClient(): Stripe | null {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_BASE: base } = env();
  if (!key) return null;
  if (cached && cached.key === key && cached.base === base) return cached.client;
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Backline" },
  };
  if (base) {
    const url = new URL(base);
    config.protocol = url.protocol === "http:" ? "http" : "https";
    config.host = url.hostname;
    config.port = url.port || (url.protocol === "http:" ? 80 : 443);
  }
  cached = { key, base, client: new Stripe(key, config) };
  return cached.client;
}

/** Like stripeClient, for code that only runs when Stripe is on. */
export function requireStripe(): Stripe {
  const client = stripeClient();
  if (!client) throw new StripeUnavailableError();
  return client;
}

export class StripeUnavailableError extends Error {
  constructor() {
    super("Stripe payouts are not configured (STRIPE_SECRET_KEY is not set).");
    this.name = "StripeUnavailableError";
  }
}
