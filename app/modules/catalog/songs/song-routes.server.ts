import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { User } from "~/db/schema";
import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { editableArtists, requireEditableArtist, type ReleaseRights } from "~/modules/catalog/releases/release-access.server";
import { releasePagePath } from "~/modules/catalog/releases/release-options";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { loadReferenceOptions } from "~/modules/reference/reference-options.server";
import { FORM_BODY_MAX_BYTES } from "~/modules/security/body-limits";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import type { RouteArgs } from "~/request-context";
import { AudioUploadError, receiveAudioUpload, setSongAudio } from "./audio.server";
import { isSongLocked, requireMemberSong } from "./song-access.server";
import { createSong, saveWriters, SongEditError, updateSong } from "./song-editor.server";
import { listAllSongs, listMemberSongPage, parseSongListQuery } from "./song-list.server";
import { AudioSchema, CreditInviteSchema, CreditRevokeSchema, SongDetailsSchema, WritersSchema } from "./song-schemas";
import { CREDIT_ROLE_LABELS, CreditError, inviteCredit, revokeCredit } from "~/modules/catalog/credits/credits.server";
import { isSplitIntent, loadSplitSection, requireSongOrSplitParty, splitAction } from "~/modules/splits/split-routes.server";
import { findUserById } from "~/modules/accounts/accounts.server";
import { projectCreditsOfSong } from "~/modules/marketplace/project-credits.server";

/**
 * The song pages' loaders and actions (thin route modules call these). Forms are plain POSTs with an
 * `intent`; the audio form posts multipart to `?upload=audio`, streamed to disk before anything is parsed.
 */

export type SongForm = "details" | "writers" | "audio" | "credits" | "splits";

export interface SongActionData {
  form: SongForm;
  result: SubmissionResult<string[]>;
}

const replyTo = (form: SongForm, result: SubmissionResult<string[]>, status = 400) => data<SongActionData>({ form, result }, { status });

type Area = { area: "member"; memberId: number } | { area: "admin" };

export function songProfilePath(where: Area, songId: number | "new"): string {
  return where.area === "admin" ? `/admin/song-profile/${songId}` : `/member/${where.memberId}/song-profile/${songId}`;
}

async function guard({ request, context, params }: RouteArgs, area: Area["area"]): Promise<{ user: User; where: Area }> {
  if (area === "admin") {
    const { user } = requireAdminUser(request, context);
    return { user: user as User, where: { area: "admin" } };
  }
  const { user, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return { user: user as User, where: { area: "member", memberId } };
}

/* ------------------------------------------------------------------ lists */

export async function songsLoader(args: RouteArgs, area: Area["area"]) {
  const { where } = await guard(args, area);
  const query = parseSongListQuery(new URL(args.request.url).searchParams);
  const list = where.area === "admin" ? await listAllSongs(query) : await listMemberSongPage(where.memberId, query);
  return {
    area,
    newPath: where.area === "member" ? songProfilePath(where, "new") : null,
    query,
    list: { ...list, rows: list.rows.map((row) => ({ ...row, profilePath: songProfilePath(where, row.id) })) },
  };
}

export type SongsData = Awaited<ReturnType<typeof songsLoader>>;

/* ------------------------------------------------------------------ the song profile */

export async function songProfileLoader(args: RouteArgs, area: Area["area"]) {
  const { user, where } = await guard(args, area);
  if (args.params.id === "new") {
    if (where.area === "admin") throw routeError(404);
    const [artists, options] = await Promise.all([editableArtists(where.memberId), loadReferenceOptions(["language"])]);
    const wanted = Number(new URL(args.request.url).searchParams.get("artist"));
    return { mode: "new" as const, area, artists, options, artistId: artists.some((a) => a.id === wanted) ? wanted : null };
  }
  const { song, rights } = await requireSongOrSplitParty(user, args.params.id);
  const profilePath = songProfilePath(where, song.id);
  const ownerEmail = song.artist.ownerId === user.id ? user.email : rights ? ((await findUserById(song.artist.ownerId))?.email ?? null) : null;
  const splits = await loadSplitSection(user, song, rights, `${profilePath}/split-sheet`, ownerEmail);
  if (!rights) {
    // A split party who does not edit the song sees its split sheet only.
    return {
      mode: "party" as const,
      area,
      song: {
        id: song.id,
        title: song.title,
        version: song.version,
        isrc: song.isrc,
        durationSeconds: song.durationSeconds,
        artist: { name: song.artist.name },
      },
      splits,
    };
  }
  const [options, hired] = await Promise.all([loadReferenceOptions(["language", "pro"]), projectCreditsOfSong(song.id)]);
  const memberId = where.area === "member" ? where.memberId : song.artist.ownerId;
  return {
    mode: "edit" as const,
    splits,
    area,
    rights: rights as ReleaseRights,
    song,
    options,
    locked: isSongLocked(song),
    audioUrl: song.audioPath ? `/storage/audio/${song.id}` : null,
    /** Providers hired and paid for this song through the marketplace (verified credits). */
    hired: hired.map((c) => ({ projectId: c.projectId, service: c.service, providerName: c.provider.name })),
    releases: song.releases.map((r) => ({
      ...r,
      href: where.area === "admin" ? `/admin/release-profile/${r.id}` : `/member/${memberId}/release-profile/${r.id}`,
      pageHref: releasePagePath(where.area === "admin" ? null : memberId, { slug: r.slug, artist: song.artist }),
    })),
    version: song.updatedAt.getTime().toString(36),
  };
}

export type SongProfileData = Awaited<ReturnType<typeof songProfileLoader>>;

function editErrorReply(
  form: SongForm,
  submission: { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
  error: unknown,
) {
  if (error instanceof SongEditError) return replyTo(form, submission.reply({ formErrors: error.errors.form, fieldErrors: error.errors.fields }), error.status);
  throw error;
}

const audioReply = (message: string, status: number) =>
  replyTo("audio", parseForm(new FormData(), { schema: AudioSchema }).reply({ fieldErrors: { audio: [message] } }), status);

export async function songProfileAction(args: RouteArgs, area: Area["area"]) {
  const { user, where } = await guard(args, area);
  const url = new URL(args.request.url);
  const here = url.pathname;

  if (url.searchParams.get("upload") === "audio") {
    const { song } = await requireMemberSong(user, args.params.id);
    let received;
    try {
      received = await receiveAudioUpload(args.request);
    } catch (error) {
      if (error instanceof AudioUploadError) return audioReply(error.message, error.status);
      throw error;
    }
    if (!received.file) return audioReply("Choose a WAV or FLAC file.", 400);
    try {
      const facts = await setSongAudio(song, received.file.tmpPath);
      const length = `${Math.floor(facts.durationSeconds / 60)}:${String(facts.durationSeconds % 60).padStart(2, "0")}`;
      return redirectWithFlash(here, {
        kind: "success",
        message: `The audio is saved: ${facts.format.toUpperCase()}, ${facts.bitDepth}-bit / ${facts.sampleRate / 1000} kHz, ${length}.`,
      });
    } catch (error) {
      if (error instanceof AudioUploadError) return audioReply(error.message, error.status);
      if (error instanceof SongEditError) return audioReply(error.message, error.status);
      throw error;
    }
  }

  // Only the audio form may send a large body here (the path's limit is the audio's).
  if (Number(args.request.headers.get("content-length") ?? 0) > FORM_BODY_MAX_BYTES) throw routeError(413, "The form is too large.");
  const formData = await readForm(args.request);
  const intent = String(formData.get("intent") ?? "");

  if (args.params.id === "new") {
    if (where.area === "admin" || intent !== "create") throw routeError(400, "Unknown form.");
    const submission = parseForm(formData, { schema: SongDetailsSchema });
    if (submission.status !== "success") return replyTo("details", submission.reply());
    if (!submission.value.artistId) return replyTo("details", submission.reply({ fieldErrors: { artistId: ["Choose the artist page."] } }));
    const artist = await requireEditableArtist(user, submission.value.artistId);
    try {
      const song = await createSong(user, artist.id, submission.value);
      return redirectWithFlash(songProfilePath(where, song.id), { kind: "success", message: `“${song.title}” is saved. Add its writers and its audio next.` });
    } catch (error) {
      return editErrorReply("details", submission, error);
    }
  }

  const { song, rights } = await requireSongOrSplitParty(user, args.params.id);
  if (isSplitIntent(intent)) return splitAction(args, intent, formData, user, song, rights, here);
  if (!rights) throw notFound();
  if (intent === "details") {
    const submission = parseForm(formData, { schema: SongDetailsSchema });
    if (submission.status !== "success") return replyTo("details", submission.reply());
    try {
      await updateSong(song, submission.value);
    } catch (error) {
      return editErrorReply("details", submission, error);
    }
    return redirectWithFlash(here, { kind: "success", message: "The song's details are saved." });
  }
  if (intent === "writers") {
    const submission = parseForm(formData, { schema: WritersSchema });
    if (submission.status !== "success") return replyTo("writers", submission.reply());
    try {
      await saveWriters(song, submission.value);
    } catch (error) {
      return editErrorReply("writers", submission, error);
    }
    return redirectWithFlash(here, { kind: "success", message: "The writers are saved." });
  }
  if (intent === "credit-invite") {
    const submission = parseForm(formData, { schema: CreditInviteSchema });
    if (submission.status !== "success") return replyTo("credits", submission.reply());
    try {
      await inviteCredit(user, song, submission.value.role, submission.value.email);
    } catch (error) {
      if (!(error instanceof CreditError)) throw error;
      const reply = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
      return replyTo("credits", reply, error.status);
    }
    return redirectWithFlash(`${here}#credits`, {
      kind: "success",
      message: `${submission.value.email} is invited as ${CREDIT_ROLE_LABELS[submission.value.role].toLowerCase()}.`,
    });
  }
  if (intent === "credit-revoke") {
    const submission = parseForm(formData, { schema: CreditRevokeSchema });
    if (submission.status !== "success") return replyTo("credits", submission.reply());
    try {
      await revokeCredit(song.id, submission.value.creditId);
    } catch (error) {
      if (error instanceof CreditError) return replyTo("credits", submission.reply({ formErrors: [error.message] }), error.status);
      throw error;
    }
    return redirectWithFlash(`${here}#credits`, { kind: "success", message: "The credit is withdrawn." });
  }
  throw routeError(400, "Unknown form.");
}
