import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { postProductionJobs, type PostProductionJob } from "~/db/schema";
import { checkoutSubjectId, openCheckout, readReturnedSession, recordPaidSession, type CheckoutOutcome } from "~/modules/marketplace/checkout.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { NO_JOB, type PpActor, visibleJob } from "./job-access.server";
import { notifyJobFunded, recordJobFunding } from "./job-transitions.server";
import { PP_SERVICE_LABELS } from "./post-production-rules";

/**
 * A post-production job's card funding through Stripe Checkout (decision 023), exactly as a project's: the shared
 * Checkout code (marketplace/checkout.server.ts) with the job's rules: only its owner pays, while it awaits funding;
 * a paid session is the same funding as the other methods (`recordJobFunding`, method `stripe`, the session id as
 * the reference), and a payment for a job that was canceled or funded otherwise meanwhile is refunded by the shared
 * refund job.
 */

/** The URL of the Stripe page where the owner pays for job `id`, or null when it is already paid (and now recorded). */
export async function startJobCheckout(actor: PpActor, id: number, jobPath: string): Promise<string | null> {
  const job = await visibleJob(db(), actor, id);
  if (job.ownerId !== actor.id) throw new MarketplaceError(404, NO_JOB);
  if (job.status !== "awaiting_funding" || job.fundingStatus !== "unfunded" || job.amountCents === null)
    throw new MarketplaceError(409, "This job is not waiting for payment.");
  const opened = await openCheckout(
    {
      kind: "post-production job",
      id: job.id,
      amountCents: job.amountCents,
      productName: `Post-production job #${job.id}: ${PP_SERVICE_LABELS[job.service]}`,
      checkoutSessionId: job.checkoutSessionId,
    },
    actor.email,
    jobPath,
    async (sessionId) => {
      await db()
        .update(postProductionJobs)
        .set({ checkoutSessionId: sessionId, updatedAt: new Date() })
        .where(sql`${postProductionJobs.id} = ${job.id} and ${postProductionJobs.checkoutSessionId} is not distinct from ${job.checkoutSessionId}`);
    },
  );
  if ("url" in opened) return opened.url;
  await applyPaidJobSession(opened.paid);
  return null;
}

/**
 * The owner is back from Stripe with `sessionId`: read it from Stripe and record the payment if it is paid and is
 * this job's. Whatever the URL says, only Stripe's answer counts. 404 unless the actor owns the job.
 */
export async function confirmJobCheckout(actor: PpActor, id: number, sessionId: string): Promise<CheckoutOutcome> {
  const job = await visibleJob(db(), actor, id);
  if (job.ownerId !== actor.id) throw new MarketplaceError(404, NO_JOB);
  const session = await readReturnedSession("post-production job", id, sessionId);
  return typeof session === "string" ? session : applyPaidJobSession(session);
}

/** Records a paid session once, from the owner's return; notifies after the commit. */
async function applyPaidJobSession(session: Stripe.Checkout.Session): Promise<CheckoutOutcome> {
  const result = await db().transaction((tx) => recordJobCheckoutPayment(tx, session));
  if (result.outcome === "funded") await notifyJobFunded(result.job, result.job.ownerId);
  // The refund is the job's (enqueued with the decision); the owner is told on the page that it is under way.
  return result.outcome === "refund" ? "refunding" : result.outcome;
}

/**
 * Records a paid session in `tx` (the webhook's transaction, or the return's): once, only for its job, only for the
 * job's amount in USD. After its commit the caller notifies when the outcome is "funded"; on "refund" nothing is
 * recorded and the refund's job is enqueued in `tx`. "not-ours" for a session that pays for no job.
 */
export async function recordJobCheckoutPayment(
  tx: Db,
  session: Stripe.Checkout.Session,
  now = new Date(),
): Promise<{ outcome: "funded"; job: PostProductionJob } | { outcome: "already" | "not-ours" | "refund" }> {
  const id = checkoutSubjectId("post-production job", session);
  if (id === null || session.payment_status !== "paid") return { outcome: "not-ours" };
  // The row lock orders this against a concurrent webhook or return for the same session, and against a cancel.
  const [job] = await tx.select().from(postProductionJobs).where(eq(postProductionJobs.id, id)).for("update");
  if (!job || job.amountCents === null) return { outcome: "not-ours" };
  const recorded = await recordPaidSession(
    tx,
    session,
    {
      kind: "post-production job",
      id,
      clientId: job.ownerId,
      amountCents: job.amountCents,
      fundingReference: job.fundingReference,
      awaitingFunding: job.fundingStatus === "unfunded" && job.status === "awaiting_funding",
      canceled: job.status === "canceled",
    },
    (reference) => recordJobFunding(tx, job, job.ownerId, reference, "stripe", now),
  );
  return recorded.outcome === "funded" ? { outcome: "funded", job: recorded.funded } : recorded;
}
