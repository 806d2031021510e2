import type { User } from "~/db/schema";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { routeError } from "~/modules/http/route-errors.server";
import { loadReferenceOptions } from "~/modules/reference/reference-options.server";
import type { RouteArgs } from "~/request-context";
import type { PreflightArea, ReleasePreflightProblem } from "~/modules/catalog/releases/preflight.server";
import { editableArtists, requireMemberRelease } from "~/modules/catalog/releases/release-access.server";
import { listMemberReleasePage, releaseStatusPath } from "~/modules/catalog/releases/release-list.server";
import {
  handleCreateIntent,
  handleCoverIntent,
  handleDetailsIntent,
  handleStoresIntent,
  handleSubmitIntent,
  handleTrackIntent,
  loadReleasePageData,
  readReleaseForm,
  type ReleaseIntentContext,
} from "~/modules/catalog/releases/release-routes.server";
import { availableActions } from "~/modules/catalog/releases/release-status.server";
import { distributionPath, isDistributionStep, nextStep, stepOfField, type DistributionStep } from "./distribution-steps";

/**
 * The guided distribution flow. It owns no release logic: each step renders the release pages' forms
 * (release-pages.tsx) and runs their intent handlers (release-routes.server.ts), only with its own
 * redirects, so a step's save leads to the next step and the draft is saved at every step.
 */

/** Which intents each step accepts (anything else is a 400, never a silent save elsewhere). */
const STEP_INTENTS: Record<DistributionStep, readonly string[]> = {
  artist: ["create"],
  details: ["details"],
  tracks: ["add-track", "remove-track", "move-track"],
  cover: ["cover", "remove-cover"],
  stores: ["stores"],
  preflight: [],
  submit: ["submit"],
};

async function guard({ request, context, params }: RouteArgs) {
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return { user: user as User, memberId, where: { area: "member", memberId } as PreflightArea };
}

/** The step in the query; without a release only the first step exists. */
function requestedStep(url: URL): DistributionStep {
  const step = url.searchParams.get("step");
  return isDistributionStep(step) ? step : "details";
}

/** Preflight problems link to the flow's step for a release field, to the song's page for a track's. */
function withStepLinks(problems: ReleasePreflightProblem[], memberId: number, releaseId: number): ReleasePreflightProblem[] {
  return problems.map((problem) => {
    const step = problem.songId ? null : stepOfField(problem.field);
    return step ? { ...problem, fixHref: `${distributionPath(memberId, releaseId, step)}#${problem.fixHref.split("#")[1] ?? ""}` } : problem;
  });
}

export async function distributionLoader(args: RouteArgs) {
  const { user, memberId, where } = await guard(args);
  const url = new URL(args.request.url);
  const releaseParam = url.searchParams.get("release");
  if (!releaseParam) {
    const [artists, drafts, options] = await Promise.all([
      editableArtists(memberId),
      listMemberReleasePage(memberId, { q: "", status: "draft", page: 1 }),
      loadReferenceOptions(["genre", "language"]),
    ]);
    return { mode: "start" as const, memberId, step: "artist" as const, artists, options, drafts: drafts.rows, draftTotal: drafts.total };
  }
  const { release } = await requireMemberRelease(user, releaseParam);
  const step = requestedStep(url);
  const actions = availableActions(release.status, false);
  const page = await loadReleasePageData(release, where, actions.edit);
  return {
    mode: "release" as const,
    memberId,
    step,
    actions,
    statusPath: releaseStatusPath(memberId, release),
    ...page,
    problems: withStepLinks(page.problems, memberId, release.id),
  };
}

export type DistributionLoaderData = Awaited<ReturnType<typeof distributionLoader>>;

export async function distributionAction(args: RouteArgs) {
  const { user, memberId, where } = await guard(args);
  const formData = await readReleaseForm(args.request);
  if (!(formData instanceof FormData)) return formData;
  const intent = String(formData.get("intent") ?? "");
  const step = formData.get("step");
  if (!isDistributionStep(step) || !STEP_INTENTS[step].includes(intent)) throw routeError(400, "Unknown form.");

  const releaseParam = new URL(args.request.url).searchParams.get("release");
  if (step === "artist") {
    if (releaseParam) throw routeError(400, "Unknown form.");
    return handleCreateIntent(formData, user, (id) => distributionPath(memberId, id, "details"));
  }
  if (!releaseParam) throw routeError(400, "Unknown form.");
  const { release, rights } = await requireMemberRelease(user, releaseParam);
  // Track changes stay on their step (the member adds several); every other save moves on.
  const redirectTo = distributionPath(memberId, release.id, step === "tracks" ? "tracks" : nextStep(step));
  const ctx: ReleaseIntentContext = { intent, formData, actor: user, release, rights, where, redirectTo };
  switch (step) {
    case "details":
      return handleDetailsIntent(ctx);
    case "tracks":
      return handleTrackIntent(ctx);
    case "cover":
      return handleCoverIntent(ctx);
    case "stores":
      return handleStoresIntent(ctx);
    case "submit":
      return handleSubmitIntent(ctx, releaseStatusPath(memberId, release));
  }
  throw routeError(400, "Unknown form.");
}
