import { startStripeStandIn } from "./stripe-stand-in";

/**
 * The Stripe stand-in as its own process, for the e2e server (Playwright's webServer): the app is started with
 * STRIPE_API_BASE=http://127.0.0.1:$STRIPE_STAND_IN_PORT, and the stand-in sends account.updated,
 * transfer.created and transfer.reversed to STRIPE_WEBHOOK_URL signed with STRIPE_WEBHOOK_SECRET, as Stripe would.
 *   node_modules/.bin/tsx tests/helpers/stripe-stand-in-server.ts
 */
const port = Number(process.env.STRIPE_STAND_IN_PORT ?? 12111);
const standIn = await startStripeStandIn({
  port,
  webhookUrl: process.env.STRIPE_WEBHOOK_URL,
  webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
  linkTtlSeconds: Number(process.env.STRIPE_STAND_IN_LINK_TTL ?? 300),
});
console.log(`Stripe stand-in listening on ${standIn.url}`);
const stop = () => void standIn.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
