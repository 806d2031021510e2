import type Stripe from "stripe";
import type { Db } from "~/db/client.server";
import { env } from "~/env.server";
import { formatCents } from "~/modules/ledger/money";
import { defineJob, enqueueJob } from "~/modules/jobs/queue.server";
import { notifyAdmins, notifyMember } from "~/modules/notifications/notifications.server";
import { stripeClient } from "~/modules/payouts/stripe/client.server";
import { PP_JOB_ROUTE } from "~/modules/post-production/post-production-rules";
import { MarketplaceError } from "./marketplace-errors";
import { PROJECT_ROUTE } from "./notify.server";

/**
 * Card funding through Stripe Checkout (decisions 022, 023), shared by what a client pays into escrow: a marketplace
 * project (project-checkout.server.ts) and a post-production job (post-production/job-checkout.server.ts). Without
 * STRIPE_SECRET_KEY it is not offered and the other funding methods are the only ones.
 *
 * The client asks to pay: the open Checkout Session remembered on the row is reused, or a new one is made (mode
 * payment, the amount in cents, the row's id in the metadata under its kind's key) and remembered, so a second click
 * never opens a second payment. The payment is recorded once, from whichever arrives first: the
 * `checkout.session.completed` webhook or the client's return to the page (the session is read back from Stripe,
 * never trusted from the URL). Recording = the kind's own funding (the same entry and conditional UPDATE as its other
 * funding methods), with `Stripe Checkout {session id}` as the reference; the amount and currency must match. A
 * payment that arrives for a row that can no longer take it (canceled, or funded otherwise, meanwhile) is refunded in
 * full at Stripe instead, by a durable job (CHECKOUT_REFUND_JOB).
 */

export type CheckoutKind = "project" | "post-production job";

interface KindRules {
  /** The session's and the refund's metadata key holding the row's id. */
  metadataKey: string;
  /** How the client is told what was paid for ("project #3", "post-production job #3"), and the row alone ("the job"). */
  noun: string;
  shortNoun: string;
  /** Prefix of the session's client_reference_id and of its idempotency key. */
  reference: string;
  route: string;
  adminRoute: string;
  refundedType: string;
  refundFailedType: string;
}

const KINDS: Record<CheckoutKind, KindRules> = {
  project: {
    metadataKey: "backline_project_id",
    noun: "project",
    shortNoun: "project",
    reference: "project",
    route: PROJECT_ROUTE,
    adminRoute: "admin-project",
    refundedType: "ProjectPaymentRefunded",
    refundFailedType: "ProjectRefundFailed",
  },
  "post-production job": {
    metadataKey: "backline_post_production_job_id",
    noun: "post-production job",
    shortNoun: "job",
    reference: "post-production-job",
    route: PP_JOB_ROUTE,
    adminRoute: "admin-post-production-job",
    refundedType: "PostProductionPaymentRefunded",
    refundFailedType: "PostProductionRefundFailed",
  },
};

/** The funding reference of a paid session (the row's `funding_reference`, and the funding entry's memo). */
export const checkoutReference = (sessionId: string) => `Stripe Checkout ${sessionId}`;

export function cardFundingEnabled(): boolean {
  return stripeClient() !== null;
}

/** The SDK's errors (StripeConnectionError, StripeInvalidRequestError, …), told apart from the app's own. */
const isStripeError = (error: unknown) => /^Stripe\w*Error$/.test(String((error as { type?: unknown } | null)?.type ?? ""));

/** The id of the row of `kind` that `session` pays for, from its metadata; null when it pays for something else. */
export function checkoutSubjectId(kind: CheckoutKind, session: Stripe.Checkout.Session): number | null {
  const id = Number(session.metadata?.[KINDS[kind].metadataKey]);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** What the client pays for: the row (checked by the caller: the client's, awaiting funding) and its open session. */
export interface CheckoutPayable {
  kind: CheckoutKind;
  id: number;
  amountCents: number;
  /** The line's name on Stripe's page. */
  productName: string;
  checkoutSessionId: string | null;
}

/**
 * The Stripe page where the client pays `payable`: its open session again, or a new one, which `remember` stores on
 * the row only while the row still has the session it replaces (two clicks at once keep one). `{ paid }` when the
 * remembered session is paid already: the caller records it. 409 when Stripe is not configured, or refused or could
 * not be reached (nothing was charged).
 */
export async function openCheckout(
  payable: CheckoutPayable,
  email: string,
  pagePath: string,
  remember: (sessionId: string) => Promise<void>,
): Promise<{ url: string } | { paid: Stripe.Checkout.Session }> {
  const stripe = stripeClient();
  if (!stripe) throw new MarketplaceError(409, "Card payments are not available: pay by bank transfer with the reference shown.");
  try {
    return await openSession(stripe, payable, email, pagePath, remember);
  } catch (error) {
    if (!isStripeError(error)) throw error;
    // Stripe refused or could not be reached: nothing was charged, and the client may try again.
    console.error(`[stripe] Checkout for ${payable.kind} #${payable.id} failed`, error);
    throw new MarketplaceError(409, "Stripe could not open the payment page just now. Nothing was charged; try again in a moment.");
  }
}

async function openSession(
  stripe: Stripe,
  payable: CheckoutPayable,
  email: string,
  pagePath: string,
  remember: (sessionId: string) => Promise<void>,
): Promise<{ url: string } | { paid: Stripe.Checkout.Session }> {
  const rules = KINDS[payable.kind];
  if (payable.checkoutSessionId) {
    const earlier = await stripe.checkout.sessions.retrieve(payable.checkoutSessionId);
    if (earlier.status === "open" && earlier.url) return { url: earlier.url };
    if (earlier.payment_status === "paid") return { paid: earlier };
  }
  const base = `${env().APP_URL}${pagePath}`;
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: payable.amountCents, product_data: { name: payable.productName } } }],
      customer_email: email,
      client_reference_id: `${rules.reference}-${payable.id}`,
      metadata: { [rules.metadataKey]: String(payable.id) },
      success_url: `${base}?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}?checkout=canceled`,
    },
    // One session per row and earlier session: a retried request answers the same session.
    { idempotencyKey: `backline-${rules.reference}-${payable.id}-checkout-after-${payable.checkoutSessionId ?? "none"}` },
  );
  await remember(session.id);
  if (!session.url) throw new MarketplaceError(409, "Stripe did not give a payment page; try again.");
  return { url: session.url };
}

export type CheckoutOutcome = "funded" | "already" | "refunding" | "unpaid" | "not-ours" | "unreachable";

/**
 * The client is back from Stripe with `sessionId` on the page of the row `id` of `kind` (the caller checked it is
 * theirs): the session read from Stripe when it is paid and pays for that row, else why not. Whatever the URL says,
 * only Stripe's answer counts.
 */
export async function readReturnedSession(kind: CheckoutKind, id: number, sessionId: string): Promise<Stripe.Checkout.Session | CheckoutOutcome> {
  const stripe = stripeClient();
  if (!stripe || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return "not-ours";
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return "not-ours";
    // The webhook records the payment when Stripe is reachable again.
    console.error(`[stripe] Checkout Session ${sessionId} could not be read`, error);
    return "unreachable";
  }
  if (checkoutSubjectId(kind, session) !== id) return "not-ours";
  if (session.payment_status !== "paid") return "unpaid";
  return session;
}

/** The row a paid session is recorded against, locked `for update` by the caller in the recording transaction. */
export interface CheckoutTarget {
  kind: CheckoutKind;
  id: number;
  clientId: number;
  amountCents: number;
  fundingReference: string | null;
  /** Still awaiting its funding (else the payment is refunded). */
  awaitingFunding: boolean;
  canceled: boolean;
}

export type CheckoutRecording<T> = { outcome: "funded"; funded: T } | { outcome: "already" | "not-ours" | "refund" };

/**
 * Records a paid session against `target` in `tx` (the webhook's transaction, or the return's), once: "already" when
 * its reference is the row's; "not-ours" (nothing recorded) unless it is the row's amount in USD; "refund" when the row
 * can no longer take it (nothing recorded, the refund's job enqueued in `tx`); else `fund(reference)`, the kind's own
 * funding, is "funded".
 */
export async function recordPaidSession<T>(
  tx: Db,
  session: Stripe.Checkout.Session,
  target: CheckoutTarget,
  fund: (reference: string) => Promise<T>,
): Promise<CheckoutRecording<T>> {
  const reference = checkoutReference(session.id);
  if (target.fundingReference === reference) return { outcome: "already" };
  if (session.amount_total !== target.amountCents || session.currency?.toLowerCase() !== "usd") {
    console.error(
      `[stripe] Checkout Session ${session.id} (${session.amount_total} ${session.currency}) does not match ${target.kind} #${target.id}; not recorded`,
    );
    return { outcome: "not-ours" };
  }
  if (!target.awaitingFunding) {
    // Paid for a row that was funded otherwise or canceled meanwhile: nothing is recorded, a job refunds it.
    console.warn(`[stripe] Checkout Session ${session.id} was paid for ${target.kind} #${target.id}, which no longer awaits funding; refunding it`);
    const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
    if (!paymentIntent) throw new Error(`Checkout Session ${session.id} is paid but names no payment intent to refund.`);
    const refund: CheckoutRefund = {
      sessionId: session.id,
      paymentIntent,
      clientId: target.clientId,
      amountCents: target.amountCents,
      reason: target.canceled ? "canceled" : "paid otherwise",
      ...(target.kind === "project" ? { projectId: target.id } : { postProductionJobId: target.id }),
    };
    await enqueueJob(CHECKOUT_REFUND_JOB, refund, { tx, singletonKey: `checkout-refund:${session.id}` });
    return { outcome: "refund" };
  }
  return { outcome: "funded", funded: await fund(reference) };
}

/* ------------------------------------------------------------------ refunds */

/**
 * A paid session its row could not take is refunded in full at Stripe by a durable job (decision 016), enqueued in
 * the transaction that decided it, so the refund survives Stripe being unreachable and the app stopping: the job
 * retries with backoff for about a day, and tells the administrators if it never succeeds. The job's data is all it
 * needs (no second read of the session).
 */
export const CHECKOUT_REFUND_JOB = "marketplace.checkout-refund";
// 10 retries, from 1 to 2 minutes after the first try and doubling (pg-boss's jittered backoff): the last comes
// 17 to 34 hours after the first.
const REFUND_RETRY_LIMIT = 10;

/** The job's data. A project's refund names `projectId`, as every refund did before jobs took cards. */
type CheckoutRefund = {
  sessionId: string;
  paymentIntent: string;
  clientId: number;
  amountCents: number;
  /** Why the row could not take the payment, as the client is told. */
  reason: "canceled" | "paid otherwise";
} & ({ projectId: number } | { postProductionJobId: number });

const refundSubject = (refund: CheckoutRefund): { kind: CheckoutKind; id: number } =>
  "postProductionJobId" in refund ? { kind: "post-production job", id: refund.postProductionJobId } : { kind: "project", id: refund.projectId };

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
  const { kind, id } = refundSubject(refund);
  try {
    const made = await stripe.refunds.create(
      { payment_intent: refund.paymentIntent, metadata: { [KINDS[kind].metadataKey]: String(id), backline_checkout_session: refund.sessionId } },
      { idempotencyKey: `backline-checkout-refund-${refund.sessionId}` },
    );
    return made.lastResponse?.headers?.["idempotent-replayed"] === "true" ? "refunded before" : "refunded";
  } catch (error) {
    if ((error as { code?: unknown }).code === "charge_already_refunded") return "refunded before";
    console.error(`[stripe] Checkout Session ${refund.sessionId} (${kind} #${id}) could not be refunded`, error);
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
    const { kind, id } = refundSubject(refund);
    const rules = KINDS[kind];
    const amount = formatCents(BigInt(refund.amountCents));
    if (outcome === "refunded") {
      await notifyMember(refund.clientId, {
        type: rules.refundedType,
        message: `Your card payment of ${amount} for ${rules.noun} #${id} arrived after the ${rules.shortNoun} was ${refund.reason}: it is refunded to your card.`,
        color: "yellow",
        routeName: rules.route,
        resourceId: id,
      }).catch((error) => console.error("[stripe] notification failed", error));
      return;
    }
    if (outcome === "refunded before") return;
    if (outcome === "unreachable" && job.retryCount < REFUND_RETRY_LIMIT) {
      throw new Error(`Stripe could not refund Checkout Session ${refund.sessionId} just now; the refund is retried.`);
    }
    await notifyAdmins({
      type: rules.refundFailedType,
      message: `The card payment of ${amount} for ${rules.noun} #${id} (Checkout Session ${refund.sessionId}) could not be refunded: ${
        outcome === "refused" ? "Stripe refused the refund" : "Stripe could not be reached for a day"
      }. Refund it in the Stripe dashboard.`,
      color: "red",
      routeName: rules.adminRoute,
      resourceId: id,
    });
  },
  { retryLimit: REFUND_RETRY_LIMIT, retryDelaySeconds: 60, retryBackoff: true },
);
