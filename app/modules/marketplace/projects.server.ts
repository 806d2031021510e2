import { and, asc, eq, ilike, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { escapeLike, newestFirst, pageCountFor } from "~/db/list-queries";
import {
  marketplaceMessages,
  marketplaceServices,
  profiles,
  projectDeliverables,
  projectReviews,
  projects,
  projectStages,
  projectStatuses,
  users,
  type MarketplaceService,
  type Project,
  type ProjectDeliverable,
  type ProjectFundingStatus,
  type ProjectReview,
  type ProjectStage,
  type ProjectStatus,
} from "~/db/schema";
import type { EscrowFundingMethod } from "~/db/schema";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { isAdmin, mayDecideMoney, participantOrAdmin, validId, type MarketplaceActor } from "./access.server";
import { lockBalanceFor, postFunding, postSettlement, projectEscrow } from "./escrow.server";
import { MarketplaceError, NO_PROJECT } from "./marketplace-errors";
import { DELIVERABLE_MIME_TYPES, LIMITS, nextStage } from "./marketplace-rules";
import { notifyParties, PROJECT_ROUTE } from "./notify.server";
import { proposePointsSplit, type SplitMeta } from "./points.server";
import { cleanText, MARKETPLACE_PAGE_SIZE, type AdminListQuery, type ListPage } from "./work-requests.server";

/**
 * Projects (decision 021): opened by an accepted estimate, awaiting funding; funded (escrow) when the
 * client pays from their Backline balance or by card, or an administrator confirms a bank transfer; the provider advances its stages and delivers; the client approves
 * (the escrow is released: earnings less the platform fee) or asks for a revision within the number
 * included. Before the first delivery either side may cancel (the escrow is refunded); after it only an
 * administrator, who may also resolve a dispute by refund, release or split, with a reason.
 *
 * Every status change is one conditional UPDATE (`... where id = ? and status = ... returning`); when it finds
 * no row, the error says why: 404 for a project the actor may not act on (as for a missing id), else 409.
 */

/** Funded and under way. */
const ACTIVE: ProjectStatus[] = ["in_progress", "awaiting_approval", "revision_requested"];
/** Not closed: may still be canceled. */
const OPEN: ProjectStatus[] = ["awaiting_funding", ...ACTIVE];

/** The project, when the actor may see it (client, provider's owner, administrator); 404 otherwise. */
async function visibleProject(executor: Db, actor: MarketplaceActor, id: number): Promise<Project> {
  const [row] = validId(id)
    ? await executor
        .select()
        .from(projects)
        .where(and(eq(projects.id, id), participantOrAdmin(projects, actor)))
    : [];
  if (!row) throw new MarketplaceError(404, NO_PROJECT);
  return row;
}

async function explainProject(executor: Db, id: number, mayAct: (p: Project) => boolean, doing: string): Promise<MarketplaceError> {
  const [row] = validId(id) ? await executor.select().from(projects).where(eq(projects.id, id)) : [];
  if (!row || !mayAct(row)) return new MarketplaceError(404, NO_PROJECT);
  if (row.status === "awaiting_funding") return new MarketplaceError(409, `This project is not funded yet: it cannot be ${doing}.`);
  return new MarketplaceError(409, `This project is ${row.status.replace(/_/g, " ")} (${row.fundingStatus}): it cannot be ${doing}.`);
}

function reasonText(value: unknown, field = "reason"): string {
  const text = cleanText(value);
  if (text.length < LIMITS.reasonMin || text.length > LIMITS.reasonMax)
    throw new MarketplaceError(400, `Give a reason (${LIMITS.reasonMin} to ${LIMITS.reasonMax} characters).`, field);
  return text;
}

const money = (cents: number) => formatCents(BigInt(cents));

/* ------------------------------------------------------------------ funding */

/**
 * An administrator confirms the client's payment arrived (the `manual` provider): the amount moves from
 * marketplace receipts into the project's escrow, and the work can start.
 */
export async function fundProject(actor: MarketplaceActor, id: number, reference: unknown, now = new Date()): Promise<Project> {
  if (!mayDecideMoney(actor)) throw new MarketplaceError(404, NO_PROJECT);
  const ref = cleanText(reference);
  if (ref.length < 3 || ref.length > 120) throw new MarketplaceError(400, "Enter the payment's reference (3 to 120 characters).", "reference");
  const project = await db().transaction(async (tx) => recordFunding(tx, await visibleProject(tx, actor, id), actor.id, ref, "manual", now));
  await notifyFunded(project, actor.id);
  return project;
}

/** The reference a project funded from the client's balance records. */
export const BALANCE_REFERENCE = "Backline balance";

/**
 * The client pays the project from their Backline balance (their earnings): under the member's payout lock, the
 * available balance is checked and the amount moves from their earnings into the project's escrow, in one
 * transaction, so neither a payout request nor another payment running at the same time can overdraw it
 * (decision 022). Only the client (404 for anyone else); 409 when the project is not awaiting funding; 400
 * when the available balance is short. The route asks for a fresh confirmation first.
 */
export async function payProjectFromBalance(actor: MarketplaceActor, id: number, now = new Date()): Promise<Project> {
  const project = await db().transaction(async (tx) => {
    const current = await visibleProject(tx, actor, id);
    if (current.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
    if (current.status !== "awaiting_funding" || current.fundingStatus !== "unfunded")
      throw new MarketplaceError(409, "This project is not waiting for payment.");
    await lockBalanceFor(tx, actor.id, current.amountCents);
    return recordFunding(tx, current, actor.id, BALANCE_REFERENCE, "balance", now);
  });
  await notifyFunded(project, actor.id);
  return project;
}

/**
 * Posts the funding entry (receipts or the client's earnings → escrow) and claims the project's change from
 * awaiting funding to in progress in `tx`; a project no longer awaiting funding throws 409, which rolls the entry
 * back with the caller's transaction. The one way a project is funded: an administrator's confirmation (manual),
 * a paid Stripe Checkout Session, or the client's balance.
 */
export async function recordFunding(
  tx: Db,
  current: Project,
  actorId: number,
  reference: string,
  method: EscrowFundingMethod,
  now = new Date(),
): Promise<Project> {
  const { entryId, fundedMicros } = await postFunding(tx, projectEscrow(current), method, actorId, reference);
  const [row] = await tx
    .update(projects)
    .set({
      status: "in_progress",
      fundingStatus: "funded",
      fundingMethod: method,
      fundedMicros,
      fundEntryId: entryId,
      fundingReference: reference,
      fundedAt: now,
      updatedAt: now,
    })
    .where(and(eq(projects.id, current.id), eq(projects.fundingStatus, "unfunded"), eq(projects.status, "awaiting_funding")))
    .returning();
  if (!row) throw new MarketplaceError(409, `This project is ${current.status.replace(/_/g, " ")} and ${current.fundingStatus}: it cannot be funded.`);
  return row;
}

/** Both parties hear that the money is in escrow (after the commit; `actorId` is not told of their own act). */
export async function notifyFunded(project: Project, actorId: number | null): Promise<void> {
  await notifyParties([project.clientId, project.providerOwnerId], actorId ?? 0, {
    type: "ProjectFunded",
    message: `Project #${project.id} is funded: ${money(project.amountCents)} is held in escrow until the delivery is approved.`,
    color: "green",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
}

/* ------------------------------------------------------------------ stages and delivery */

/** The provider's owner (or an administrator) moves a funded project to its service's next stage. */
export async function advanceStage(actor: MarketplaceActor, id: number, now = new Date()): Promise<Project> {
  const mayAct = (p: Project) => p.providerOwnerId === actor.id || isAdmin(actor);
  const current = await visibleProject(db(), actor, id);
  if (!mayAct(current)) throw new MarketplaceError(404, NO_PROJECT);
  const next = nextStage(current.service, current.stage);
  if (!next) throw new MarketplaceError(409, "This is the last stage: the project completes when the client approves the delivery.");
  const [row] = await db()
    .update(projects)
    .set({ stage: next, updatedAt: now })
    .where(and(eq(projects.id, current.id), eq(projects.stage, current.stage), eq(projects.fundingStatus, "funded"), inArray(projects.status, ACTIVE)))
    .returning();
  if (!row) throw await explainProject(db(), id, mayAct, "moved to the next stage");
  await notifyParties([row.clientId, row.providerOwnerId], actor.id, {
    type: "ProjectStage",
    message: `Project #${row.id} is now ${next.replace(/_/g, " ")}.`,
    routeName: PROJECT_ROUTE,
    resourceId: row.id,
  });
  return row;
}

export interface DeliverableInput {
  /** Where the upload route stored the file, relative to the storage folder. */
  filePath: string;
  fileName: string;
  bytes: number;
  mime: string;
  sha256?: string | null;
}

export function validateDeliverable(input: DeliverableInput) {
  const filePath = typeof input.filePath === "string" ? input.filePath : "";
  if (!filePath || filePath.length > 500 || filePath.startsWith("/") || filePath.split(/[\\/]/).some((part) => part === ".." || part === "")) {
    throw new MarketplaceError(400, "The file was not stored.", "file");
  }
  const fileName = cleanText(input.fileName).slice(0, 255);
  if (!fileName) throw new MarketplaceError(400, "The file needs a name.", "file");
  if (!Number.isSafeInteger(input.bytes) || input.bytes <= 0) throw new MarketplaceError(400, "The file is empty.", "file");
  if (input.bytes > LIMITS.deliverableMaxBytes)
    throw new MarketplaceError(400, `Deliverables can be at most ${LIMITS.deliverableMaxBytes / 1024 / 1024} MB.`, "file");
  const mime = (input.mime ?? "").toLowerCase();
  if (!(DELIVERABLE_MIME_TYPES as readonly string[]).includes(mime))
    throw new MarketplaceError(400, "Deliver audio (WAV, FLAC, AIFF, MP3, AAC, Ogg) or a zip of it.", "file");
  const sha256 = input.sha256 && /^[0-9a-f]{64}$/.test(input.sha256) ? input.sha256 : null;
  return { filePath, fileName, bytes: input.bytes, mime, sha256 };
}

/**
 * The provider's owner records a delivered file (the route streamed and stored it): the project then waits
 * for the client's approval. The first delivery is remembered: from then on only an administrator may cancel.
 */
export async function uploadDeliverable(
  actor: MarketplaceActor,
  id: number,
  file: DeliverableInput,
  now = new Date(),
): Promise<{ project: Project; deliverable: ProjectDeliverable }> {
  const values = validateDeliverable(file);
  const result = await db().transaction(async (tx) => {
    const [project] = validId(id)
      ? await tx
          .update(projects)
          .set({
            status: "awaiting_approval",
            firstDeliveredAt: sql`coalesce(${projects.firstDeliveredAt}, ${now.toISOString()}::timestamptz)`,
            updatedAt: now,
          })
          .where(and(eq(projects.id, id), eq(projects.providerOwnerId, actor.id), eq(projects.fundingStatus, "funded"), inArray(projects.status, ACTIVE)))
          .returning()
      : [];
    if (!project) throw await explainProject(tx, id, (p) => p.providerOwnerId === actor.id, "delivered");
    const [deliverable] = await tx
      .insert(projectDeliverables)
      .values({ projectId: project.id, uploadedBy: actor.id, ...values, round: project.revisionsUsed, createdAt: now })
      .returning();
    return { project, deliverable: deliverable! };
  });
  await notifyParties([result.project.clientId], actor.id, {
    type: "ProjectDelivered",
    message: `Project #${result.project.id}: ${result.deliverable.fileName} was delivered. Approve it, or ask for a revision.`,
    color: "purple",
    routeName: PROJECT_ROUTE,
    resourceId: result.project.id,
  });
  return result;
}

/* ------------------------------------------------------------------ the client's answer to a delivery */

/**
 * The client approves the delivery: the project completes and its escrow is released (the provider's earnings
 * get the amount less the platform fee, the fee goes to commission), in one transaction. Points the estimate
 * carried then become a split proposal on the song, for its owner to confirm.
 */
export async function approveDelivery(actor: MarketplaceActor, id: number, meta: SplitMeta = {}, now = new Date()): Promise<Project> {
  const mayAct = (p: Project) => p.clientId === actor.id;
  const project = await db().transaction(async (tx) => {
    const current = await visibleProject(tx, actor, id);
    if (!mayAct(current)) throw new MarketplaceError(404, NO_PROJECT);
    if (current.status !== "awaiting_approval" || current.fundingStatus !== "funded") throw await explainProject(tx, id, mayAct, "approved");
    const settled = await postSettlement(tx, projectEscrow(current), current.amountCents, actor.id, `Project #${current.id} approved: escrow released`);
    const [row] = await tx
      .update(projects)
      .set({
        status: "completed",
        stage: "completed",
        fundingStatus: "released",
        releasedMicros: settled.releasedMicros,
        feeMicros: settled.feeMicros,
        refundedMicros: settled.refundedMicros,
        settleEntryId: settled.entryId,
        completedAt: now,
        updatedAt: now,
      })
      .where(and(eq(projects.id, current.id), eq(projects.clientId, actor.id), eq(projects.status, "awaiting_approval"), eq(projects.fundingStatus, "funded")))
      .returning();
    if (!row) throw await explainProject(tx, id, mayAct, "approved");
    return row;
  });
  await notifyParties([project.providerOwnerId], actor.id, {
    type: "ProjectCompleted",
    message: `Project #${project.id} was approved: ${formatCents(microsToCentsFloor(project.releasedMicros))} is in your earnings.`,
    color: "green",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
  if (project.pointsBps) await proposePointsSplit(project.id, meta);
  return project;
}

/** The client asks for a revision of the delivery, while revisions included remain; the note goes to the thread. */
export async function requestDeliveryRevision(actor: MarketplaceActor, id: number, note: unknown, now = new Date()): Promise<Project> {
  const text = cleanText(note);
  if (text.length < LIMITS.reasonMin || text.length > LIMITS.noteMax)
    throw new MarketplaceError(400, `Say what should change (${LIMITS.reasonMin} to ${LIMITS.noteMax} characters).`, "note");
  const mayAct = (p: Project) => p.clientId === actor.id;
  const project = await db().transaction(async (tx) => {
    const [row] = validId(id)
      ? await tx
          .update(projects)
          .set({ status: "revision_requested", revisionsUsed: sql`${projects.revisionsUsed} + 1`, updatedAt: now })
          .where(
            and(
              eq(projects.id, id),
              eq(projects.clientId, actor.id),
              eq(projects.status, "awaiting_approval"),
              eq(projects.fundingStatus, "funded"),
              lt(projects.revisionsUsed, projects.revisionsIncluded),
            ),
          )
          .returning()
      : [];
    if (!row) {
      const [current] = validId(id) ? await tx.select().from(projects).where(eq(projects.id, id)) : [];
      if (current && mayAct(current) && current.status === "awaiting_approval" && current.revisionsUsed >= current.revisionsIncluded) {
        throw new MarketplaceError(
          409,
          current.revisionsIncluded === 0
            ? "This estimate included no revisions: approve the delivery, or ask an administrator to resolve it."
            : `All ${current.revisionsIncluded} revisions included are used: approve the delivery, or ask an administrator to resolve it.`,
        );
      }
      throw await explainProject(tx, id, mayAct, "sent back for a revision");
    }
    await tx.insert(marketplaceMessages).values({
      workRequestId: row.workRequestId,
      projectId: row.id,
      senderId: actor.id,
      body: `Revision requested: ${text}`.slice(0, LIMITS.messageMax),
      createdAt: now,
    });
    return row;
  });
  await notifyParties([project.providerOwnerId], actor.id, {
    type: "ProjectRevisionRequested",
    message: `Project #${project.id}: the client asked for revision ${project.revisionsUsed} of ${project.revisionsIncluded}: ${text}`,
    color: "orange",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
  return project;
}

/* ------------------------------------------------------------------ cancellation and disputes */

/**
 * Cancels an open project. Before the first delivery its client or provider's owner may (an administrator
 * too); after it, only an administrator. A funded project's escrow is refunded to the client in full.
 */
export async function cancelProject(actor: MarketplaceActor, id: number, reason: unknown, now = new Date()): Promise<Project> {
  const text = reasonText(reason);
  const admin = mayDecideMoney(actor);
  const project = await db().transaction(async (tx) => {
    const current = await visibleProject(tx, actor, id);
    if (!OPEN.includes(current.status)) throw new MarketplaceError(409, `This project is ${current.status.replace(/_/g, " ")} already.`);
    if (current.firstDeliveredAt && !admin) throw new MarketplaceError(409, "Work was delivered already: only an administrator can cancel this project now.");
    const settled =
      current.fundingStatus === "funded"
        ? await postSettlement(tx, projectEscrow(current), 0, actor.id, `Project #${current.id} canceled: escrow refunded`)
        : null;
    const [row] = await tx
      .update(projects)
      .set({
        status: "canceled",
        canceledAt: now,
        updatedAt: now,
        resolution: `canceled: ${text}`,
        resolvedBy: actor.id,
        ...(settled
          ? {
              fundingStatus: "refunded" as const,
              releasedMicros: settled.releasedMicros,
              feeMicros: settled.feeMicros,
              refundedMicros: settled.refundedMicros,
              settleEntryId: settled.entryId,
            }
          : {}),
      })
      .where(
        and(
          eq(projects.id, current.id),
          inArray(projects.status, OPEN),
          eq(projects.fundingStatus, current.fundingStatus),
          admin ? undefined : isNull(projects.firstDeliveredAt),
        ),
      )
      .returning();
    if (!row) throw new MarketplaceError(409, "This project changed meanwhile. Reload the page.");
    return row;
  });
  await notifyParties([project.clientId, project.providerOwnerId], actor.id, {
    type: "ProjectCanceled",
    message: `Project #${project.id} was canceled${project.fundingStatus === "refunded" ? `; ${money(project.amountCents)} is refunded to the client` : ""}: ${text}`,
    color: "red",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
  return project;
}

export type Resolution = { outcome: "refund" } | { outcome: "release" } | { outcome: "split"; releaseCents: number };

/**
 * An administrator resolves a funded, open project (a dispute), with a reason recorded: `refund` (all back to
 * the client; canceled), `release` (all to the provider less the fee; completed, and points proposed), or
 * `split` (`releaseCents` to the provider less the fee on it, the rest refunded; completed).
 */
export async function adminResolve(
  actor: MarketplaceActor,
  id: number,
  resolution: Resolution,
  reason: unknown,
  meta: SplitMeta = {},
  now = new Date(),
): Promise<Project> {
  if (!mayDecideMoney(actor)) throw new MarketplaceError(404, NO_PROJECT);
  const text = reasonText(reason);
  if (!["refund", "release", "split"].includes(resolution?.outcome)) throw new MarketplaceError(400, "Choose refund, release or split.", "outcome");
  const project = await db().transaction(async (tx) => {
    const current = await visibleProject(tx, actor, id);
    if (!ACTIVE.includes(current.status) || current.fundingStatus !== "funded") {
      throw new MarketplaceError(409, `This project is ${current.status.replace(/_/g, " ")} (${current.fundingStatus}): there is no escrow to resolve.`);
    }
    let releaseCents: number;
    if (resolution.outcome === "split") {
      releaseCents = resolution.releaseCents;
      if (!Number.isSafeInteger(releaseCents) || releaseCents <= 0 || releaseCents >= current.amountCents) {
        throw new MarketplaceError(400, `A split releases more than $0.00 and less than ${money(current.amountCents)} to the provider.`, "releaseAmount");
      }
    } else releaseCents = resolution.outcome === "release" ? current.amountCents : 0;
    const settled = await postSettlement(
      tx,
      projectEscrow(current),
      releaseCents,
      actor.id,
      `Project #${current.id} resolved by an administrator (${resolution.outcome}): ${text}`,
    );
    const refund = resolution.outcome === "refund";
    const fundingStatus: ProjectFundingStatus = refund ? "refunded" : resolution.outcome === "release" ? "released" : "split";
    const [row] = await tx
      .update(projects)
      .set({
        status: refund ? "canceled" : "completed",
        stage: refund ? current.stage : "completed",
        fundingStatus,
        releasedMicros: settled.releasedMicros,
        feeMicros: settled.feeMicros,
        refundedMicros: settled.refundedMicros,
        settleEntryId: settled.entryId,
        ...(refund ? { canceledAt: now } : { completedAt: now }),
        resolution: `${resolution.outcome}: ${text}`,
        resolvedBy: actor.id,
        updatedAt: now,
      })
      .where(and(eq(projects.id, current.id), inArray(projects.status, ACTIVE), eq(projects.fundingStatus, "funded")))
      .returning();
    if (!row) throw new MarketplaceError(409, "This project changed meanwhile. Reload the page.");
    return row;
  });
  const toProvider = formatCents(microsToCentsFloor(project.releasedMicros));
  const toClient = formatCents(microsToCentsFloor(project.refundedMicros));
  await notifyParties([project.clientId, project.providerOwnerId], actor.id, {
    type: "ProjectResolved",
    message: `An administrator resolved project #${project.id} (${resolution.outcome}): ${toProvider} to the provider's earnings, ${toClient} refunded to the client. Reason: ${text}`,
    color: "yellow",
    routeName: PROJECT_ROUTE,
    resourceId: project.id,
  });
  if (resolution.outcome === "release" && project.pointsBps) await proposePointsSplit(project.id, meta);
  return project;
}

/* ------------------------------------------------------------------ reading */

export interface ProjectDetail {
  project: Project;
  provider: { id: number; name: string; type: string; username: string };
  client: { id: number; name: string };
  deliverables: ProjectDeliverable[];
  review: ProjectReview | null;
  role: "client" | "provider" | "admin";
}

/** One project with its deliverables and review, for its client, its provider's owner or an administrator. Three statements. */
export async function getProject(actor: MarketplaceActor, id: number): Promise<ProjectDetail> {
  if (!validId(id)) throw new MarketplaceError(404, NO_PROJECT);
  const [row] = await db()
    .select({
      project: projects,
      provider: { id: profiles.id, name: profiles.name, type: profiles.type, username: profiles.username },
      clientName: sql<string>`${users.name} || ' ' || ${users.lastName}`,
    })
    .from(projects)
    .innerJoin(profiles, eq(profiles.id, projects.providerProfileId))
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(and(eq(projects.id, id), participantOrAdmin(projects, actor)));
  if (!row) throw new MarketplaceError(404, NO_PROJECT);
  const [deliverables, [review]] = await Promise.all([
    db()
      .select()
      .from(projectDeliverables)
      .where(eq(projectDeliverables.projectId, id))
      .orderBy(asc(projectDeliverables.createdAt), asc(projectDeliverables.id)),
    db().select().from(projectReviews).where(eq(projectReviews.projectId, id)),
  ]);
  const role = row.project.clientId === actor.id ? "client" : row.project.providerOwnerId === actor.id ? "provider" : "admin";
  return {
    project: row.project,
    provider: row.provider,
    client: { id: row.project.clientId, name: row.clientName },
    deliverables,
    review: review ?? null,
    role,
  };
}

export interface ProjectListRow {
  id: number;
  workRequestId: number;
  service: MarketplaceService;
  stage: ProjectStage;
  status: ProjectStatus;
  fundingStatus: ProjectFundingStatus;
  amountCents: number;
  dueAt: Date | null;
  createdAt: Date;
  clientId: number;
  clientName: string;
  providerProfileId: number;
  providerName: string;
}

/** One page of projects and their count, cut from projects alone unless the filter reads people's names (as work requests are: see workRequestPage). */
async function projectPage(where: SQL | undefined, page: number, searchesPeople: boolean, pageSize = MARKETPLACE_PAGE_SIZE): Promise<ListPage<ProjectListRow>> {
  const order = newestFirst(projects.createdAt, projects.id);
  const listed = (
    searchesPeople
      ? db()
          .select({ id: projects.id })
          .from(projects)
          .innerJoin(users, eq(users.id, projects.clientId))
          .innerJoin(profiles, eq(profiles.id, projects.providerProfileId))
      : db().select({ id: projects.id }).from(projects)
  )
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as("listed");
  const counted = searchesPeople
    ? db()
        .select({ n: sql<number>`count(*)::int` })
        .from(projects)
        .innerJoin(users, eq(users.id, projects.clientId))
        .innerJoin(profiles, eq(profiles.id, projects.providerProfileId))
        .where(where)
    : db()
        .select({ n: sql<number>`count(*)::int` })
        .from(projects)
        .where(where);
  const [rows, [count]] = await Promise.all([
    db()
      .select({
        id: projects.id,
        workRequestId: projects.workRequestId,
        service: projects.service,
        stage: projects.stage,
        status: projects.status,
        fundingStatus: projects.fundingStatus,
        amountCents: projects.amountCents,
        dueAt: projects.dueAt,
        createdAt: projects.createdAt,
        clientId: projects.clientId,
        clientName: sql<string>`${users.name} || ' ' || ${users.lastName}`,
        providerProfileId: projects.providerProfileId,
        providerName: profiles.name,
      })
      .from(listed)
      .innerJoin(projects, eq(projects.id, listed.id))
      .innerJoin(users, eq(users.id, projects.clientId))
      .innerJoin(profiles, eq(profiles.id, projects.providerProfileId))
      .orderBy(...order),
    counted,
  ]);
  const total = count?.n ?? 0;
  return { rows, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

const pageOf = (page: number | undefined) => (Number.isInteger(page) && page! >= 1 && page! <= 10_000 ? page! : 1);

export interface MemberProjectFilter {
  /** One of the project statuses; anything else is no filter. */
  status?: string;
  /** One of the project stages; anything else is no filter. */
  stage?: string;
}

/** A member's projects, as the client or as a provider, newest first, by status and stage. Two statements. */
export async function listMemberProjects(
  actor: Pick<MarketplaceActor, "id">,
  as: "client" | "provider",
  page?: number,
  filter: MemberProjectFilter = {},
): Promise<ListPage<ProjectListRow>> {
  return projectPage(
    and(
      as === "client" ? eq(projects.clientId, actor.id) : eq(projects.providerOwnerId, actor.id),
      filter.status && (projectStatuses as readonly string[]).includes(filter.status) ? eq(projects.status, filter.status as ProjectStatus) : undefined,
      filter.stage && (projectStages as readonly string[]).includes(filter.stage) ? eq(projects.stage, filter.stage as ProjectStage) : undefined,
    ),
    pageOf(page),
    false,
  );
}

/** Every project, for administrators: by status and service, searched by client or provider. Two statements. */
export async function adminListProjects(actor: MarketplaceActor, query: AdminListQuery = {}): Promise<ListPage<ProjectListRow>> {
  if (!isAdmin(actor)) throw new MarketplaceError(404, NO_PROJECT);
  const q = cleanText(query.q).slice(0, 100).toLowerCase();
  const like = `%${escapeLike(q)}%`;
  const where = and(
    query.status && (projectStatuses as readonly string[]).includes(query.status) ? eq(projects.status, query.status as ProjectStatus) : undefined,
    query.service && (marketplaceServices as readonly string[]).includes(query.service) ? eq(projects.service, query.service as MarketplaceService) : undefined,
    q
      ? or(
          sql`lower(${users.name} || ' ' || ${users.lastName} || ' ' || ${users.email}) like ${like}`,
          ilike(profiles.name, like),
          /^\d{1,9}$/.test(q) ? eq(projects.id, Number(q)) : undefined,
        )
      : undefined,
  );
  return projectPage(where, pageOf(query.page), Boolean(q));
}
