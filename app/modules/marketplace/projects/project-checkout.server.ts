import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { projects, type Project } from "~/db/schema";
import type { MarketplaceActor } from "../access.server";
import { checkoutSubjectId, openCheckout, readReturnedSession, recordPaidSession, type CheckoutOutcome } from "../checkout.server";
import { MarketplaceError, NO_PROJECT } from "../marketplace-errors";
import { SERVICE_LABELS } from "../marketplace-rules";
import { notifyFunded, recordFunding } from "../projects.server";

/**
 * A project's card funding through Stripe Checkout (decision 022): the shared Checkout code (checkout.server.ts)
 * with the project's rules: only its client pays, while it awaits funding; a paid session is recorded as a manual
 * confirmation is (`recordFunding`, method `stripe`), with the session id as the reference.
 */

/** The URL of the Stripe page where the client pays for project `id`, or null when it is already paid (and now recorded). */
export async function startProjectCheckout(actor: MarketplaceActor, id: number, projectPath: string): Promise<string | null> {
  const [project] = await db().select().from(projects).where(eq(projects.id, id));
  if (!project || project.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
  if (project.fundingStatus !== "unfunded" || project.status !== "awaiting_funding")
    throw new MarketplaceError(409, "This project is not waiting for payment.");
  const opened = await openCheckout(
    {
      kind: "project",
      id: project.id,
      amountCents: project.amountCents,
      productName: `Project #${project.id}: ${SERVICE_LABELS[project.service]}`,
      checkoutSessionId: project.checkoutSessionId,
    },
    actor.email,
    projectPath,
    async (sessionId) => {
      await db()
        .update(projects)
        .set({ checkoutSessionId: sessionId, updatedAt: new Date() })
        .where(sql`${projects.id} = ${project.id} and ${projects.checkoutSessionId} is not distinct from ${project.checkoutSessionId}`);
    },
  );
  if ("url" in opened) return opened.url;
  await applyPaidCheckoutSession(opened.paid);
  return null;
}

/**
 * The client is back from Stripe with `sessionId`: read it from Stripe and record the payment if it is paid and
 * is this project's. Whatever the URL says, only Stripe's answer counts.
 */
export async function confirmProjectCheckout(actor: MarketplaceActor, id: number, sessionId: string): Promise<CheckoutOutcome> {
  const [project] = await db().select({ clientId: projects.clientId }).from(projects).where(eq(projects.id, id));
  if (!project || project.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
  const session = await readReturnedSession("project", id, sessionId);
  return typeof session === "string" ? session : applyPaidCheckoutSession(session);
}

/** Records a paid session once, from the client's return; notifies after the commit. */
async function applyPaidCheckoutSession(session: Stripe.Checkout.Session): Promise<CheckoutOutcome> {
  const result = await db().transaction((tx) => recordProjectCheckoutPayment(tx, session));
  if (result.outcome === "funded") await notifyFunded(result.project, result.project.clientId);
  // The refund is the job's (enqueued with the decision); the client is told on the page that it is under way.
  return result.outcome === "refund" ? "refunding" : result.outcome;
}

/**
 * Records a paid session in `tx` (the webhook's transaction, or the return's): once, only for its project, only
 * for the project's amount in USD. After its commit the caller notifies when the outcome is "funded". When it is
 * "refund" (the project could no longer take the payment) nothing is recorded and the refund's job is enqueued in
 * `tx`. "not-ours" for a session that pays for no project.
 */
export async function recordProjectCheckoutPayment(
  tx: Db,
  session: Stripe.Checkout.Session,
): Promise<{ outcome: "funded"; project: Project } | { outcome: "already" | "not-ours" | "refund" }> {
  const id = checkoutSubjectId("project", session);
  if (id === null || session.payment_status !== "paid") return { outcome: "not-ours" };
  // The row lock orders this against a concurrent webhook or return for the same session.
  const [project] = await tx.select().from(projects).where(eq(projects.id, id)).for("update");
  if (!project) return { outcome: "not-ours" };
  const recorded = await recordPaidSession(
    tx,
    session,
    {
      kind: "project",
      id,
      clientId: project.clientId,
      amountCents: project.amountCents,
      fundingReference: project.fundingReference,
      awaitingFunding: project.fundingStatus === "unfunded" && project.status === "awaiting_funding",
      canceled: project.status === "canceled",
    },
    (reference) => recordFunding(tx, project, project.clientId, reference, "stripe"),
  );
  return recorded.outcome === "funded" ? { outcome: "funded", project: recorded.funded } : recorded;
}
