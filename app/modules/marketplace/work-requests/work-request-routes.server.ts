import type { SubmissionResult } from "@conform-to/react";
import { and, asc, eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { db } from "~/db/client.server";
import { profiles, songs, workRequestStatuses, type ProfileType, type User } from "~/db/schema";
import { idOr404, notFound, parseId, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess, redirectWithFlash } from "~/modules/flash/flash.server";
import { formatCents } from "~/modules/ledger/money";
import { PROFILE_TYPE_INFO, PROVIDER_TYPES } from "~/modules/profiles/profile-types";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import type { RouteArgs } from "~/request-context";
import type { MarketplaceActor } from "../access.server";
import { acceptEstimate, declineEstimate, requestEstimateRevision, reviseEstimate, sendEstimate } from "../estimates.server";
import { MarketplaceError } from "../marketplace-errors";
import { SERVICE_LABELS } from "../marketplace-rules";
import { MESSAGE_INTENT, MessageFormSchema, messagesForPage } from "../messages/message-thread";
import { listMessages, postMessage } from "../messages.server";
import {
  adminListWorkRequests,
  cancelWorkRequest,
  createWorkRequest,
  getWorkRequest,
  hasReceivedWaiting,
  listMemberWorkRequests,
  type WorkRequestDetail,
  type WorkRequestListRow,
} from "../work-requests.server";
import { AnswerSchema, CancelSchema, dollarsToCents, EstimateSchema, estimateInputOf, FIELD_OF_SERVICE, WorkRequestSchema } from "./work-request-forms";

/**
 * Loaders and actions of the work request pages, shared by the member and admin route modules:
 * guard → service → data; actions parse with the forms' schemas, call the service and redirect with a flash,
 * or answer 400 (bad input, errors beside the fields) / 409 (wrong state) with the Conform reply. Ids the
 * actor may not see are the area's 404. The estimate page's `{id}` is the work request's id (decision 021):
 * it holds every version of the estimate, the provider's form and the client's answer.
 */

export type Area = "member" | "admin";

export const basePath = (area: Area, memberId?: number) => (area === "admin" ? "/admin" : `/member/${memberId}`);

function guard(args: RouteArgs, area: Area): { user: User; memberId?: number } {
  if (area === "admin") return { user: requireAdminUser(args.request, args.context).user };
  const { user, memberId } = requireMemberAreaAccess(args.request, args.context, args.params.memberId);
  return { user, memberId };
}

export type ActionReply = {
  intent: string;
  result: SubmissionResult<string[]>;
};

function refused(
  error: unknown,
  intent: string,
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
) {
  if (!(error instanceof MarketplaceError)) throw error;
  if (error.status === 404) throw notFound();
  const field = error.field ? (FIELD_OF_SERVICE[error.field] ?? error.field) : undefined;
  const result = field ? reply({ fieldErrors: { [field]: [error.message] } }) : reply({ formErrors: [error.message] });
  return data<ActionReply>({ intent, result }, { status: error.status });
}

/* ------------------------------------------------------------------ create-work-request */

/** The create-work-request page: the published provider profile (not the viewer's own) and the viewer's songs. Two statements. */
export async function createWorkRequestLoader(args: RouteArgs, area: Area, type: ProfileType) {
  const { user, memberId } = guard(args, area);
  const id = idOr404(args.params.id);
  const [[profile], ownSongs] = await Promise.all([
    db()
      .select({
        id: profiles.id,
        name: profiles.name,
        username: profiles.username,
        ownerId: profiles.ownerId,
      })
      .from(profiles)
      .where(and(eq(profiles.id, id), eq(profiles.type, type), eq(profiles.status, "published"))),
    db()
      .select({ id: songs.id, title: songs.title, artistName: profiles.name })
      .from(songs)
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(eq(profiles.ownerId, user.id))
      .orderBy(asc(songs.title), asc(songs.id))
      .limit(500),
  ]);
  if (!profile) throw notFound();
  const directory = `${basePath(area, memberId)}/${PROFILE_TYPE_INFO[type].directory}`;
  return {
    area,
    own: profile.ownerId === user.id,
    // An administrator visiting a member's area reads the page; nobody asks for work in another's name.
    readOnly: area === "member" && memberId !== user.id,
    provider: {
      id: profile.id,
      name: profile.name,
      typeLabel: PROFILE_TYPE_INFO[type].label,
      profilePath: `${directory}/${encodeURIComponent(profile.username)}`,
    },
    songs: ownSongs.map((s) => ({
      id: s.id,
      label: `${s.title} (${s.artistName})`,
    })),
  };
}

export async function createWorkRequestAction(args: RouteArgs, area: Area, type: ProfileType) {
  const { user, memberId } = guard(args, area);
  const id = parseId(args.params.id);
  if (id === null || !PROVIDER_TYPES.includes(type as (typeof PROVIDER_TYPES)[number])) throw notFound();
  // In someone else's member area (an administrator visiting) nobody asks for work in their name.
  if (area === "member" && memberId !== user.id) throw notFound();
  const submission = parseForm(await readForm(args.request), {
    schema: WorkRequestSchema,
  });
  if (submission.status !== "success") return data<ActionReply>({ intent: "create", result: submission.reply() }, { status: 400 });
  const v = submission.value;
  try {
    // The profile must be of the page's type: a musician's id under /studios is not found.
    const [profile] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.id, id), eq(profiles.type, type)));
    if (!profile) throw notFound();
    const created = await createWorkRequest(user, id, {
      service: v.service,
      description: v.description,
      referenceLinks: (v.referenceLinks ?? "").split(/\s+/).filter(Boolean),
      budgetCents: dollarsToCents(v.budget) ?? 0,
      deadline: v.deadline,
      songId: v.songId ? Number(v.songId) : null,
    });
    return redirectWithFlash(`${basePath(area, memberId)}/work-request/${created.id}`, {
      kind: "success",
      message: `Work request #${created.id} was sent. You will be notified when the provider answers with an estimate.`,
    });
  } catch (error) {
    return refused(error, "create", submission.reply);
  }
}

/* ------------------------------------------------------------------ lists */

export function listRowForPage(r: WorkRequestListRow) {
  return {
    id: r.id,
    service: SERVICE_LABELS[r.service],
    status: r.status,
    budgetCents: r.budgetCents,
    estimateCents: r.estimateCents,
    deadline: r.deadline,
    createdAt: r.createdAt.toISOString(),
    clientName: r.clientName,
    providerName: r.providerName,
  };
}

const pageParam = (value: string | null) => {
  const n = parseId(value);
  return n ?? 1;
};

/** The member's requests, sent (as client) or received (as provider), by status. Two statements. */
export async function memberListLoader(args: RouteArgs) {
  const { user, memberId } = guard(args, "member");
  const url = new URL(args.request.url);
  const as = url.searchParams.get("as");
  // Without a tab chosen, the list opens where something waits for the member: on Received when a request
  // sent to them waits for their estimate (one statement), else on Sent.
  const view: "sent" | "received" = as === "provider" ? "received" : as === "client" ? "sent" : (await hasReceivedWaiting(memberId!)) ? "received" : "sent";
  const status = url.searchParams.get("status") ?? "";
  const validStatus = (workRequestStatuses as readonly string[]).includes(status) ? status : "";
  // An administrator visiting a member's area sees that member's lists (the service reads only the id).
  const owner: MarketplaceActor = { ...user, id: memberId! };
  const list = await listMemberWorkRequests(owner, view === "sent" ? "client" : "provider", pageParam(url.searchParams.get("page")), validStatus || undefined);
  return {
    memberId: memberId!,
    view,
    status: validStatus,
    list: { ...list, rows: list.rows.map(listRowForPage) },
  };
}

/** Every request, for administrators: status, service, search. Two statements. */
export async function adminListLoader(args: RouteArgs) {
  const { user } = guard(args, "admin");
  const url = new URL(args.request.url);
  const filters = {
    status: url.searchParams.get("status") ?? "",
    service: url.searchParams.get("service") ?? "",
    q: (url.searchParams.get("q") ?? "").slice(0, 100),
  };
  const list = await adminListWorkRequests(user, {
    ...filters,
    page: pageParam(url.searchParams.get("page")),
  });
  return { filters, list: { ...list, rows: list.rows.map(listRowForPage) } };
}

/* ------------------------------------------------------------------ detail and estimate pages */

function detailForPage(detail: WorkRequestDetail) {
  const r = detail.request;
  return {
    request: {
      id: r.id,
      service: r.service,
      serviceLabel: SERVICE_LABELS[r.service],
      status: r.status,
      description: r.description,
      referenceLinks: r.referenceLinks.filter((l) => /^https?:\/\//i.test(l)),
      budgetCents: r.budgetCents,
      deadline: r.deadline,
      songId: r.songId,
      song: detail.song ? { title: detail.song.title, version: detail.song.version } : null,
      createdAt: r.createdAt.toISOString(),
    },
    provider: detail.provider,
    client: detail.client,
    role: detail.role,
    estimates: detail.estimates.map((e) => ({
      id: e.id,
      version: e.version,
      status: e.status,
      lineItems: e.lineItems,
      totalCents: e.totalCents,
      deliveryDays: e.deliveryDays,
      revisionsIncluded: e.revisionsIncluded,
      pointsBps: e.pointsBps,
      expiresAt: e.expiresAt.toISOString(),
      expired: e.status === "awaiting_approval" && e.expiresAt.getTime() <= Date.now(),
      note: e.note,
      responseNote: e.responseNote,
      createdAt: e.createdAt.toISOString(),
    })),
    project: detail.project ? { id: detail.project.id, status: detail.project.status } : null,
  };
}

export type WorkRequestPageData = ReturnType<typeof detailForPage> & {
  area: Area;
  base: string;
  viewerId: number;
  canAct: boolean;
};

async function loadDetail(args: RouteArgs, area: Area) {
  const { user, memberId } = guard(args, area);
  const id = idOr404(args.params.id);
  try {
    const detail = await getWorkRequest(user, id);
    // Members act in their own area; administrators only read (they act on projects).
    const canAct = area === "member" && memberId === user.id && detail.role !== "admin";
    return {
      user,
      id,
      detail,
      page: {
        ...detailForPage(detail),
        area,
        base: basePath(area, memberId),
        viewerId: user.id,
        canAct,
      } satisfies WorkRequestPageData,
    };
  } catch (error) {
    if (error instanceof MarketplaceError && error.status === 404) throw notFound();
    throw error;
  }
}

/** work-request/{id}: the request, its estimates and project, and the thread. Five statements. */
export async function workRequestLoader(args: RouteArgs, area: Area) {
  const { user, id, page } = await loadDetail(args, area);
  const messages = await listMessages(user, { workRequestId: id });
  return { ...page, messages: messagesForPage(messages) };
}

/** work-request/estimate/{id} ({id} = the work request): every version, the provider's form, the client's answer. Three statements. */
export async function estimatePageLoader(args: RouteArgs, area: Area) {
  const { page } = await loadDetail(args, area);
  return page;
}

/** The member area's work request page: post a message, or (the client) cancel. */
export async function workRequestAction(args: RouteArgs) {
  const { user, memberId } = guard(args, "member");
  const id = parseId(args.params.id);
  if (id === null || memberId !== user.id) throw notFound();
  const formData = await readForm(args.request);
  const path = new URL(args.request.url).pathname;
  if (formData.get("intent") === MESSAGE_INTENT) {
    const submission = parseForm(formData, { schema: MessageFormSchema });
    if (submission.status !== "success") return data<ActionReply>({ intent: MESSAGE_INTENT, result: submission.reply() }, { status: 400 });
    try {
      const message = await postMessage(user, { workRequestId: id }, submission.value.body);
      return redirect(`${path}?done=m${message.id}#messages`);
    } catch (error) {
      return refused(error, MESSAGE_INTENT, submission.reply);
    }
  }
  const submission = parseForm(formData, { schema: CancelSchema });
  if (submission.status !== "success") return data<ActionReply>({ intent: "cancel", result: submission.reply() }, { status: 400 });
  try {
    await cancelWorkRequest(user, id);
    return redirectAfterSuccess(path, "canceled", `Work request #${id} was canceled.`);
  } catch (error) {
    return refused(error, "cancel", submission.reply);
  }
}

/** The member area's estimate page: the provider sends or revises; the client accepts, declines or asks for a revision. */
export async function estimateAction(args: RouteArgs) {
  const { user, memberId } = guard(args, "member");
  const id = parseId(args.params.id);
  if (id === null || memberId !== user.id) throw notFound();
  const formData = await readForm(args.request);
  const path = new URL(args.request.url).pathname;
  const base = basePath("member", memberId);
  if (formData.get("intent") === "estimate") {
    const submission = parseForm(formData, { schema: EstimateSchema });
    if (submission.status !== "success") return data<ActionReply>({ intent: "estimate", result: submission.reply() }, { status: 400 });
    try {
      // Its first estimate for a pending request; a new version otherwise (the service refuses the wrong one with 409).
      const { detail } = await loadDetail(args, "member");
      if (detail.role !== "provider") throw notFound();
      const send = detail.request.status === "pending" ? sendEstimate : reviseEstimate;
      const estimate = await send(user, id, estimateInputOf(submission.value));
      return redirectAfterSuccess(
        path,
        `e${estimate.id}`,
        `Estimate version ${estimate.version} (${formatCents(BigInt(estimate.totalCents))}) was sent to the client.`,
      );
    } catch (error) {
      return refused(error, "estimate", submission.reply);
    }
  }
  const submission = parseForm(formData, { schema: AnswerSchema });
  const intent = String(formData.get("intent") ?? "answer");
  if (submission.status !== "success") return data<ActionReply>({ intent, result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const estimateId = Number(v.estimateId);
  try {
    // The estimate must belong to this page's request (the service checks the actor is its client).
    const { detail } = await loadDetail(args, "member");
    if (!detail.estimates.some((e) => e.id === estimateId)) throw notFound();
    if (v.intent === "accept") {
      const { project } = await acceptEstimate(user, estimateId);
      return redirectWithFlash(`${base}/work-request/${id}`, {
        kind: "success",
        message: `You accepted the estimate: project #${project.id} is open and starts once it is funded.`,
      });
    }
    if (v.intent === "decline") {
      await declineEstimate(user, estimateId, v.reason ?? "");
      return redirectAfterSuccess(path, `d${estimateId}`, "You declined the estimate; the work request is closed.");
    }
    await requestEstimateRevision(user, estimateId, v.note);
    return redirectAfterSuccess(path, `r${estimateId}`, "You asked for a revised estimate; the provider was notified.");
  } catch (error) {
    return refused(error, v.intent, submission.reply);
  }
}
