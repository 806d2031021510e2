import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { payoutAccounts, payoutRequests, stripeWebhookEvents, type PostProductionJob, type Project } from "~/db/schema";
import { env } from "~/env.server";
import { centsToMicros, formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { notifyMember, type NewNotification } from "~/modules/notifications/notifications.server";
import { notifyFunded } from "~/modules/marketplace/projects.server";
import { recordProjectCheckoutPayment } from "~/modules/marketplace/projects/project-checkout.server";
import { recordJobCheckoutPayment } from "~/modules/post-production/job-checkout.server";
import { notifyJobFunded } from "~/modules/post-production/job-transitions.server";
import { PayoutError } from "../payout-errors";
import { payThroughProvider, reversePaidPayout } from "../payouts.server";
import { stripeClient } from "./client.server";
import { applyOnboardingStatus, onboardingStatusOf } from "./stripe-connect.server";

/**
 * POST /api/stripe/webhooks. The body is checked with the SDK's `stripe.webhooks.constructEvent`
 * and STRIPE_WEBHOOK_SECRET (a missing or wrong signature, or one too old, is 400 and changes nothing).
 * Each event is handled once: its id is inserted into stripe_webhook_events in the same transaction as its
 * effects, so a second delivery (Stripe retries, or sends twice) finds it and does nothing; a failure rolls
 * both back and Stripe's retry handles it again.
 *
 * - account.updated: the connected account's onboarding status (complete makes Stripe the member's method);
 * - transfer.created: a transfer made for a request whose payment was not recorded (the app stopped between
 *   Stripe's answer and its commit) is recorded now, as the administrator's payment would have been;
 * - transfer.reversed: what Stripe took back goes back to the member's earnings (reversePaidPayout);
 * - checkout.session.completed: a client's card payment for a marketplace project or a post-production job (told
 *   apart by the session's metadata) puts it in escrow (the same recording as the client's return from Checkout;
 *   whichever comes first does it), or, when the project or job can no longer take it, enqueues its refund (a
 *   durable job that retries while Stripe cannot be reached).
 */

export type WebhookOutcome = "processed" | "duplicate";

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export async function handleStripeWebhook(request: Request): Promise<Response> {
  const stripe = stripeClient();
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!stripe || !secret) return json(404, { message: "Not found." });
  const signature = request.headers.get("stripe-signature");
  if (!signature) return json(400, { message: "Missing Stripe-Signature header." });
  const payload = await request.text();
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, secret);
  } catch {
    return json(400, { message: "Invalid signature." });
  }
  const malformed = malformedEvent(event);
  if (malformed) {
    // Signed but unusable (a null or missing id, type or data.object): nothing is recorded, so a corrected
    // delivery is still handled. One line, for whoever looks at why Stripe reports failed deliveries.
    const id = typeof (event as { id?: unknown } | null)?.id === "string" ? (event as { id: string }).id : null;
    console.warn(JSON.stringify({ level: "warn", message: "stripe webhook refused", reason: malformed, event: id }));
    return json(400, { message: `Malformed event: ${malformed}.` });
  }
  const outcome = await processStripeEvent(event);
  return json(200, { received: true, duplicate: outcome === "duplicate" });
}

const HANDLED_TYPES = new Set([
  "account.updated",
  "transfer.created",
  "transfer.reversed",
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
]);

/** Why a verified event cannot be handled (it would throw deep inside a handler: a 500 Stripe retries for days), or null. */
function malformedEvent(event: unknown): string | null {
  if (typeof event !== "object" || event === null || Array.isArray(event)) return "not an object";
  const { id, type, data } = event as { id?: unknown; type?: unknown; data?: unknown };
  if (typeof id !== "string" || id === "" || id.length > 255) return "no id";
  if (typeof type !== "string" || type === "" || type.length > 255) return "no type";
  const object = typeof data === "object" && data !== null ? (data as { object?: unknown }).object : undefined;
  if (typeof object !== "object" || object === null || Array.isArray(object)) return "no data.object";
  // The events acted on name their object.
  if (HANDLED_TYPES.has(type) && typeof (object as { id?: unknown }).id !== "string") return "no data.object.id";
  return null;
}

type Notice = { userId: number; notification: NewNotification };

/** Handles one verified event, once (by its id). */
export async function processStripeEvent(event: Stripe.Event): Promise<WebhookOutcome> {
  const notices: Notice[] = [];
  const funded: Project[] = [];
  const fundedJobs: PostProductionJob[] = [];
  // A payment its project can no longer take is refunded by a job enqueued in this transaction.
  const outcome = await db().transaction(async (tx): Promise<WebhookOutcome> => {
    const inserted = await tx
      .insert(stripeWebhookEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeWebhookEvents.id });
    if (inserted.length === 0) return "duplicate";
    switch (event.type) {
      case "account.updated": {
        const account = event.data.object;
        await applyOnboardingStatus(account.id, onboardingStatusOf(account), tx);
        break;
      }
      case "transfer.created":
        await recordTransfer(tx, event.data.object, notices);
        break;
      case "transfer.reversed":
        await recordReversal(tx, event.data.object, notices);
        break;
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded": {
        // Each recorder answers "not-ours" for a session that pays for something else.
        const session = event.data.object;
        const payment = await recordProjectCheckoutPayment(tx, session);
        if (payment.outcome === "funded") funded.push(payment.project);
        const jobPayment = await recordJobCheckoutPayment(tx, session);
        if (jobPayment.outcome === "funded") fundedJobs.push(jobPayment.job);
        break;
      }
      default:
        // Other events are acknowledged (and remembered) without effect.
        break;
    }
    return "processed";
  });
  // Told after the commit, as the administrator's decisions are; a failure to publish never undoes the money.
  for (const notice of notices) {
    await notifyMember(notice.userId, notice.notification).catch((error) => console.error("[stripe] notification failed", error));
  }
  for (const project of funded) {
    await notifyFunded(project, project.clientId).catch((error) => console.error("[stripe] notification failed", error));
  }
  for (const job of fundedJobs) {
    await notifyJobFunded(job, job.ownerId).catch((error) => console.error("[stripe] notification failed", error));
  }
  return outcome;
}

const requestIdOf = (transfer: Stripe.Transfer): number | null => {
  const id = Number(transfer.metadata?.payout_request_id);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
};

async function recordTransfer(tx: Db, transfer: Stripe.Transfer, notices: Notice[]) {
  const requestId = requestIdOf(transfer);
  if (requestId === null) return;
  try {
    const paid = await payThroughProvider(
      null,
      requestId,
      "stripe",
      async (request, simulation, inner) => {
        const [account] = await inner
          .select({ stripeAccountId: payoutAccounts.stripeAccountId })
          .from(payoutAccounts)
          .where(eq(payoutAccounts.userId, request.userId));
        const destination = typeof transfer.destination === "string" ? transfer.destination : transfer.destination?.id;
        if (!account?.stripeAccountId || destination !== account.stripeAccountId || BigInt(transfer.amount) !== simulation.netCents) {
          throw new PayoutError(409, "The transfer does not match the request.");
        }
        return transfer.id;
      },
      { executor: tx },
    );
    notices.push({
      userId: paid.userId,
      notification: {
        type: "PayoutPaid",
        message: `Your payout request #${paid.id} was paid: ${formatCents(microsToCentsFloor(paid.netMicros))} sent to your Stripe account (transfer ${paid.reference}).`,
        color: "green",
        routeName: "member-royalty-payment-requests",
        resourceId: paid.id,
      },
    });
  } catch (error) {
    // Already recorded (the usual case: the administrator's payment committed it), decided otherwise, or not ours.
    if (error instanceof PayoutError) {
      if (error.status !== 409 && error.status !== 404) throw error;
      if (error.message === "The transfer does not match the request.")
        console.error(`[stripe] transfer ${transfer.id} does not match payout request #${requestId}; not recorded`);
      return;
    }
    throw error;
  }
}

async function recordReversal(tx: Db, transfer: Stripe.Transfer, notices: Notice[]) {
  const [request] = await tx
    .select({ id: payoutRequests.id })
    .from(payoutRequests)
    .where(and(eq(payoutRequests.method, "stripe"), eq(payoutRequests.reference, transfer.id)))
    .limit(1);
  if (!request) return;
  const reversed = await reversePaidPayout(request.id, centsToMicros(BigInt(transfer.amount_reversed)), transfer.id, { executor: tx });
  if (!reversed) return;
  notices.push({
    userId: reversed.userId,
    notification: {
      type: "PayoutReversed",
      message:
        reversed.status === "reversed"
          ? `Stripe reversed the transfer for your payout request #${reversed.id}: ${formatCents(microsToCentsFloor(reversed.amountMicros))} is back in your available balance.`
          : `Stripe reversed ${formatCents(microsToCentsFloor(reversed.reversedMicros))} of the transfer for your payout request #${reversed.id}; it is back in your available balance.`,
      color: "red",
      routeName: "member-royalty-payment-requests",
      resourceId: reversed.id,
    },
  });
}
