import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { projects, type Project } from "~/db/schema";
import { env } from "~/env.server";
import { formatCents } from "~/modules/ledger/money";
import { defineJob, enqueueJob } from "~/modules/jobs/queue.server";
import { notifyAdmins, notifyMember } from "~/modules/notifications/notifications.server";
import { stripeClient } from "~/modules/payouts/stripe/client.server";
import type { MarketplaceActor } from "../access.server";
import { MarketplaceError, NO_PROJECT } from "../marketplace-errors";
import { SERVICE_LABELS } from "../marketplace-rules";
import { PROJECT_ROUTE } from "../notify.server";
import { notifyFunded, recordFunding } from "../projects.server";

/**
 * Card funding through Stripe Checkout (decision 022). Without STRIPE_SECRET_KEY it is not offered and
 * the manual provider (an administrator confirms a bank transfer) is the only one.
 *
 * The client asks to pay: the project's open Checkout Session is reused, or a new one is made (mode payment, the
 * project's amount in cents, `backline_project_id` in its metadata) and remembered on the project, so a second
 * click never opens a second payment. The payment is recorded once, from whichever arrives first: the
 * `checkout.session.completed` webhook or the client's return to the project page (the session is read back from
 * Stripe, never trusted from the URL). Recording = the same funding entry and conditional UPDATE as a manual
 * confirmation, with the session id as the reference; the amount and currency must match the project's.
 * A payment that arrives for a project that can no longer take it (canceled, or funded otherwise, meanwhile) is
 * refunded in full at Stripe instead, by a durable job (CHECKOUT_REFUND_JOB).
 */

const SESSION_PREFIX = "Stripe Checkout ";

export function cardFundingEnabled(): boolean {
  return stripeClient() !== null;
}

function projectIdOf(session: Stripe.Checkout.Session): number | null {
  const id = Number(session.metadata?.backline_project_id);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The URL of the Stripe page where the client pays for project `id`, or null when it is already paid (and now recorded). */
export async function startProjectCheckout(actor: MarketplaceActor, id: number, projectPath: string): Promise<string | null> {
  const stripe = stripeClient();
  if (!stripe) throw new MarketplaceError(409, "Card payments are not available: pay by bank transfer with the reference shown.");
  const [project] = await db().select().from(projects).where(eq(projects.id, id));
  if (!project || project.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
  if (project.fundingStatus !== "unfunded" || project.status !== "awaiting_funding")
    throw new MarketplaceError(409, "This project is not waiting for payment.");

  try {
    return await openSession(stripe, project, actor.email, projectPath);
  } catch (error) {
    if (!isStripeError(error)) throw error;
    // Stripe refused or could not be reached: nothing was charged, and the client may try again.
    console.error(`[stripe] Checkout for project #${project.id} failed`, error);
    throw new MarketplaceError(409, "Stripe could not open the payment page just now. Nothing was charged; try again in a moment.");
  }
}

/** The SDK's errors (StripeConnectionError, StripeInvalidRequestError, …), told apart from the app's own. */
const isStripeError = (error: unknown) => /^Stripe\w*Error$/.test(String((error as { type?: unknown } | null)?.type ?? ""));

async function openSession(stripe: Stripe, project: Project, email: string, projectPath: string): Promise<string | null> {
  if (project.checkoutSessionId) {
    const earlier = await stripe.checkout.sessions.retrieve(project.checkoutSessionId);
    if (earlier.status === "open" && earlier.url) return earlier.url;
    if (earlier.payment_status === "paid") {
      await applyPaidCheckoutSession(earlier);
      return null;
    }
  }
  const base = `${env().APP_URL}${projectPath}`;
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: project.amountCents,
            product_data: { name: `Project #${project.id}: ${SERVICE_LABELS[project.service]}` },
          },
        },
      ],
      customer_email: email,
      client_reference_id: `project-${project.id}`,
      metadata: { backline_project_id: String(project.id) },
      success_url: `${base}?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}?checkout=canceled`,
    },
    // One session per project and earlier session: a retried request answers the same session.
    { idempotencyKey: `backline-project-${project.id}-checkout-after-${project.checkoutSessionId ?? "none"}` },
  );
  // Remembered only while the project still has the session this one replaces (two clicks at once keep one).
  await db()
    .update(projects)
    .set({ checkoutSessionId: session.id, updatedAt: new Date() })
    .where(sql`${projects.id} = ${project.id} and ${projects.checkoutSessionId} is not distinct from ${project.checkoutSessionId}`);
  if (!session.url) throw new MarketplaceError(409, "Stripe did not give a payment page; try again.");
  return session.url;
}

export type CheckoutOutcome = "funded" | "already" | "refunding" | "unpaid" | "not-ours" | "unreachable";

/**
 * The client is back from Stripe with `sessionId`: read it from Stripe and record the payment if it is paid and
 * is this project's. Whatever the URL says, only Stripe's answer counts.
 */
export async function confirmProjectCheckout(actor: MarketplaceActor, id: number, sessionId: string): Promise<CheckoutOutcome> {
  const stripe = stripeClient();
  if (!stripe || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return "not-ours";
  const [project] = await db().select({ clientId: projects.clientId }).from(projects).where(eq(projects.id, id));
  if (!project || project.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return "not-ours";
    // The webhook records the payment when Stripe is reachable again.
    console.error(`[stripe] Checkout Session ${sessionId} could not be read`, error);
    return "unreachable";
  }
  if (projectIdOf(session) !== id) return "not-ours";
  if (session.payment_status !== "paid") return "unpaid";
  return applyPaidCheckoutSession(session);
}

/** Records a paid session once, from the client's return; notifies after the commit. */
async function applyPaidCheckoutSession(session: Stripe.Checkout.Session): Promise<CheckoutOutcome> {
  const result = await db().transaction((tx) => recordCheckoutPayment(tx, session));
  if (result.outcome === "funded") await notifyFunded(result.project!, result.project!.clientId);
  // The refund is the job's (enqueued with the decision); the client is told on the page that it is under way.
  if (result.outcome === "refund") return "refunding";
  return result.outcome;
}

/* ------------------------------------------------------------------ refunds */

/**
 * A paid session its project could not take is refunded in full at Stripe by a durable job (decision 016),
 * enqueued in the transaction that decided it, so the refund survives Stripe being unreachable and the app
 * stopping: the job retries with backoff for about a day, and tells the administrators if it never succeeds.
 * The job's data is all it needs (no second read of the session).
 */
export const CHECKOUT_REFUND_JOB = "marketplace.checkout-refund";
// 10 retries, from 1 to 2 minutes after the first try and doubling (pg-boss's jittered backoff): the last comes
// 17 to 34 hours after the first.
const REFUND_RETRY_LIMIT = 10;

interface CheckoutRefund {
  sessionId: string;
  paymentIntent: string;
  projectId: number;
  clientId: number;
  amountCents: number;
  /** Why the project could not take the payment, as the client is told. */
  reason: "canceled" | "paid otherwise";
}

type RefundOutcome = "refunded" | "refunded before" | "unreachable" | "refused";

/**
 * Refunds the payment at Stripe (refunds.create on its payment intent; the idempotency key names the session, so
 * a retried job never refunds twice). "refunded before": Stripe answered an earlier identical request again, or
 * the charge was refunded already (by an administrator at Stripe, say). "unreachable": worth trying again;
 * "refused": Stripe said no for good.
 */
async function refundUnrecordedCheckout(refund: CheckoutRefund): Promise<RefundOutcome> {
  const stripe = stripeClient();
  if (!stripe) return "unreachable";
  try {
    const made = await stripe.refunds.create(
      { payment_intent: refund.paymentIntent, metadata: { backline_project_id: String(refund.projectId), backline_checkout_session: refund.sessionId } },
      { idempotencyKey: `backline-checkout-refund-${refund.sessionId}` },
    );
    return made.lastResponse?.headers?.["idempotent-replayed"] === "true" ? "refunded before" : "refunded";
  } catch (error) {
    if ((error as { code?: unknown }).code === "charge_already_refunded") return "refunded before";
    console.error(`[stripe] Checkout Session ${refund.sessionId} (project #${refund.projectId}) could not be refunded`, error);
    // No answer, Stripe's own failure, too many requests, or the same refund still in flight: try again later.
    const status = (error as { statusCode?: unknown }).statusCode;
    return typeof status !== "number" || status >= 500 || status === 429 || status === 409 ? "unreachable" : "refused";
  }
}

/** Registered at boot by the job registry (app/modules/jobs/registry.server.ts). */
export const checkoutRefundJob = defineJob<CheckoutRefund>(
  CHECKOUT_REFUND_JOB,
  async (refund, job) => {
    const outcome = await refundUnrecordedCheckout(refund);
    if (outcome === "refunded") {
      await notifyMember(refund.clientId, {
        type: "ProjectPaymentRefunded",
        message: `Your card payment of ${formatCents(BigInt(refund.amountCents))} for project #${refund.projectId} arrived after the project was ${refund.reason}: it is refunded to your card.`,
        color: "yellow",
        routeName: PROJECT_ROUTE,
        resourceId: refund.projectId,
      }).catch((error) => console.error("[stripe] notification failed", error));
      return;
    }
    if (outcome === "refunded before") return;
    if (outcome === "unreachable" && job.retryCount < REFUND_RETRY_LIMIT) {
      throw new Error(`Stripe could not refund Checkout Session ${refund.sessionId} just now; the refund is retried.`);
    }
    await notifyAdmins({
      type: "ProjectRefundFailed",
      message: `The card payment of ${formatCents(BigInt(refund.amountCents))} for project #${refund.projectId} (Checkout Session ${refund.sessionId}) could not be refunded: ${
        outcome === "refused" ? "Stripe refused the refund" : "Stripe could not be reached for a day"
      }. Refund it in the Stripe dashboard.`,
      color: "red",
      routeName: "admin-project",
      resourceId: refund.projectId,
    });
  },
  { retryLimit: REFUND_RETRY_LIMIT, retryDelaySeconds: 60, retryBackoff: true },
);

/**
 * Records a paid session in `tx` (the webhook's transaction, or the return's): once, only for its project, only
 * for the project's amount in USD. After its commit the caller notifies when the outcome is "funded". When it is
 * "refund" (the project could no longer take the payment) nothing is recorded and the refund's job is enqueued in
 * `tx`.
 */
export async function recordCheckoutPayment(tx: Db, session: Stripe.Checkout.Session): Promise<{ outcome: CheckoutOutcome | "refund"; project?: Project }> {
  const id = projectIdOf(session);
  if (id === null || session.payment_status !== "paid") return { outcome: "not-ours" };
  // The row lock orders this against a concurrent webhook or return for the same session.
  const [project] = await tx.select().from(projects).where(eq(projects.id, id)).for("update");
  if (!project) return { outcome: "not-ours" };
  const reference = `${SESSION_PREFIX}${session.id}`;
  if (project.fundingReference === reference) return { outcome: "already", project };
  if (session.amount_total !== project.amountCents || session.currency?.toLowerCase() !== "usd") {
    console.error(`[stripe] Checkout Session ${session.id} (${session.amount_total} ${session.currency}) does not match project #${id}; not recorded`);
    return { outcome: "not-ours" };
  }
  if (project.fundingStatus !== "unfunded" || project.status !== "awaiting_funding") {
    // Paid for a project that was funded otherwise or canceled meanwhile: nothing is recorded, a job refunds it.
    console.warn(`[stripe] Checkout Session ${session.id} was paid for project #${id}, which is ${project.status} and ${project.fundingStatus}; refunding it`);
    const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
    if (!paymentIntent) throw new Error(`Checkout Session ${session.id} is paid but names no payment intent to refund.`);
    const refund: CheckoutRefund = {
      sessionId: session.id,
      paymentIntent,
      projectId: project.id,
      clientId: project.clientId,
      amountCents: project.amountCents,
      reason: project.status === "canceled" ? "canceled" : "paid otherwise",
    };
    await enqueueJob(CHECKOUT_REFUND_JOB, refund, { tx, singletonKey: `checkout-refund:${session.id}` });
    return { outcome: "refund", project };
  }
  return { outcome: "funded", project: await recordFunding(tx, project, project.clientId, reference, "stripe") };
}
