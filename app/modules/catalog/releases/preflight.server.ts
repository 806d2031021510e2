import { and, inArray, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { releases, songs } from "~/db/schema";
import { loadSongPeople, todayUtc, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { isrcProblem, upcProblem } from "~/modules/catalog/validators/codes";
import { releaseProblems, type PreflightProblem } from "~/modules/catalog/validators/release-rules";
import { COVER_MIN_SIDE, COVER_RECOMMENDED_SIDE } from "./cover-art.server";
import { releaseFieldAnchor } from "./release-options";

/**
 * The preflight of a release: every rule the stores apply (validators/release-rules.ts), its codes
 * (validators/codes.ts, UPC and ISRC uniqueness included), the fields a delivery needs and the cover art.
 * Each problem has its reason code, the field, the message, whether it blocks submission, and a link to
 * the field to fix: a release field on the release profile page, a track's on its song profile page.
 * Statements: three (people and uniqueness) after the release is loaded, whatever the track count.
 */
export interface ReleasePreflightProblem extends PreflightProblem {
  /** Where to fix it: `/member/{m}/release-profile/{id}#field-…` or `/member/{m}/song-profile/{songId}#…`. */
  fixHref: string;
  /** The song a track problem is about. */
  songId?: number;
}

export type PreflightArea = { area: "member"; memberId: number } | { area: "admin" };

export function releaseProfilePath(where: PreflightArea, releaseId: number | "new"): string {
  return where.area === "admin" ? `/admin/release-profile/${releaseId}` : `/member/${where.memberId}/release-profile/${releaseId}`;
}

export function songProfilePath(where: PreflightArea, songId: number): string {
  return where.area === "admin" ? `/admin/song-profile/${songId}` : `/member/${where.memberId}/song-profile/${songId}`;
}

/** Song profile anchors per track field (the songs pages' section ids). */
const SONG_ANCHORS: Record<string, string> = { audio: "audio", writers: "writers", licence: "cover-licence", isrc: "isrc", explicit: "explicit" };

const problem = (code: string, field: string, message: string, blocking = true): PreflightProblem => ({ code, field, message, blocking });

/** The facts the rules need, plus the codes and the delivery fields. Three statements. */
export async function releasePreflight(release: ReleaseDetail, where: PreflightArea, today = todayUtc()): Promise<ReleasePreflightProblem[]> {
  const songIds = release.tracks.map((t) => t.songId);
  const isrcs = release.tracks.map((t) => t.isrc).filter((v): v is string => Boolean(v));
  const [people, duplicateUpc, duplicateIsrcs] = await Promise.all([
    loadSongPeople(songIds),
    release.upc
      ? db()
          .select({ id: releases.id })
          .from(releases)
          .where(and(sql`ltrim(${releases.upc}, '0') = ltrim(${release.upc}, '0')`, ne(releases.id, release.id)))
          .limit(1)
      : Promise.resolve([]),
    isrcs.length
      ? db()
          .select({ isrc: songs.isrc })
          .from(songs)
          .where(
            and(
              inArray(songs.isrc, isrcs),
              songIds.length
                ? sql`${songs.id} not in (${sql.join(
                    songIds.map((id) => sql`${id}`),
                    sql`, `,
                  )})`
                : undefined,
            ),
          )
      : Promise.resolve([]),
  ]);

  const problems: PreflightProblem[] = [];
  if (!release.title.trim()) problems.push(problem("release_title_missing", "title", "Give the release a title."));
  if (!release.label.trim()) problems.push(problem("release_label_missing", "label", "Enter the label (your artist name if you release yourself)."));
  if (!release.pLine.trim()) problems.push(problem("release_p_line_missing", "p_line", "Enter the ℗ line: who owns the sound recordings."));
  if (!release.cLine.trim()) problems.push(problem("release_c_line_missing", "c_line", "Enter the © line: who owns the artwork."));
  if (!release.primaryGenreId) problems.push(problem("release_genre_missing", "primary_genre", "Choose the primary genre."));
  if (!release.languageId) problems.push(problem("release_language_missing", "language", "Choose the language of the release."));
  if (release.upc) {
    const upc = upcProblem(release.upc);
    if (upc) problems.push(problem("release_upc_invalid", "upc", upc));
    else if (duplicateUpc.length) problems.push(problem("release_upc_duplicate", "upc", "Another release already uses this UPC."));
  } else {
    problems.push(problem("release_upc_will_be_assigned", "upc", "No UPC: one from our range is assigned when you submit.", false));
  }
  if (!release.coverArtPath) {
    problems.push(
      problem("release_cover_missing", "cover", `Upload the cover art (a square JPEG or PNG, at least ${COVER_MIN_SIDE}x${COVER_MIN_SIDE} pixels).`),
    );
  } else if ((release.coverArtWidth ?? 0) < COVER_RECOMMENDED_SIDE) {
    problems.push(problem("release_cover_small", "cover", `Stores recommend cover art of ${COVER_RECOMMENDED_SIDE}x${COVER_RECOMMENDED_SIDE} pixels.`, false));
  }
  if (release.stores.length === 0) problems.push(problem("release_stores_missing", "stores", "Choose at least one store."));
  if (release.territories.length === 0) problems.push(problem("release_territories_missing", "territories", "Choose worldwide or at least one territory."));

  problems.push(
    ...releaseProblems(
      {
        type: release.type,
        explicit: release.parentalAdvisory,
        releaseDate: release.releaseDate,
        previouslyReleased: release.previouslyReleased,
        previousReleaseDate: release.previousReleaseDate,
        tracks: release.tracks.map((t) => ({
          title: t.title,
          durationSeconds: t.durationSeconds,
          explicit: t.explicit,
          hasAudio: t.audio !== null,
          writerCount: people.get(t.songId)?.writers.length ?? 0,
          isCover: t.isCover,
          hasMechanicalLicence: Boolean(t.coverLicenceProvider && t.coverLicenceId),
        })),
      },
      today,
    ),
  );

  const duplicates = new Set(duplicateIsrcs.map((r) => r.isrc));
  const seen = new Set<string>();
  release.tracks.forEach((track, index) => {
    const field = `tracks[${index}].isrc`;
    if (!track.isrc) {
      problems.push(problem("track_isrc_will_be_assigned", field, `“${track.title}” has no ISRC: one from our range is assigned when you submit.`, false));
      return;
    }
    const bad = isrcProblem(track.isrc);
    if (bad) problems.push(problem("track_isrc_invalid", field, `“${track.title}”: ${bad}`));
    else if (duplicates.has(track.isrc) || seen.has(track.isrc))
      problems.push(problem("track_isrc_duplicate", field, `“${track.title}”: another recording already uses the ISRC ${track.isrc}.`));
    seen.add(track.isrc);
  });

  return problems.map((p) => withFix(p, release, where));
}

function withFix(p: PreflightProblem, release: ReleaseDetail, where: PreflightArea): ReleasePreflightProblem {
  const track = /^tracks\[(\d+)\]\.(\w+)$/.exec(p.field);
  if (track) {
    const song = release.tracks[Number(track[1])];
    if (song) return { ...p, songId: song.songId, fixHref: `${songProfilePath(where, song.songId)}#${SONG_ANCHORS[track[2]!] ?? track[2]}` };
  }
  return { ...p, fixHref: `${releaseProfilePath(where, release.id)}#${releaseFieldAnchor(p.field)}` };
}

export const blockingProblems = (problems: readonly PreflightProblem[]) => problems.filter((p) => p.blocking);
