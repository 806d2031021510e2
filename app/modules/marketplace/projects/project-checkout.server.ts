import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { projects, type Project } from "~/db/schema";
import { env } from "~/env.server";
import { formatCents } from "~/modules/ledger/money";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { stripeClient } from "~/modules/payouts/stripe/client.server";
import type { MarketplaceActor } from "../access.server";
import { MarketplaceError, NO_PROJECT } from "../marketplace-errors";
import { SERVICE_LABELS } from "../marketplace-rules";
import { PROJECT_ROUTE } from "../notify.server";
import { notifyFunded, recordFunding } from "../projects.server";

/**
 * Card funding through Stripe Checkout (issue 12; decision 022). Without STRIPE_SECRET_KEY it is not offered and
 * the manual provider (an administrator confirms a bank transfer) is the only one.
 *
 * The client asks to pay: the project's open Checkout Session is reused, or a new one is made (mode payment, the
 * project's amount in cents, `backline_project_id` in its metadata) and remembered on the project, so a second
 * click never opens a second payment. The payment is recorded once, from whichever arrives first: the
 * `checkout.session.completed` webhook or the client's return to the project page (the session is read back from
 * Stripe, never trusted from the URL). Recording = the same funding entry and conditional UPDATE as a manual
 * confirmation, with the session id as the reference; the amount and currency must match the project's.
 * A payment that arrives for a project that can no longer take it (canceled, or funded otherwise, meanwhile) is
 * refunded in full at Stripe instead (refundUnrecordedCheckout).
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
  if (project.fundingStatus !== "unfunded" || project.status !== "in_progress") throw new MarketplaceError(409, "This project is not waiting for payment.");

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
          price_data: { currency: "usd", unit_amount: project.amountCents, product_data: { name: `Project #${project.id}: ${SERVICE_LABELS[project.service]}` } },
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

export type CheckoutOutcome = "funded" | "already" | "refunded" | "unpaid" | "not-ours" | "unreachable";

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

/** Records a paid session once, from the client's return (or refunds it); notifies after the commit. */
async function applyPaidCheckoutSession(session: Stripe.Checkout.Session): Promise<CheckoutOutcome> {
  const result = await db().transaction((tx) => recordCheckoutPayment(tx, session));
  if (result.outcome === "funded") await notifyFunded(result.project!, result.project!.clientId);
  // The client is on the page: the flash tells them; the webhook's path sends the notification.
  if (result.outcome === "refund") return (await refundUnrecordedCheckout(session, result.project!, { notify: false })) ? "refunded" : "unreachable";
  return result.outcome;
}

/**
 * Refunds in full, at Stripe, a paid session that its project could not take (refunds.create on its payment
 * intent, once: the idempotency key names the session, so the webhook and the client's return may both ask).
 * Called after the commit; a failure is logged and answers false, and the next of them to arrive tries again.
 */
export async function refundUnrecordedCheckout(session: Stripe.Checkout.Session, project: Project, options: { notify: boolean }): Promise<boolean> {
  const stripe = stripeClient();
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (!stripe || !paymentIntent) return false;
  try {
    await stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { backline_project_id: String(project.id), backline_checkout_session: session.id } },
      { idempotencyKey: `backline-checkout-refund-${session.id}` },
    );
  } catch (error) {
    // Refunded already (by an administrator at Stripe, say): nothing is left to give back.
    if ((error as { code?: unknown }).code !== "charge_already_refunded") {
      console.error(`[stripe] Checkout Session ${session.id} (project #${project.id}) could not be refunded`, error);
      return false;
    }
  }
  if (options.notify) {
    await notifyMember(project.clientId, {
      type: "ProjectPaymentRefunded",
      message: `Your card payment of ${formatCents(BigInt(session.amount_total ?? 0))} for project #${project.id} arrived after the project was ${project.status === "canceled" ? "canceled" : "paid otherwise"}: it is refunded to your card.`,
      color: "yellow",
      routeName: PROJECT_ROUTE,
      resourceId: project.id,
    }).catch((error) => console.error("[stripe] notification failed", error));
  }
  return true;
}

/**
 * Records a paid session in `tx` (the webhook's transaction, or the return's): once, only for its project, only
 * for the project's amount in USD. After its commit the caller notifies when the outcome is "funded", and
 * refunds the payment (refundUnrecordedCheckout) when it is "refund": the project could no longer take it.
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
  if (project.fundingStatus !== "unfunded" || project.status !== "in_progress") {
    // Paid for a project that was funded otherwise or canceled meanwhile: nothing is recorded, the caller refunds it.
    console.warn(`[stripe] Checkout Session ${session.id} was paid for project #${id}, which is ${project.status} and ${project.fundingStatus}; refunding it`);
    return { outcome: "refund", project };
  }
  return { outcome: "funded", project: await recordFunding(tx, project, project.clientId, reference) };
}
