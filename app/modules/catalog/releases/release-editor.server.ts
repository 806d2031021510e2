import { and, eq, gt, ne, notInArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { releaseStatusHistory, releaseTracks, releases, songs, type Release, type User } from "~/db/schema";
import { todayUtc, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { normalizeUpc, upcProblem } from "~/modules/catalog/validators/codes";
import { MIN_LEAD_DAYS } from "~/modules/catalog/validators/release-rules";
import { EDITABLE_STATUSES, slugFromTitle } from "./release-options";
import type { ReleaseDetailsValue } from "./release-schemas";

/**
 * Creating and changing a release (the owner's forms and the distribution flow's steps): details,
 * stores and territories, and its tracks (songs of the same artist, in order). Only a draft or a rejected
 * release changes; a problem comes back as a ReleaseEditError with messages per field.
 */
export class ReleaseEditError extends Error {
  constructor(
    readonly errors: { form?: string[]; fields?: Record<string, string[]> },
    readonly status = 400,
  ) {
    super(errors.form?.[0] ?? Object.values(errors.fields ?? {})[0]?.[0] ?? "The release could not be saved.");
    this.name = "ReleaseEditError";
  }
}

const fieldError = (field: string, message: string, status = 400) => new ReleaseEditError({ fields: { [field]: [message] } }, status);

export const NOT_EDITABLE_MESSAGE = "This release can no longer be changed: it is under review or in distribution.";

function assertEditable(release: Pick<Release, "status">) {
  if (!EDITABLE_STATUSES.includes(release.status)) throw new ReleaseEditError({ form: [NOT_EDITABLE_MESSAGE] }, 409);
}

/** Days from `today` to `date` (YYYY-MM-DD). */
export function daysAhead(date: string, today = todayUtc()): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The release date rules: a new release at least 7 days ahead; a re-release needs its original date (in the past). */
export function releaseDateProblems(value: Pick<ReleaseDetailsValue, "releaseDate" | "previouslyReleased" | "previousReleaseDate">, today = todayUtc()) {
  const fields: Record<string, string[]> = {};
  if (value.previouslyReleased) {
    if (!value.previousReleaseDate) fields.previousReleaseDate = ["A re-release needs the date it was first released."];
    else if (value.previousReleaseDate > today) fields.previousReleaseDate = ["The original release date is in the past."];
  } else if (value.releaseDate && daysAhead(value.releaseDate, today) < MIN_LEAD_DAYS) {
    fields.releaseDate = [`A new release date must be at least ${MIN_LEAD_DAYS} days ahead, so stores can list it in time.`];
  }
  return fields;
}

/** The UPC's format and check digit, reported together with the date rules (uniqueness comes later). */
function upcFormatErrors(value: string | undefined): Record<string, string[]> {
  const problem = value ? upcProblem(normalizeUpc(value)) : null;
  return problem ? { upc: [problem] } : {};
}

/** A slug free for the artist: the one asked for (or an error), else one from the title with -2, -3... One statement. */
async function freeSlug(artistId: number, title: string, wanted: string | undefined, exceptId: number | null): Promise<string> {
  const base = wanted || slugFromTitle(title) || "release";
  const taken = await db()
    .select({ slug: sql<string>`lower(${releases.slug})` })
    .from(releases)
    .where(
      and(
        eq(releases.artistId, artistId),
        exceptId ? ne(releases.id, exceptId) : undefined,
        sql`(lower(${releases.slug}) = ${base} or lower(${releases.slug}) like ${`${base.replace(/[\\%_]/g, "\\$&")}-%`})`,
      ),
    );
  const set = new Set(taken.map((r) => r.slug));
  if (!set.has(base)) return base;
  if (wanted) throw fieldError("slug", "Another release of this artist already uses this address.");
  for (let n = 2; ; n++) if (!set.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A UPC as stored (digits only), refused when malformed or used by another release. One statement. */
async function checkedUpc(value: string | undefined, exceptId: number | null): Promise<string | null> {
  if (!value) return null;
  const upc = normalizeUpc(value);
  const problem = upcProblem(upc);
  if (problem) throw fieldError("upc", problem);
  const [other] = await db()
    .select({ id: releases.id })
    .from(releases)
    .where(and(sql`ltrim(${releases.upc}, '0') = ltrim(${upc}, '0')`, exceptId ? ne(releases.id, exceptId) : undefined))
    .limit(1);
  if (other) throw fieldError("upc", "Another release already uses this UPC.");
  return upc;
}

function detailColumns(value: ReleaseDetailsValue) {
  return {
    title: value.title,
    type: value.type,
    label: value.label,
    pLine: value.pLine,
    cLine: value.cLine,
    primaryGenreId: value.primaryGenreId ?? null,
    secondaryGenreId: value.secondaryGenreId ?? null,
    languageId: value.languageId ?? null,
    releaseDate: value.releaseDate ?? null,
    previouslyReleased: value.previouslyReleased,
    previousReleaseDate: value.previouslyReleased ? (value.previousReleaseDate ?? null) : null,
    parentalAdvisory: value.parentalAdvisory,
  };
}

/** Unique-index races (two saves at once) answer the same field errors as the checks above. */
function uniqueViolation(error: unknown): ReleaseEditError | null {
  const e = error as { code?: string; cause?: { code?: string; constraint?: string }; constraint?: string };
  const code = e.cause?.code ?? e.code;
  if (code !== "23505") return null;
  const constraint = e.cause?.constraint ?? e.constraint ?? String((error as Error).message);
  return constraint.includes("upc")
    ? fieldError("upc", "Another release already uses this UPC.")
    : fieldError("slug", "Another release of this artist already uses this address.");
}

/** Creates a draft release for an artist page the actor may edit (checked by the caller), with its creation in the history. */
export async function createRelease(actor: Pick<User, "id">, artistId: number, value: ReleaseDetailsValue, today = todayUtc()): Promise<Release> {
  const dateErrors = { ...releaseDateProblems(value, today), ...upcFormatErrors(value.upc) };
  if (Object.keys(dateErrors).length) throw new ReleaseEditError({ fields: dateErrors });
  const slug = await freeSlug(artistId, value.title, value.slug, null);
  const upc = await checkedUpc(value.upc, null);
  try {
    return await db().transaction(async (tx) => {
      const [created] = await tx
        .insert(releases)
        .values({ artistId, slug, upc, ...detailColumns(value), createdBy: actor.id })
        .returning();
      await tx.insert(releaseStatusHistory).values({ releaseId: created!.id, fromStatus: null, toStatus: "draft", actorId: actor.id });
      return created!;
    });
  } catch (error) {
    throw uniqueViolation(error) ?? error;
  }
}

/** Saves the details form. The date rule applies when the date changes (a kept date stays accepted). */
export async function updateReleaseDetails(release: Release, value: ReleaseDetailsValue, today = todayUtc()): Promise<Release> {
  assertEditable(release);
  const dateChanged = value.releaseDate !== (release.releaseDate ?? undefined) || value.previouslyReleased !== release.previouslyReleased;
  const dateErrors = { ...(dateChanged ? releaseDateProblems(value, today) : {}), ...upcFormatErrors(value.upc) };
  if (Object.keys(dateErrors).length) throw new ReleaseEditError({ fields: dateErrors });
  const slug =
    value.slug && value.slug === release.slug.toLowerCase()
      ? release.slug
      : await freeSlug(release.artistId, value.title, value.slug || (value.title === release.title ? release.slug : undefined), release.id);
  const upc = await checkedUpc(value.upc, release.id);
  try {
    const [updated] = await db()
      .update(releases)
      .set({ slug, upc, ...detailColumns(value), updatedAt: new Date() })
      .where(and(eq(releases.id, release.id), eq(releases.status, release.status)))
      .returning();
    if (!updated) throw new ReleaseEditError({ form: [NOT_EDITABLE_MESSAGE] }, 409);
    return updated;
  } catch (error) {
    throw uniqueViolation(error) ?? error;
  }
}

export async function updateReleaseStores(release: Release, value: { stores: string[]; territories: string[] }): Promise<void> {
  assertEditable(release);
  const updated = await db()
    .update(releases)
    .set({ stores: value.stores, territories: value.territories, updatedAt: new Date() })
    .where(and(eq(releases.id, release.id), eq(releases.status, release.status)))
    .returning({ id: releases.id });
  if (!updated.length) throw new ReleaseEditError({ form: [NOT_EDITABLE_MESSAGE] }, 409);
}

/** The artist's songs not yet on the release, by title (the tracks editor's choices). One statement. */
export async function availableSongs(release: Pick<ReleaseDetail, "id" | "artistId" | "tracks">) {
  const onRelease = release.tracks.map((t) => t.songId);
  return db()
    .select({ id: songs.id, title: songs.title, version: songs.version, durationSeconds: songs.durationSeconds })
    .from(songs)
    .where(and(eq(songs.artistId, release.artistId), onRelease.length ? notInArray(songs.id, onRelease) : undefined))
    .orderBy(sql`lower(${songs.title})`, songs.version, songs.id)
    .limit(500);
}

export const MAX_TRACKS = 50;

/** Adds a song of the same artist at the end. Two statements. */
export async function addTrack(release: Pick<ReleaseDetail, "id" | "artistId" | "status" | "tracks">, songId: number): Promise<void> {
  assertEditable(release);
  if (release.tracks.length >= MAX_TRACKS) throw fieldError("songId", `A release has at most ${MAX_TRACKS} tracks.`);
  if (release.tracks.some((t) => t.songId === songId)) throw fieldError("songId", "This song is already on the release.");
  const [song] = await db()
    .select({ id: songs.id })
    .from(songs)
    .where(and(eq(songs.id, songId), eq(songs.artistId, release.artistId)))
    .limit(1);
  // Another artist's song (or none): the same answer, so ids cannot be probed.
  if (!song) throw fieldError("songId", "Choose one of this artist's songs.");
  try {
    await db().execute(sql`
      insert into release_tracks (release_id, song_id, position)
      select ${release.id}, ${songId}, coalesce(max(position), 0) + 1 from release_tracks where release_id = ${release.id}`);
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string } };
    if ((e.cause?.code ?? e.code) === "23505") throw fieldError("songId", "This song is already on the release.");
    throw error;
  }
}

/** Removes a track and closes the gap. One transaction. */
export async function removeTrack(release: Pick<ReleaseDetail, "id" | "status">, songId: number): Promise<void> {
  assertEditable(release);
  await db().transaction(async (tx) => {
    const [removed] = await tx
      .delete(releaseTracks)
      .where(and(eq(releaseTracks.releaseId, release.id), eq(releaseTracks.songId, songId)))
      .returning({ position: releaseTracks.position });
    if (!removed) throw fieldError("songId", "This song is not on the release.", 404);
    // Two steps: shifting in place would collide with the primary key (release, position) row by row.
    await tx
      .update(releaseTracks)
      .set({ position: sql`${releaseTracks.position} + 1000` })
      .where(and(eq(releaseTracks.releaseId, release.id), gt(releaseTracks.position, removed.position)));
    await tx
      .update(releaseTracks)
      .set({ position: sql`${releaseTracks.position} - 1001` })
      .where(and(eq(releaseTracks.releaseId, release.id), gt(releaseTracks.position, 1000)));
  });
}

/** Swaps a track with its neighbour above or below (nothing at either end). One transaction. */
export async function moveTrack(release: Pick<ReleaseDetail, "id" | "status" | "tracks">, songId: number, direction: "up" | "down"): Promise<void> {
  assertEditable(release);
  const index = release.tracks.findIndex((t) => t.songId === songId);
  if (index < 0) throw fieldError("songId", "This song is not on the release.", 404);
  const other = release.tracks[direction === "up" ? index - 1 : index + 1];
  if (!other) return;
  const track = release.tracks[index]!;
  await db().transaction(async (tx) => {
    const where = (id: number) => and(eq(releaseTracks.releaseId, release.id), eq(releaseTracks.songId, id));
    await tx.update(releaseTracks).set({ position: 32000 }).where(where(track.songId));
    await tx.update(releaseTracks).set({ position: track.position }).where(where(other.songId));
    await tx.update(releaseTracks).set({ position: other.position }).where(where(track.songId));
  });
}
