/**
 * The release rules stores enforce, checked before a release is submitted (the preflight). Each
 * problem carries a stable reason code, the field it belongs to, and whether it blocks submission.
 */
export type ReleaseType = "single" | "ep" | "album";

export interface PreflightProblem {
  code: string;
  field: string;
  message: string;
  blocking: boolean;
}

export interface TrackFacts {
  title: string;
  durationSeconds: number | null;
  explicit: boolean;
  hasAudio: boolean;
  writerCount: number;
  isCover: boolean;
  hasMechanicalLicence: boolean;
}

export interface ReleaseFacts {
  type: ReleaseType;
  explicit: boolean;
  releaseDate: string | null;
  previouslyReleased: boolean;
  previousReleaseDate: string | null;
  tracks: TrackFacts[];
}

const MINUTES = 60;
const TYPE_NAMES: Record<ReleaseType, string> = { single: "Single", ep: "EP", album: "Album" };
/** A new release date must leave stores this many days. */
export const MIN_LEAD_DAYS = 7;

/**
 * The type the tracks make (DistroKid's and the stores' rules): Single 1-3 tracks, 30 minutes or less, each
 * under 10 minutes; EP 4-6 tracks under 30 minutes; Album 7 or more tracks, or over 30 minutes.
 */
export function releaseTypeFor(tracks: Pick<TrackFacts, "durationSeconds">[]): ReleaseType | null {
  if (tracks.length === 0) return null;
  const total = tracks.reduce((sum, t) => sum + (t.durationSeconds ?? 0), 0);
  const longest = Math.max(...tracks.map((t) => t.durationSeconds ?? 0));
  if (tracks.length >= 7 || total > 30 * MINUTES) return "album";
  if (tracks.length <= 3 && longest < 10 * MINUTES) return "single";
  if (tracks.length >= 4) return "ep";
  // 1-3 tracks with one of 10 minutes or more, 30 minutes at most: an EP by the stores' rules.
  return "ep";
}

function problem(code: string, field: string, message: string, blocking = true): PreflightProblem {
  return { code, field, message, blocking };
}

/** Days from `today` to `date` (both YYYY-MM-DD, in UTC). */
function daysBetween(today: string, date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** Every problem of a release, in the order the member fixes them. `today` is YYYY-MM-DD (injectable for tests). */
export function releaseProblems(release: ReleaseFacts, today: string): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  const { tracks } = release;
  if (tracks.length === 0) {
    problems.push(problem("release_no_tracks", "tracks", "Add at least one track."));
  } else {
    const fits = releaseTypeFor(tracks);
    if (fits && fits !== release.type) {
      problems.push(
        problem(
          "release_type_mismatch",
          "type",
          `${tracks.length} track${tracks.length === 1 ? "" : "s"} of this length make ${fits === "ep" ? "an" : "a"} ${TYPE_NAMES[fits]}, not ${release.type === "ep" ? "an" : "a"} ${TYPE_NAMES[release.type]}.`,
        ),
      );
    }
  }
  if (release.explicit && !tracks.some((t) => t.explicit)) {
    problems.push(problem("release_explicit_without_explicit_track", "parental_advisory", "An explicit release needs at least one explicit track."));
  }
  // The other way round, stores refuse it too: a release holding an explicit track carries the parental advisory.
  const explicitTracks = tracks.filter((t) => t.explicit);
  if (!release.explicit && explicitTracks.length) {
    const named = explicitTracks.slice(0, 3).map((t) => `“${t.title}”`);
    const list =
      explicitTracks.length > 3
        ? `${named.join(", ")} and ${explicitTracks.length - 3} more`
        : named.length > 1
          ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`
          : named[0];
    problems.push(
      problem(
        "release_not_explicit_with_explicit_track",
        "parental_advisory",
        `${list} ${explicitTracks.length === 1 ? "is" : "are"} marked explicit: mark the release explicit (parental advisory), or the ${explicitTracks.length === 1 ? "track" : "tracks"} clean if ${explicitTracks.length === 1 ? "it is" : "they are"}.`,
      ),
    );
  }
  if (!release.releaseDate) {
    problems.push(problem("release_date_missing", "release_date", "Choose a release date."));
  } else if (release.previouslyReleased) {
    if (!release.previousReleaseDate) {
      problems.push(problem("release_previous_date_missing", "previous_release_date", "A re-release needs the date it was first released."));
    }
  } else if (daysBetween(today, release.releaseDate) < MIN_LEAD_DAYS) {
    problems.push(
      problem("release_date_too_soon", "release_date", `A new release date must be at least ${MIN_LEAD_DAYS} days ahead, so stores can list it in time.`),
    );
  }
  tracks.forEach((track, index) => {
    const field = `tracks[${index}]`;
    if (!track.hasAudio) problems.push(problem("track_audio_missing", `${field}.audio`, `“${track.title}” has no audio yet.`));
    if (track.writerCount === 0) problems.push(problem("track_writers_missing", `${field}.writers`, `“${track.title}” needs its writers.`));
    if (track.isCover && !track.hasMechanicalLicence) {
      problems.push(problem("track_cover_without_licence", `${field}.licence`, `“${track.title}” is a cover: record its mechanical licence.`));
    }
  });
  return problems;
}
