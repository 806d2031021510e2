import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { ReleaseStatus, User } from "~/db/schema";
import { parseId, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { releaseHistory, todayUtc, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { isOversizedUpload } from "~/modules/images/images.server";
import { loadReferenceOptions } from "~/modules/reference/reference-options.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import type { RouteArgs } from "~/request-context";
import { CoverArtError, removeCoverArt, setCoverArt } from "./cover-art.server";
import { releasePreflight, releaseProfilePath, type PreflightArea, type ReleasePreflightProblem } from "./preflight.server";
import { editableArtists, requireEditableArtist, requireMemberRelease, requireMemberReleaseBySlugs, type ReleaseRights } from "./release-access.server";
import {
  addTrack,
  availableSongs,
  createRelease,
  moveTrack,
  ReleaseEditError,
  removeTrack,
  updateReleaseDetails,
  updateReleaseStores,
} from "./release-editor.server";
import { listAllReleases, listMemberReleasePage, parseReleaseListQuery, releaseStatusPath } from "./release-list.server";
import { coverVariant, releasePagePath } from "./release-options";
import {
  AddTrackSchema,
  CoverSchema,
  MoveTrackSchema,
  RejectSchema,
  ReleaseDetailsSchema,
  ReleaseStoresSchema,
  RemoveTrackSchema,
  TakedownSchema,
} from "./release-schemas";
import {
  approveRelease,
  availableActions,
  markTakenDown,
  rejectRelease,
  ReleaseStatusError,
  requestTakedown,
  startDistribution,
  submitRelease,
} from "./release-status.server";
import { buildDeliveryPackage, listDeliveries } from "~/modules/catalog/delivery/delivery.server";
import { releaseSplitSummaries } from "~/modules/splits/split-sheet.server";

/**
 * The release pages' loaders and actions (thin route modules call these). Every form is a plain POST with
 * an `intent` (and, in the distribution flow, a `step`): the intent handlers below are exported so the
 * flow's own action can run the same code with its own `redirectTo`.
 */

export type ReleaseForm = "details" | "stores" | "tracks" | "new-track" | "cover" | "submit" | "takedown" | "review";

export interface ReleaseActionData {
  form: ReleaseForm;
  result: SubmissionResult<string[]>;
  /** The blocking preflight problems when a submission was refused. */
  problems?: ReleasePreflightProblem[];
}

export const replyTo = (form: ReleaseForm, result: SubmissionResult<string[]>, status = 400, problems?: ReleasePreflightProblem[]) =>
  data<ReleaseActionData>({ form, result, problems }, { status });

/** What an intent handler needs: who acts, on which release, and where to go after a success. */
export interface ReleaseIntentContext {
  intent: string;
  formData: FormData;
  actor: User;
  release: ReleaseDetail;
  rights: ReleaseRights;
  where: PreflightArea;
  /** Where a success redirects (the page itself, or the flow's next step). */
  redirectTo: string;
}

function editErrorReply(
  form: ReleaseForm,
  submission: { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
  error: unknown,
) {
  if (error instanceof ReleaseEditError) {
    return replyTo(form, submission.reply({ formErrors: error.errors.form, fieldErrors: error.errors.fields }), error.status);
  }
  throw error;
}

/* ------------------------------------------------------------------ intent handlers (reusable) */

/** intent=create (id `new`): the details form with `artistId`. Redirects to `redirectTo(newId)`. */
export async function handleCreateIntent(formData: FormData, actor: User, redirectTo: (releaseId: number) => string) {
  const submission = parseForm(formData, { schema: ReleaseDetailsSchema });
  if (submission.status !== "success") return replyTo("details", submission.reply());
  if (!submission.value.artistId) return replyTo("details", submission.reply({ fieldErrors: { artistId: ["Choose the artist page."] } }));
  const artist = await requireEditableArtist(actor, submission.value.artistId);
  try {
    const release = await createRelease(actor, artist.id, submission.value);
    return redirectWithFlash(redirectTo(release.id), { kind: "success", message: `“${release.title}” is saved as a draft.` });
  } catch (error) {
    return editErrorReply("details", submission, error);
  }
}

export async function handleDetailsIntent(ctx: ReleaseIntentContext) {
  const submission = parseForm(ctx.formData, { schema: ReleaseDetailsSchema });
  if (submission.status !== "success") return replyTo("details", submission.reply());
  try {
    await updateReleaseDetails(ctx.release, submission.value);
  } catch (error) {
    return editErrorReply("details", submission, error);
  }
  return redirectWithFlash(ctx.redirectTo, { kind: "success", message: "The release's details are saved." });
}

export async function handleStoresIntent(ctx: ReleaseIntentContext) {
  const submission = parseForm(ctx.formData, { schema: ReleaseStoresSchema });
  if (submission.status !== "success") return replyTo("stores", submission.reply());
  try {
    await updateReleaseStores(ctx.release, submission.value);
  } catch (error) {
    return editErrorReply("stores", submission, error);
  }
  return redirectWithFlash(ctx.redirectTo, { kind: "success", message: "Stores and territories are saved." });
}

/** intent=add-track | remove-track | move-track. */
export async function handleTrackIntent(ctx: ReleaseIntentContext) {
  const schema = ctx.intent === "add-track" ? AddTrackSchema : ctx.intent === "remove-track" ? RemoveTrackSchema : MoveTrackSchema;
  const submission = parseForm(ctx.formData, { schema });
  if (submission.status !== "success") return replyTo("tracks", submission.reply());
  try {
    const value = submission.value as { songId: number; direction?: "up" | "down" };
    if (ctx.intent === "add-track") await addTrack(ctx.release, value.songId);
    else if (ctx.intent === "remove-track") await removeTrack(ctx.release, value.songId);
    else await moveTrack(ctx.release, value.songId, value.direction!);
  } catch (error) {
    return editErrorReply("tracks", submission, error);
  }
  const message = ctx.intent === "add-track" ? "The track is added." : ctx.intent === "remove-track" ? "The track is removed." : "The track is moved.";
  return redirectWithFlash(ctx.redirectTo, { kind: "success", message });
}

/** intent=cover (multipart) | remove-cover. */
export async function handleCoverIntent(ctx: ReleaseIntentContext) {
  if (ctx.intent === "remove-cover") {
    try {
      await removeCoverArt(ctx.release);
    } catch (error) {
      if (error instanceof CoverArtError)
        return replyTo("cover", parseForm(new FormData(), { schema: CoverSchema }).reply({ formErrors: [error.message] }), 409);
      throw error;
    }
    return redirectWithFlash(ctx.redirectTo, { kind: "success", message: "The cover art is removed." });
  }
  const submission = parseForm(ctx.formData, { schema: CoverSchema });
  if (submission.status !== "success") return replyTo("cover", submission.reply());
  try {
    const { warning } = await setCoverArt(ctx.release, submission.value.cover);
    return redirectWithFlash(
      ctx.redirectTo,
      warning ? { kind: "info", message: `The cover art is saved. ${warning}` } : { kind: "success", message: "The cover art is saved." },
    );
  } catch (error) {
    if (error instanceof CoverArtError) return replyTo("cover", submission.reply({ fieldErrors: { cover: [error.message] } }));
    throw error;
  }
}

const emptyReply = (formErrors: string[]) => parseForm(new FormData(), { schema: TakedownSchema }).reply({ formErrors });

function statusErrorReply(form: ReleaseForm, error: unknown, result?: SubmissionResult<string[]>) {
  if (error instanceof ReleaseStatusError) return replyTo(form, result ?? emptyReply([error.message]), error.status, error.problems);
  throw error;
}

/** intent=submit: refused (400, with the blocking problems) while the preflight blocks. */
export async function handleSubmitIntent(ctx: ReleaseIntentContext, redirectTo = ctx.redirectTo) {
  try {
    await submitRelease(ctx.release, ctx.actor, ctx.where);
  } catch (error) {
    return statusErrorReply("submit", error);
  }
  return redirectWithFlash(redirectTo, { kind: "success", message: `“${ctx.release.title}” is submitted for review. We will let you know.` });
}

export async function handleTakedownIntent(ctx: ReleaseIntentContext) {
  const submission = parseForm(ctx.formData, { schema: TakedownSchema });
  if (submission.status !== "success") return replyTo("takedown", submission.reply());
  try {
    await requestTakedown(ctx.release, ctx.actor, ctx.rights === "admin" ? null : ctx.rights, submission.value.reason);
  } catch (error) {
    return statusErrorReply("takedown", error, error instanceof ReleaseStatusError ? submission.reply({ formErrors: [error.message] }) : undefined);
  }
  return redirectWithFlash(ctx.redirectTo, { kind: "success", message: "The takedown is requested." });
}

/** Administrators: intent=approve | reject | start-distribution | mark-taken-down. */
export async function handleReviewIntent(ctx: ReleaseIntentContext) {
  if (!isAdminAccount(ctx.actor)) throw notFound();
  try {
    switch (ctx.intent) {
      case "approve":
        await approveRelease(ctx.release, ctx.actor);
        return redirectWithFlash(ctx.redirectTo, { kind: "success", message: `“${ctx.release.title}” is approved.` });
      case "reject": {
        const submission = parseForm(ctx.formData, { schema: RejectSchema });
        if (submission.status !== "success") return replyTo("review", submission.reply());
        try {
          await rejectRelease(ctx.release, ctx.actor, submission.value);
        } catch (error) {
          return statusErrorReply("review", error, error instanceof ReleaseStatusError ? submission.reply({ formErrors: [error.message] }) : undefined);
        }
        return redirectWithFlash(ctx.redirectTo, { kind: "success", message: `“${ctx.release.title}” is rejected; the owner is told why.` });
      }
      case "start-distribution":
        await startDistribution(ctx.release, ctx.actor);
        return redirectWithFlash(ctx.redirectTo, { kind: "success", message: `“${ctx.release.title}” is in distribution.` });
      case "mark-taken-down":
        await markTakenDown(ctx.release, ctx.actor);
        return redirectWithFlash(ctx.redirectTo, { kind: "success", message: `“${ctx.release.title}” is marked as taken down.` });
    }
  } catch (error) {
    return statusErrorReply("review", error);
  }
  return null;
}

/** Every intent of the release pages. Null for an intent it does not know. */
export async function handleReleaseIntent(ctx: ReleaseIntentContext) {
  switch (ctx.intent) {
    case "details":
      return handleDetailsIntent(ctx);
    case "stores":
      return handleStoresIntent(ctx);
    case "add-track":
    case "remove-track":
    case "move-track":
      return handleTrackIntent(ctx);
    case "cover":
    case "remove-cover":
      return handleCoverIntent(ctx);
    case "submit":
      return handleSubmitIntent(ctx);
    case "takedown":
      return handleTakedownIntent(ctx);
    case "approve":
    case "reject":
    case "start-distribution":
    case "mark-taken-down":
      return handleReviewIntent(ctx);
  }
  return null;
}

/** Reads the form, refusing an oversized upload (cover art) before reading it. */
export async function readReleaseForm(request: Request): Promise<FormData | Response> {
  if (isOversizedUpload(request)) {
    return replyTo(
      "cover",
      parseForm(new FormData(), { schema: CoverSchema }).reply({ fieldErrors: { cover: ["Cover art can be at most 5 MB."] } }),
      413,
    ) as unknown as Response;
  }
  return readForm(request);
}

/** Releases whose delivery package may be built (again). */
const PACKAGE_STATUSES: readonly ReleaseStatus[] = ["approved", "in_distribution", "takedown_requested"];

/* ------------------------------------------------------------------ page data */

/** The release with what its pages show: preflight, history, the artist's other songs, options. */
export async function loadReleasePageData(release: ReleaseDetail, where: PreflightArea, withEditor: boolean) {
  const [problems, history, songs, options] = await Promise.all([
    releasePreflight(release, where),
    releaseHistory(release.id),
    withEditor ? availableSongs(release) : Promise.resolve([]),
    withEditor ? loadReferenceOptions(["genre", "language"]) : Promise.resolve(null),
  ]);
  return {
    release,
    coverUrl: coverVariant(release.coverArtPath, "600x600"),
    problems,
    history,
    songs,
    options,
    today: todayUtc(),
    /** Changes on every save: forms key on it to start afresh after a success. */
    version: release.updatedAt.getTime().toString(36),
  };
}

/* ------------------------------------------------------------------ member pages */

export async function memberReleasesLoader({ request, context, params }: RouteArgs) {
  const { memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const query = parseReleaseListQuery(new URL(request.url).searchParams);
  const list = await listMemberReleasePage(memberId, query);
  return {
    memberId,
    query,
    list: {
      ...list,
      rows: list.rows.map((row) => ({ ...row, statusPath: releaseStatusPath(memberId, row), coverUrl: coverVariant(row.coverArtPath, "300x300") })),
    },
  };
}

async function memberGuard({ request, context, params }: RouteArgs) {
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return { user: user as User, memberId, where: { area: "member", memberId } as PreflightArea };
}

export async function memberReleaseProfileLoader(args: RouteArgs) {
  const { user, memberId, where } = await memberGuard(args);
  if (args.params.id === "new") {
    const [artists, options] = await Promise.all([editableArtists(memberId), loadReferenceOptions(["genre", "language"])]);
    return { mode: "new" as const, memberId, artists, options, today: todayUtc() };
  }
  const { release, rights } = await requireMemberRelease(user, args.params.id);
  const [page, splits] = await Promise.all([loadReleasePageData(release, where, true), releaseSplitSummaries(release.tracks.map((t) => t.songId))]);
  return {
    mode: "edit" as const,
    memberId,
    rights,
    splits,
    statusPath: releaseStatusPath(memberId, release),
    actions: availableActions(release.status, false),
    ...page,
  };
}

export async function memberReleaseProfileAction(args: RouteArgs) {
  const { user, memberId, where } = await memberGuard(args);
  const formData = await readReleaseForm(args.request);
  if (formData instanceof Response || !(formData instanceof FormData)) return formData;
  const intent = String(formData.get("intent") ?? "");
  if (args.params.id === "new") {
    if (intent !== "create" && intent !== "details") throw routeError(400, "Unknown form.");
    return handleCreateIntent(formData, user, (id) => releaseProfilePath(where, id));
  }
  const { release, rights } = await requireMemberRelease(user, args.params.id);
  const here = new URL(args.request.url).pathname;
  if (intent === "review" || ["approve", "reject", "start-distribution", "mark-taken-down"].includes(intent)) throw routeError(400, "Unknown form.");
  const ctx: ReleaseIntentContext = { intent, formData, actor: user, release, rights, where, redirectTo: here };
  const handled = intent === "submit" ? await handleSubmitIntent(ctx, releaseStatusPath(memberId, release)) : await handleReleaseIntent(ctx);
  if (handled) return handled;
  throw routeError(400, "Unknown form.");
}

export async function memberReleaseStatusLoader(args: RouteArgs) {
  const { user, memberId, where } = await memberGuard(args);
  const { release, rights } = await requireMemberReleaseBySlugs(user, args.params.artistSlug, args.params.releaseSlug);
  const page = await loadReleasePageData(release, where, false);
  return {
    memberId,
    rights,
    profilePath: releaseProfilePath(where, release.id),
    releasePagePath: releasePagePath(memberId, release),
    actions: availableActions(release.status, false),
    ...page,
  };
}

export async function memberReleaseStatusAction(args: RouteArgs) {
  const { user, where } = await memberGuard(args);
  const { release, rights } = await requireMemberReleaseBySlugs(user, args.params.artistSlug, args.params.releaseSlug);
  const formData = await readForm(args.request);
  const intent = String(formData.get("intent") ?? "");
  const ctx: ReleaseIntentContext = { intent, formData, actor: user, release, rights, where, redirectTo: new URL(args.request.url).pathname };
  if (intent === "submit") return handleSubmitIntent(ctx);
  if (intent === "takedown") return handleTakedownIntent(ctx);
  throw routeError(400, "Unknown form.");
}

/* ------------------------------------------------------------------ admin pages */

export async function adminReleasesLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  const query = parseReleaseListQuery(new URL(request.url).searchParams);
  const list = await listAllReleases(query);
  return { query, list: { ...list, rows: list.rows.map((row) => ({ ...row, coverUrl: coverVariant(row.coverArtPath, "300x300") })) } };
}

async function adminRelease({ request, context, params }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  if (parseId(params.id) === null) throw notFound();
  const { release, rights } = await requireMemberRelease(user, params.id);
  return { user: user as User, release, rights };
}

export async function adminReleaseProfileLoader(args: RouteArgs) {
  const { release } = await adminRelease(args);
  // Fix links open the owner's editor (administrators may open any member's area).
  const [page, deliveries, splits] = await Promise.all([
    loadReleasePageData(release, { area: "member", memberId: release.artist.ownerId }, false),
    listDeliveries(release.id),
    releaseSplitSummaries(release.tracks.map((t) => t.songId)),
  ]);
  return {
    splits,
    actions: availableActions(release.status, true),
    ownerAreaPath: `/member/${release.artist.ownerId}/release-profile/${release.id}`,
    releasePagePath: releasePagePath(null, release),
    deliveries: deliveries.map((d) => ({
      id: d.id,
      messageId: d.messageId,
      createdAt: d.createdAt.toISOString(),
      bytes: d.packageBytes,
      sha256: d.packageSha256,
      href: `/admin/release-profile/${release.id}/delivery/${d.id}`,
    })),
    canBuildPackage: PACKAGE_STATUSES.includes(release.status),
    ...page,
  };
}

export async function adminReleaseProfileAction(args: RouteArgs) {
  const { user, release, rights } = await adminRelease(args);
  const formData = await readForm(args.request);
  const intent = String(formData.get("intent") ?? "");
  const ctx: ReleaseIntentContext = {
    intent,
    formData,
    actor: user,
    release,
    rights,
    where: { area: "admin" },
    redirectTo: new URL(args.request.url).pathname,
  };
  if (intent === "takedown") return handleTakedownIntent(ctx);
  if (intent === "build-package") {
    if (!PACKAGE_STATUSES.includes(release.status)) throw routeError(409, "Only an approved release has a delivery package.");
    const { manifest } = await buildDeliveryPackage(release.id, user.id);
    const gaps = manifest.missing.length ? ` It lists ${manifest.missing.length === 1 ? "1 gap" : `${manifest.missing.length} gaps`} in its manifest.` : "";
    return redirectWithFlash(ctx.redirectTo, { kind: manifest.missing.length ? "info" : "success", message: `A new delivery package is built.${gaps}` });
  }
  const handled = await handleReviewIntent(ctx);
  if (handled) return handled;
  throw routeError(400, "Unknown form.");
}

export type MemberReleasesData = Awaited<ReturnType<typeof memberReleasesLoader>>;
export type MemberReleaseProfileData = Awaited<ReturnType<typeof memberReleaseProfileLoader>>;
export type MemberReleaseStatusData = Awaited<ReturnType<typeof memberReleaseStatusLoader>>;
export type AdminReleasesData = Awaited<ReturnType<typeof adminReleasesLoader>>;
export type AdminReleaseProfileData = Awaited<ReturnType<typeof adminReleaseProfileLoader>>;
