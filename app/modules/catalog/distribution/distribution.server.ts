import fs from "node:fs/promises";
import { data } from "react-router";
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
import { addNewTrack } from "~/modules/catalog/releases/new-track.server";
import { ReleaseEditError } from "~/modules/catalog/releases/release-editor.server";
import { NewTrackSchema } from "~/modules/catalog/releases/release-schemas";
import { replyTo } from "~/modules/catalog/releases/release-routes.server";
import { AudioUploadError, receiveAudioUpload } from "~/modules/catalog/songs/audio.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { progressUploadAnswer } from "~/modules/http/progress-upload.server";
import { parseForm } from "~/modules/security/form-body.server";
import { distributionPath, isDistributionStep, nextStep, stepOfField, type DistributionStep } from "./distribution-steps";

/**
 * The guided distribution flow. It owns no release logic: each step renders the release pages' forms
 * (releases/pages/) and runs their intent handlers (release-routes.server.ts), only with its own
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

/** The form data of a multipart body's small fields (the audio file travels apart, streamed to disk). */
function fieldsForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

/**
 * The Tracks step's new track (`?upload=track`, multipart): the audio is streamed to a temporary file first, then
 * the fields are checked and `addNewTrack` makes the song and adds it (new-track.server.ts). A refusal answers
 * beside its field (the audio's message beside the file), values kept.
 */
async function newTrackAction(args: RouteArgs, user: User, memberId: number, releaseParam: string | null) {
  if (!releaseParam) throw routeError(400, "Unknown form.");
  const { release } = await requireMemberRelease(user, releaseParam);
  // An empty file field is allowed (the audio may come later); an unreadable or oversized file is refused beside it.
  let received;
  try {
    received = await receiveAudioUpload(args.request);
  } catch (error) {
    if (error instanceof AudioUploadError)
      return replyTo("new-track", parseForm(new FormData(), { schema: NewTrackSchema }).reply({ fieldErrors: { audio: [error.message] } }), error.status);
    throw error;
  }
  const formData = fieldsForm(received.fields);
  if (formData.get("step") !== "tracks" || formData.get("intent") !== "new-track") {
    if (received.file) await fs.rm(received.file.tmpPath, { force: true });
    throw routeError(400, "Unknown form.");
  }
  const submission = parseForm(formData, { schema: NewTrackSchema });
  if (submission.status !== "success") {
    if (received.file) await fs.rm(received.file.tmpPath, { force: true });
    return replyTo("new-track", submission.reply());
  }
  try {
    const { song, audio } = await addNewTrack(user, release, submission.value, received.file?.tmpPath ?? null);
    const withAudio = audio
      ? ` with its audio (${audio.format.toUpperCase()}, ${audio.bitDepth}-bit / ${audio.sampleRate / 1000} kHz)`
      : ": upload its audio before you submit";
    return redirectWithFlash(`${distributionPath(memberId, release.id, "tracks")}&done=new-track-${song.id}`, {
      kind: "success",
      message: `“${song.title}” is added${withAudio}.`,
    });
  } catch (error) {
    if (error instanceof ReleaseEditError)
      return replyTo("new-track", submission.reply({ formErrors: error.errors.form, fieldErrors: error.errors.fields }), error.status);
    throw error;
  }
}

/** POST `digital-distribution/new-track?release=`: the same new track, for the page's script (JSON answers, for its progress bar). */
export async function newTrackUploadAction(args: RouteArgs) {
  const { user, memberId } = await guard(args);
  return progressUploadAnswer(await newTrackAction(args, user, memberId, new URL(args.request.url).searchParams.get("release")));
}

export async function distributionAction(args: RouteArgs) {
  const { user, memberId, where } = await guard(args);
  const url = new URL(args.request.url);
  if (url.searchParams.get("upload") === "track") return newTrackAction(args, user, memberId, url.searchParams.get("release"));
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
    case "submit": {
      // A refusal's problems link to the flow's steps, as the page's own preflight does.
      const outcome = await handleSubmitIntent(ctx, releaseStatusPath(memberId, release));
      if (outcome instanceof Response || !outcome.data.problems) return outcome;
      return data({ ...outcome.data, problems: withStepLinks(outcome.data.problems, memberId, release.id) }, outcome.init ?? undefined);
    }
  }
  throw routeError(400, "Unknown form.");
}
