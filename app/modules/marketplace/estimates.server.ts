import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import {
  appConfig,
  estimates,
  projects,
  workRequests,
  type Estimate,
  type EstimateLineItem,
  type Project,
  type WorkRequest,
  type WorkRequestStatus,
} from "~/db/schema";
import { formatCents } from "~/modules/ledger/money";
import { isParticipant, validId, type MarketplaceActor } from "./access.server";
import { MarketplaceError, NO_ESTIMATE } from "./marketplace-errors";
import { firstStage, LIMITS, MARKETPLACE_FEE_KEY, parseMarketplaceFeeBps } from "./marketplace-rules";
import { ESTIMATE_ROUTE, notifyParties, PROJECT_ROUTE } from "./notify.server";
import { cleanText, explainWorkRequest } from "./work-requests.server";

/**
 * Estimates (decision 021). The provider's owner sends an estimate for a pending request, and may
 * revise it while it waits or after the client asked for a revision: a revision is a new version, the earlier
 * ones keep their answers (the history). The client accepts (which opens the project in the same
 * transaction), declines, or asks for a revision. Every change is one conditional UPDATE per row.
 */

export interface EstimateInput {
  lineItems: Array<{ description: string; amountCents: number }>;
  deliveryDays: number;
  revisionsIncluded: number;
  /** Basis points of the master royalties of the request's song; null for none. */
  pointsBps: number | null;
  expiresAt: Date;
  note?: string;
}

export function validateEstimate(input: EstimateInput, now = new Date()) {
  const items = input.lineItems ?? [];
  if (items.length === 0 || items.length > LIMITS.lineItems) throw new MarketplaceError(400, `Add 1 to ${LIMITS.lineItems} line items.`, "lineItems");
  const lineItems: EstimateLineItem[] = items.map((item) => ({ description: cleanText(item.description), amountCents: item.amountCents }));
  if (lineItems.some((i) => i.description.length === 0 || i.description.length > LIMITS.lineItemDescriptionMax)) {
    throw new MarketplaceError(400, `Each line item needs a description (at most ${LIMITS.lineItemDescriptionMax} characters).`, "lineItems");
  }
  if (lineItems.some((i) => !Number.isSafeInteger(i.amountCents) || i.amountCents <= 0))
    throw new MarketplaceError(400, "Each line item needs an amount above $0.00.", "lineItems");
  const totalCents = lineItems.reduce((sum, i) => sum + i.amountCents, 0);
  if (totalCents > LIMITS.estimateMaxCents) throw new MarketplaceError(400, "An estimate totals at most $1,000,000.00.", "lineItems");
  if (!Number.isInteger(input.deliveryDays) || input.deliveryDays < 1 || input.deliveryDays > LIMITS.deliveryDaysMax) {
    throw new MarketplaceError(400, `Delivery takes 1 to ${LIMITS.deliveryDaysMax} days.`, "deliveryDays");
  }
  if (!Number.isInteger(input.revisionsIncluded) || input.revisionsIncluded < 0 || input.revisionsIncluded > LIMITS.revisionsMax) {
    throw new MarketplaceError(400, `Include 0 to ${LIMITS.revisionsMax} revisions.`, "revisionsIncluded");
  }
  if (input.pointsBps !== null && (!Number.isInteger(input.pointsBps) || input.pointsBps < 1 || input.pointsBps > LIMITS.pointsMaxBps)) {
    throw new MarketplaceError(400, "Points are 0.01% to 50.00% of the song's master royalties.", "pointsBps");
  }
  const expiresAt = input.expiresAt instanceof Date ? input.expiresAt : new Date(Number.NaN);
  if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now || expiresAt.getTime() - now.getTime() > LIMITS.expiryDaysMax * 86_400_000) {
    throw new MarketplaceError(400, `The estimate expires within ${LIMITS.expiryDaysMax} days from now.`, "expiresAt");
  }
  const note = cleanText(input.note ?? "");
  if (note.length > LIMITS.noteMax) throw new MarketplaceError(400, `The note is at most ${LIMITS.noteMax} characters.`, "note");
  return { lineItems, totalCents, deliveryDays: input.deliveryDays, revisionsIncluded: input.revisionsIncluded, pointsBps: input.pointsBps, expiresAt, note };
}

async function issueEstimate(
  actor: MarketplaceActor,
  workRequestId: number,
  input: EstimateInput,
  from: WorkRequestStatus[],
  doing: string,
  now: Date,
): Promise<Estimate> {
  const values = validateEstimate(input, now);
  const { request, estimate } = await db().transaction(async (tx) => {
    const [request] = validId(workRequestId)
      ? await tx
          .update(workRequests)
          .set({ status: "awaiting_approval", updatedAt: now })
          .where(and(eq(workRequests.id, workRequestId), inArray(workRequests.status, from), eq(workRequests.providerOwnerId, actor.id)))
          .returning()
      : [];
    if (!request) throw await explainWorkRequest(tx, workRequestId, (r) => r.providerOwnerId === actor.id, doing);
    if (values.pointsBps !== null && request.songId === null) throw new MarketplaceError(400, "Points need a song: this request names none.", "pointsBps");
    // The version waiting for an answer is replaced (canceled); versions the client answered keep their answer.
    await tx
      .update(estimates)
      .set({ status: "canceled" })
      .where(and(eq(estimates.workRequestId, request.id), eq(estimates.status, "awaiting_approval")));
    const [estimate] = await tx
      .insert(estimates)
      .values({
        workRequestId: request.id,
        version: sql`(select coalesce(max(${estimates.version}), 0) + 1 from ${estimates} where ${estimates.workRequestId} = ${request.id})`,
        ...values,
        createdBy: actor.id,
        createdAt: now,
      })
      .returning();
    return { request, estimate: estimate! };
  });
  await notifyParties([request.clientId], actor.id, {
    type: estimate.version === 1 ? "EstimateReceived" : "EstimateRevised",
    message: `${estimate.version === 1 ? "An estimate" : `Estimate version ${estimate.version}`} for work request #${request.id}: ${formatCents(BigInt(estimate.totalCents))}, delivery in ${estimate.deliveryDays} days${estimate.pointsBps ? ` and ${(estimate.pointsBps / 100).toFixed(2)}% points` : ""}. Accept, decline or ask for a revision.`,
    routeName: ESTIMATE_ROUTE,
    resourceId: request.id,
    routeHash: `estimate-v${estimate.version}`,
  });
  return estimate;
}

/** The provider's owner answers a pending work request with its first estimate. */
export function sendEstimate(actor: MarketplaceActor, workRequestId: number, input: EstimateInput, now = new Date()): Promise<Estimate> {
  return issueEstimate(actor, workRequestId, input, ["pending"], "estimated now (it has an estimate already, or is closed)", now);
}

/** The provider's owner sends a new version: after the client asked for a revision, or to replace the one waiting. */
export function reviseEstimate(actor: MarketplaceActor, workRequestId: number, input: EstimateInput, now = new Date()): Promise<Estimate> {
  return issueEstimate(actor, workRequestId, input, ["awaiting_approval", "revision_requested"], "revised", now);
}

/* ------------------------------------------------------------------ the client's answer */

/** The client of the estimate's request, as SQL on the estimate row. */
const clientOfEstimate = (actor: MarketplaceActor) =>
  sql`exists (select 1 from ${workRequests} w where w.id = ${estimates.workRequestId} and w.client_id = ${actor.id})`;

async function explainEstimate(executor: Db, estimateId: number, actor: MarketplaceActor, doing: string, now: Date): Promise<MarketplaceError> {
  const [row] = validId(estimateId)
    ? await executor
        .select({ estimate: estimates, clientId: workRequests.clientId })
        .from(estimates)
        .innerJoin(workRequests, eq(workRequests.id, estimates.workRequestId))
        .where(eq(estimates.id, estimateId))
    : [];
  if (!row || row.clientId !== actor.id) return new MarketplaceError(404, NO_ESTIMATE);
  if (row.estimate.status === "awaiting_approval" && row.estimate.expiresAt <= now) {
    return new MarketplaceError(409, `This estimate expired on ${row.estimate.expiresAt.toISOString().slice(0, 10)}: ask the provider for a revised one.`);
  }
  return new MarketplaceError(409, `This estimate is ${row.estimate.status.replace(/_/g, " ")}: it cannot be ${doing}.`);
}

/** Moves the estimate (awaiting approval, not expired, the actor its client) and its request on, in one transaction. */
async function answer(
  tx: Db,
  actor: MarketplaceActor,
  estimateId: number,
  to: "accepted" | "declined" | "revision_requested",
  note: string | null,
  now: Date,
): Promise<{ estimate: Estimate; request: WorkRequest }> {
  const [estimate] = validId(estimateId)
    ? await tx
        .update(estimates)
        .set({ status: to, responseNote: note, respondedAt: now })
        .where(and(eq(estimates.id, estimateId), eq(estimates.status, "awaiting_approval"), gt(estimates.expiresAt, now), clientOfEstimate(actor)))
        .returning()
    : [];
  if (!estimate)
    throw await explainEstimate(tx, estimateId, actor, to === "accepted" ? "accepted" : to === "declined" ? "declined" : "sent back for a revision", now);
  const [request] = await tx
    .update(workRequests)
    .set({ status: to, updatedAt: now })
    .where(and(eq(workRequests.id, estimate.workRequestId), eq(workRequests.status, "awaiting_approval")))
    .returning();
  if (!request) throw new MarketplaceError(409, "This work request changed meanwhile. Reload the page.");
  return { estimate, request };
}

/** The platform fee in force (config `marketplace_fee_bps`, default 1000 = 10 %), read fresh. */
export async function marketplaceFeeBps(executor: Db = db()): Promise<number> {
  const [row] = await executor.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, MARKETPLACE_FEE_KEY));
  return parseMarketplaceFeeBps(row?.value);
}

/**
 * The client accepts a waiting, unexpired estimate: the estimate and its request become accepted and the
 * project opens (awaiting funding, at the first stage of its service, the fee in force now), all in one transaction.
 */
export async function acceptEstimate(actor: MarketplaceActor, estimateId: number, now = new Date()): Promise<{ estimate: Estimate; project: Project }> {
  const { estimate, request, project } = await db().transaction(async (tx) => {
    const { estimate, request } = await answer(tx, actor, estimateId, "accepted", null, now);
    const feeBps = await marketplaceFeeBps(tx);
    const [project] = await tx
      .insert(projects)
      .values({
        workRequestId: request.id,
        estimateId: estimate.id,
        clientId: request.clientId,
        providerProfileId: request.providerProfileId,
        providerOwnerId: request.providerOwnerId,
        service: request.service,
        songId: request.songId,
        amountCents: estimate.totalCents,
        currency: estimate.currency,
        feeBps,
        pointsBps: estimate.pointsBps,
        revisionsIncluded: estimate.revisionsIncluded,
        dueAt: new Date(now.getTime() + estimate.deliveryDays * 86_400_000),
        stage: firstStage(request.service),
        status: "awaiting_funding",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { estimate, request, project: project! };
  });
  await notifyParties([request.providerOwnerId], actor.id, {
    type: "EstimateAccepted",
    message: `Your estimate for work request #${request.id} (${formatCents(BigInt(estimate.totalCents))}) was accepted: project #${project.id} is open and starts once it is funded.`,
    color: "green",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
  return { estimate, project };
}

function reasonOf(value: unknown, required: boolean, field: string): string | null {
  const text = cleanText(value);
  if (!text && !required) return null;
  if (text.length < LIMITS.reasonMin || text.length > LIMITS.noteMax)
    throw new MarketplaceError(400, `Say what should change (${LIMITS.reasonMin} to ${LIMITS.noteMax} characters).`, field);
  return text;
}

/** The client declines the estimate (and with it the request). An optional reason is kept on the estimate. */
export async function declineEstimate(actor: MarketplaceActor, estimateId: number, reason?: unknown, now = new Date()): Promise<Estimate> {
  const note = reasonOf(reason, false, "reason");
  const { estimate, request } = await db().transaction((tx) => answer(tx, actor, estimateId, "declined", note, now));
  await notifyParties([request.providerOwnerId], actor.id, {
    type: "EstimateDeclined",
    message: `Your estimate for work request #${request.id} was declined${note ? `: ${note}` : "."}`,
    color: "red",
    routeName: ESTIMATE_ROUTE,
    resourceId: request.id,
    routeHash: `estimate-v${estimate.version}`,
  });
  return estimate;
}

/** The client asks for a revised estimate, saying what should change. */
export async function requestEstimateRevision(actor: MarketplaceActor, estimateId: number, note: unknown, now = new Date()): Promise<Estimate> {
  const text = reasonOf(note, true, "note")!;
  const { estimate, request } = await db().transaction((tx) => answer(tx, actor, estimateId, "revision_requested", text, now));
  await notifyParties([request.providerOwnerId], actor.id, {
    type: "EstimateRevisionRequested",
    message: `The client of work request #${request.id} asked for a revised estimate: ${text}`,
    color: "orange",
    routeName: ESTIMATE_ROUTE,
    resourceId: request.id,
    routeHash: `estimate-v${estimate.version}`,
  });
  return estimate;
}

/** One estimate with its request's participants' ids, for the estimate page: its client, its provider's owner or an admin. */
export async function getEstimate(actor: MarketplaceActor, estimateId: number): Promise<{ estimate: Estimate; request: WorkRequest }> {
  const [row] = validId(estimateId)
    ? await db()
        .select({ estimate: estimates, request: workRequests })
        .from(estimates)
        .innerJoin(workRequests, eq(workRequests.id, estimates.workRequestId))
        .where(eq(estimates.id, estimateId))
    : [];
  if (!row || !isParticipant(row.request, actor)) throw new MarketplaceError(404, NO_ESTIMATE);
  return row;
}
