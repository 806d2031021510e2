import { and, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { escapeLike, newestFirst, pageCountFor } from "~/db/list-queries";
import {
  estimates,
  marketplaceServices,
  profiles,
  projects,
  songs,
  users,
  workRequests,
  workRequestStatuses,
  type Estimate,
  type MarketplaceService,
  type Project,
  type WorkRequest,
  type WorkRequestStatus,
} from "~/db/schema";
import { todayUtc } from "~/modules/catalog/catalog.server";
import { PROVIDER_TYPES } from "~/modules/profiles/profile-types";
import { isAdmin, participantOrAdmin, validId, type MarketplaceActor } from "./access.server";
import { MarketplaceError, NO_WORK_REQUEST } from "./marketplace-errors";
import { LIMITS, SERVICE_LABELS } from "./marketplace-rules";
import { notifyParties, WORK_REQUEST_ROUTE } from "./notify.server";

/**
 * Work requests (decision 021): a member (the client) asks a published provider profile for a
 * service. Every status change is one conditional UPDATE; a request its actor may not see is a 404.
 */

export interface WorkRequestInput {
  service: string;
  description: string;
  referenceLinks: string[];
  budgetCents: number;
  /** YYYY-MM-DD, today or later. */
  deadline: string;
  songId: number | null;
}

/** Control characters other than newlines and tabs are dropped from free text (it is stored as plain text). */
export function cleanText(value: unknown): string {
  return typeof value === "string" ? value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").trim() : "";
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

export function validateWorkRequest(input: WorkRequestInput, now = new Date()) {
  if (!(marketplaceServices as readonly string[]).includes(input.service)) throw new MarketplaceError(400, "Choose a service.", "service");
  const description = cleanText(input.description);
  if (description.length < LIMITS.descriptionMin || description.length > LIMITS.descriptionMax) {
    throw new MarketplaceError(400, `Describe the work in ${LIMITS.descriptionMin} to ${LIMITS.descriptionMax} characters.`, "description");
  }
  const links = (input.referenceLinks ?? []).map((l) => cleanText(l)).filter(Boolean);
  if (links.length > LIMITS.links) throw new MarketplaceError(400, `At most ${LIMITS.links} reference links.`, "referenceLinks");
  if (links.some((l) => l.length > LIMITS.linkMax || !isHttpUrl(l)))
    throw new MarketplaceError(400, "Reference links must be web addresses (https://...).", "referenceLinks");
  if (!Number.isSafeInteger(input.budgetCents) || input.budgetCents <= 0 || input.budgetCents > LIMITS.budgetMaxCents) {
    throw new MarketplaceError(400, "Enter a budget above $0.00 and at most $1,000,000.00.", "budget");
  }
  if (
    typeof input.deadline !== "string" ||
    !/^\d{4}-\d{2}-\d{2}$/.test(input.deadline) ||
    Number.isNaN(Date.parse(`${input.deadline}T00:00:00Z`)) ||
    new Date(`${input.deadline}T00:00:00Z`).toISOString().slice(0, 10) !== input.deadline
  ) {
    throw new MarketplaceError(400, "Enter the deadline as a date.", "deadline");
  }
  if (input.deadline < todayUtc(now)) throw new MarketplaceError(400, "The deadline cannot be in the past.", "deadline");
  if (input.songId !== null && !validId(input.songId)) throw new MarketplaceError(400, "Choose one of your songs.", "songId");
  return {
    service: input.service as MarketplaceService,
    description,
    referenceLinks: links,
    budgetCents: input.budgetCents,
    deadline: input.deadline,
    songId: input.songId,
  };
}

/** The client asks a published provider profile for a service; the provider's owner is notified. */
export async function createWorkRequest(actor: MarketplaceActor, providerProfileId: number, input: WorkRequestInput, now = new Date()): Promise<WorkRequest> {
  if (!validId(providerProfileId)) throw new MarketplaceError(404, "This profile does not exist.");
  const values = validateWorkRequest(input, now);
  const [profile] = await db()
    .select({ id: profiles.id, ownerId: profiles.ownerId, name: profiles.name })
    .from(profiles)
    .where(and(eq(profiles.id, providerProfileId), inArray(profiles.type, [...PROVIDER_TYPES]), eq(profiles.status, "published")));
  if (!profile) throw new MarketplaceError(404, "This profile does not exist.");
  if (profile.ownerId === actor.id) throw new MarketplaceError(400, "This is your own profile: you cannot hire yourself.");
  if (values.songId !== null) {
    const [song] = await db()
      .select({ id: songs.id })
      .from(songs)
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(and(eq(songs.id, values.songId), eq(profiles.ownerId, actor.id)));
    if (!song) throw new MarketplaceError(400, "Choose one of your songs.", "songId");
  }
  const [row] = await db()
    .insert(workRequests)
    .values({ clientId: actor.id, providerProfileId: profile.id, providerOwnerId: profile.ownerId, ...values })
    .returning();
  await notifyParties([profile.ownerId], actor.id, {
    type: "WorkRequestReceived",
    message: `${actor.name} ${actor.lastName} asked ${profile.name} for ${SERVICE_LABELS[values.service].toLowerCase()} (budget $${(values.budgetCents / 100).toFixed(2)}, by ${values.deadline}). Send an estimate.`,
    routeName: WORK_REQUEST_ROUTE,
    resourceId: row!.id,
  });
  return row!;
}

/** Why a work request transition found no row: 404 when the actor may not act on it (or it is missing), else 409. */
export async function explainWorkRequest(executor: Db, id: number, mayAct: (row: WorkRequest) => boolean, doing: string): Promise<MarketplaceError> {
  const [row] = validId(id) ? await executor.select().from(workRequests).where(eq(workRequests.id, id)) : [];
  if (!row || !mayAct(row)) return new MarketplaceError(404, NO_WORK_REQUEST);
  return new MarketplaceError(409, `This work request is ${row.status.replace(/_/g, " ")}: it cannot be ${doing}.`);
}

/** The client (or an administrator) cancels a request that no estimate was accepted for; a waiting estimate is canceled with it. */
export async function cancelWorkRequest(actor: MarketplaceActor, id: number, now = new Date()): Promise<WorkRequest> {
  const row = await db().transaction(async (tx) => {
    const [updated] = validId(id)
      ? await tx
          .update(workRequests)
          .set({ status: "canceled", canceledAt: now, updatedAt: now })
          .where(
            and(
              eq(workRequests.id, id),
              inArray(workRequests.status, ["pending", "awaiting_approval", "revision_requested"]),
              isAdmin(actor) ? undefined : eq(workRequests.clientId, actor.id),
            ),
          )
          .returning()
      : [];
    if (!updated) throw await explainWorkRequest(tx, id, (r) => isAdmin(actor) || r.clientId === actor.id, "canceled");
    await tx
      .update(estimates)
      .set({ status: "canceled", respondedAt: now })
      .where(and(eq(estimates.workRequestId, id), eq(estimates.status, "awaiting_approval")));
    return updated;
  });
  await notifyParties([row.providerOwnerId, row.clientId], actor.id, {
    type: "WorkRequestCanceled",
    message: `Work request #${row.id} was canceled.`,
    color: "gray",
    routeName: WORK_REQUEST_ROUTE,
    resourceId: row.id,
  });
  return row;
}

/* ------------------------------------------------------------------ reading */

export interface WorkRequestDetail {
  request: WorkRequest;
  provider: { id: number; name: string; type: string; username: string };
  client: { id: number; name: string };
  /** The client's song the work is for, named by its title (read in the request's statement). */
  song: { id: number; title: string; version: string } | null;
  /** Every estimate version, newest first (the history). */
  estimates: Estimate[];
  project: Project | null;
  /** What the actor is to this request. */
  role: "client" | "provider" | "admin";
}

/** One work request with its estimates and project, for its client, its provider's owner or an administrator. Three statements. */
export async function getWorkRequest(actor: MarketplaceActor, id: number): Promise<WorkRequestDetail> {
  if (!validId(id)) throw new MarketplaceError(404, NO_WORK_REQUEST);
  const [row] = await db()
    .select({
      request: workRequests,
      provider: { id: profiles.id, name: profiles.name, type: profiles.type, username: profiles.username },
      clientName: sql<string>`${users.name} || ' ' || ${users.lastName}`,
      song: { title: songs.title, version: songs.version },
    })
    .from(workRequests)
    .innerJoin(profiles, eq(profiles.id, workRequests.providerProfileId))
    .innerJoin(users, eq(users.id, workRequests.clientId))
    .leftJoin(songs, eq(songs.id, workRequests.songId))
    .where(and(eq(workRequests.id, id), participantOrAdmin(workRequests, actor)));
  if (!row) throw new MarketplaceError(404, NO_WORK_REQUEST);
  const [history, [project]] = await Promise.all([
    db().select().from(estimates).where(eq(estimates.workRequestId, id)).orderBy(desc(estimates.version)),
    db().select().from(projects).where(eq(projects.workRequestId, id)),
  ]);
  const role = row.request.clientId === actor.id ? "client" : row.request.providerOwnerId === actor.id ? "provider" : "admin";
  const song = row.request.songId && row.song?.title ? { id: row.request.songId, title: row.song.title, version: row.song.version } : null;
  return {
    request: row.request,
    provider: row.provider,
    client: { id: row.request.clientId, name: row.clientName },
    song,
    estimates: history,
    project: project ?? null,
    role,
  };
}

export interface WorkRequestListRow {
  id: number;
  service: MarketplaceService;
  status: WorkRequestStatus;
  budgetCents: number;
  deadline: string;
  createdAt: Date;
  clientId: number;
  clientName: string;
  providerProfileId: number;
  providerName: string;
  providerType: string;
  /** The newest estimate's total, when there is one. */
  estimateCents: number | null;
}

export interface ListPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export const MARKETPLACE_PAGE_SIZE = 25;

export interface AdminListQuery {
  status?: string;
  service?: string;
  q?: string;
  page?: number;
}

function pageOf(page: number | undefined) {
  return Number.isInteger(page) && page! >= 1 && page! <= 10_000 ? page! : 1;
}

/**
 * One page of work requests and their count. `searchesPeople`: the filter reads the client's or provider's
 * names (the admin search), so the rows are joined before filtering; otherwise the page is cut from
 * work_requests alone (its list indexes give the newest 25 directly) and only those rows are joined, and the
 * count reads work_requests alone: over 10,000 requests that is a 25-row index scan, not a 10,000-row join.
 */
async function workRequestPage(
  where: SQL | undefined,
  page: number,
  searchesPeople: boolean,
  pageSize = MARKETPLACE_PAGE_SIZE,
): Promise<ListPage<WorkRequestListRow>> {
  const order = newestFirst(workRequests.createdAt, workRequests.id);
  const listed = (
    searchesPeople
      ? db()
          .select({ id: workRequests.id })
          .from(workRequests)
          .innerJoin(users, eq(users.id, workRequests.clientId))
          .innerJoin(profiles, eq(profiles.id, workRequests.providerProfileId))
      : db().select({ id: workRequests.id }).from(workRequests)
  )
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as("listed");
  const counted = searchesPeople
    ? db()
        .select({ n: sql<number>`count(*)::int` })
        .from(workRequests)
        .innerJoin(users, eq(users.id, workRequests.clientId))
        .innerJoin(profiles, eq(profiles.id, workRequests.providerProfileId))
        .where(where)
    : db()
        .select({ n: sql<number>`count(*)::int` })
        .from(workRequests)
        .where(where);
  const [rows, [count]] = await Promise.all([
    db()
      .select({
        id: workRequests.id,
        service: workRequests.service,
        status: workRequests.status,
        budgetCents: workRequests.budgetCents,
        deadline: workRequests.deadline,
        createdAt: workRequests.createdAt,
        clientId: workRequests.clientId,
        clientName: sql<string>`${users.name} || ' ' || ${users.lastName}`,
        providerProfileId: workRequests.providerProfileId,
        providerName: profiles.name,
        providerType: profiles.type,
        estimateCents: sql<
          number | null
        >`(select e.total_cents from estimates e where e.work_request_id = ${workRequests.id} order by e.version desc limit 1)`.mapWith((v) =>
          v === null ? null : Number(v),
        ),
      })
      .from(listed)
      .innerJoin(workRequests, eq(workRequests.id, listed.id))
      .innerJoin(users, eq(users.id, workRequests.clientId))
      .innerJoin(profiles, eq(profiles.id, workRequests.providerProfileId))
      .orderBy(...order),
    counted,
  ]);
  const total = count?.n ?? 0;
  return { rows, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

/** A member's work requests, as the client (sent) or as a provider (received), newest first, optionally of one status. Two statements. */
export async function listMemberWorkRequests(
  actor: MarketplaceActor,
  as: "client" | "provider",
  page?: number,
  status?: string,
): Promise<ListPage<WorkRequestListRow>> {
  const where = and(
    as === "client" ? eq(workRequests.clientId, actor.id) : eq(workRequests.providerOwnerId, actor.id),
    status && (workRequestStatuses as readonly string[]).includes(status) ? eq(workRequests.status, status as WorkRequestStatus) : undefined,
  );
  return workRequestPage(where, pageOf(page), false);
}

/** Received requests that wait for the provider's answer (an estimate, or a revised one). */
export const WAITING_ON_PROVIDER: WorkRequestStatus[] = ["pending", "revision_requested"];

/** Whether a request received by the member waits for their answer: the list opens on Received then. One statement. */
export async function hasReceivedWaiting(memberId: number): Promise<boolean> {
  const [row] = await db()
    .select({ one: sql<number>`1` })
    .from(workRequests)
    .where(and(eq(workRequests.providerOwnerId, memberId), inArray(workRequests.status, WAITING_ON_PROVIDER)))
    .limit(1);
  return Boolean(row);
}

/** Every work request, for administrators: by status and service, searched by client, provider or description. Two statements. */
export async function adminListWorkRequests(actor: MarketplaceActor, query: AdminListQuery = {}): Promise<ListPage<WorkRequestListRow>> {
  if (!isAdmin(actor)) throw new MarketplaceError(404, NO_WORK_REQUEST);
  const q = cleanText(query.q).slice(0, 100).toLowerCase();
  const like = `%${escapeLike(q)}%`;
  const where = and(
    query.status && (workRequestStatuses as readonly string[]).includes(query.status) ? eq(workRequests.status, query.status as WorkRequestStatus) : undefined,
    query.service && (marketplaceServices as readonly string[]).includes(query.service)
      ? eq(workRequests.service, query.service as MarketplaceService)
      : undefined,
    q
      ? or(
          sql`lower(${users.name} || ' ' || ${users.lastName} || ' ' || ${users.email}) like ${like}`,
          sql`lower(${profiles.name}) like ${like}`,
          ilike(workRequests.description, like),
          /^\d{1,9}$/.test(q) ? eq(workRequests.id, Number(q)) : undefined,
        )
      : undefined,
  );
  return workRequestPage(where, pageOf(query.page), Boolean(q));
}
