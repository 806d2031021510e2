import { describe, expect, it } from "vitest";
import { releaseProblems, releaseTypeFor, type ReleaseFacts, type TrackFacts } from "./release-rules";

const track = (minutes: number, extra: Partial<TrackFacts> = {}): TrackFacts => ({
  title: `Track ${minutes}`,
  durationSeconds: Math.round(minutes * 60),
  explicit: false,
  hasAudio: true,
  writerCount: 1,
  isCover: false,
  hasMechanicalLicence: false,
  ...extra,
});
const release = (extra: Partial<ReleaseFacts> = {}): ReleaseFacts => ({
  type: "single",
  explicit: false,
  releaseDate: "2026-12-10",
  previouslyReleased: false,
  previousReleaseDate: null,
  tracks: [track(3)],
  ...extra,
});
const codes = (facts: ReleaseFacts, today = "2026-11-24") => releaseProblems(facts, today).map((p) => p.code);

describe("releaseTypeFor", () => {
  it.each([
    [[3], "single"],
    [[4, 4, 4], "single"],
    [[9.9, 9.9, 9.9], "single"],
    [[12], "ep"],
    [[4, 4, 4, 4], "ep"],
    [[4, 4, 4, 4, 4, 4], "ep"],
    [[4, 4, 4, 4, 4, 4, 4], "album"],
    [[16, 16], "album"],
    [[10, 10, 10.5], "album"],
  ])("%j minutes make a %s", (minutes, type) => {
    expect(releaseTypeFor(minutes.map((m) => track(m)))).toBe(type);
  });
  it("has no type without tracks", () => {
    expect(releaseTypeFor([])).toBeNull();
  });
});

describe("releaseProblems", () => {
  it("finds nothing wrong with a good single", () => {
    expect(codes(release())).toEqual([]);
  });
  it("refuses a type the tracks do not make, saying which they make", () => {
    const problems = releaseProblems(release({ type: "single", tracks: [1, 2, 3, 4].map((m) => track(m)) }), "2026-11-24");
    expect(problems).toEqual([{ code: "release_type_mismatch", field: "type", message: "4 tracks of this length make an EP, not a Single.", blocking: true }]);
  });
  it("an explicit release needs an explicit track", () => {
    expect(codes(release({ explicit: true }))).toEqual(["release_explicit_without_explicit_track"]);
    expect(codes(release({ explicit: true, tracks: [track(3, { explicit: true })] }))).toEqual([]);
  });

  it("a release that is not explicit may not hold an explicit track: one problem naming them, on the parental advisory", () => {
    const one = releaseProblems(
      release({ tracks: [track(3, { title: "Clean", explicit: false }), track(3, { title: "Loud", explicit: true })] }),
      "2026-11-24",
    );
    expect(one.map((p) => [p.code, p.field, p.blocking])).toEqual([["release_not_explicit_with_explicit_track", "parental_advisory", true]]);
    expect(one[0]!.message).toBe("“Loud” is marked explicit: mark the release explicit (parental advisory), or the track clean if it is.");
    const many = releaseProblems(
      release({ type: "album", tracks: ["A", "B", "C", "D", "E"].map((title) => track(3, { title, explicit: true })).concat([track(3), track(3)]) }),
      "2026-11-24",
    );
    expect(many.filter((p) => p.code === "release_not_explicit_with_explicit_track").map((p) => p.message)).toEqual([
      "“A”, “B”, “C” and 2 more are marked explicit: mark the release explicit (parental advisory), or the tracks clean if they are.",
    ]);
  });
  it("a new release date is at least 7 days ahead; a re-release needs its first date instead", () => {
    expect(codes(release({ releaseDate: "2026-11-30" }))).toEqual(["release_date_too_soon"]);
    expect(codes(release({ releaseDate: "2026-12-01" }))).toEqual([]);
    expect(codes(release({ releaseDate: null }))).toEqual(["release_date_missing"]);
    expect(codes(release({ releaseDate: "2020-01-01", previouslyReleased: true }))).toEqual(["release_previous_date_missing"]);
    expect(codes(release({ releaseDate: "2020-01-01", previouslyReleased: true, previousReleaseDate: "2019-05-01" }))).toEqual([]);
  });
  it("names each track without audio, writers or, for a cover, its licence", () => {
    const problems = releaseProblems(
      release({
        type: "single",
        tracks: [track(3, { hasAudio: false }), track(3, { writerCount: 0 }), track(3, { isCover: true })],
      }),
      "2026-11-24",
    );
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ["track_audio_missing", "tracks[0].audio"],
      ["track_writers_missing", "tracks[1].writers"],
      ["track_cover_without_licence", "tracks[2].licence"],
    ]);
  });
  it("a release without tracks cannot go", () => {
    expect(codes(release({ tracks: [] }))).toEqual(["release_no_tracks"]);
  });
});
