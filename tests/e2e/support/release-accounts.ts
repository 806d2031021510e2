/**
 * Accounts and artist pages for tests/e2e/catalog/releases.spec.ts and release-review.spec.ts, created
 * before the server starts by prepare-releases.ts. Each test owns its artist, so tests never share state.
 * No app imports here: spec files import this.
 */
export const RELEASE_PASSWORD = "release-pass-123";

export const RELEASE_MEMBERS = {
  /** Owns `happy` (two songs with audio): creates a release through the forms. */
  creator: "rel-creator@example.test",
  /** Owns `invalid`: the bad-input tests. */
  invalid: "rel-invalid@example.test",
  /** Owns `submit`, whose complete draft "Harbour Lights" is submitted, then approved by an admin. */
  submitter: "rel-submitter@example.test",
  /** Owns `reject`, whose "Paper Moons" waits for review and is rejected with reasons. */
  rejected: "rel-rejected@example.test",
  /** Owns `flow`: goes through digital-distribution/start (tests/e2e/catalog/distribution.spec.ts). */
  distributor: "rel-distributor@example.test",
  /** Owns `noscript`: the same flow with JavaScript off. */
  noscript: "rel-noscript@example.test",
  /** Owns `songs`: creates songs, writers and audio (tests/e2e/catalog/songs.spec.ts). */
  songwriter: "rel-songwriter@example.test",
  /** Owns `wizard`, whose complete draft "Loud Harbour" is not marked explicit but holds an explicit track (distribution-tracks.spec.ts). */
  wizard: "rel-wizard@example.test",
  /** Owns `newtracks` (no songs), whose draft "Fresh Tracks" gets new tracks made in the flow (distribution-tracks.spec.ts). */
  newtracks: "rel-newtracks@example.test",
  /** Owns nothing: opening the others' releases answers 404. */
  stranger: "rel-stranger@example.test",
} as const;
export type ReleaseMemberKey = keyof typeof RELEASE_MEMBERS;

export const RELEASE_ARTISTS = {
  happy: { owner: "creator", name: "Happy Path Hounds", username: "rel-happy-hounds", songs: ["Open Road", "Gravel Hymn"] },
  invalid: { owner: "invalid", name: "Invalid Input Ibis", username: "rel-invalid-ibis", songs: ["Wrong Turn"] },
  submit: { owner: "submitter", name: "Submit Swallows", username: "rel-submit-swallows", songs: ["Harbour Lights"] },
  reject: { owner: "rejected", name: "Reject Ravens", username: "rel-reject-ravens", songs: ["Paper Moons"] },
  flow: { owner: "distributor", name: "Flow Fireflies", username: "rel-flow-fireflies", songs: ["Night Ferry"] },
  noscript: { owner: "noscript", name: "Plain Form Pelicans", username: "rel-plain-pelicans", songs: ["Paper Lantern"] },
  songs: { owner: "songwriter", name: "Song Sparrows", username: "rel-song-sparrows", songs: ["Old Chorus"] },
  wizard: { owner: "wizard", name: "Wizard Wolves", username: "rel-wizard-wolves", songs: ["Loud Harbour"] },
  newtracks: { owner: "newtracks", name: "New Track Newts", username: "rel-new-track-newts", songs: [] },
  plaintracks: { owner: "newtracks", name: "Plain Track Plovers", username: "rel-plain-track-plovers", songs: [] },
} as const satisfies Record<string, { owner: ReleaseMemberKey; name: string; username: string; songs: readonly string[] }>;

export const SUBMIT_RELEASE = { title: "Harbour Lights", slug: "harbour-lights" } as const;
export const REJECT_RELEASE = { title: "Paper Moons", slug: "paper-moons" } as const;
export const EXPLICIT_RELEASE = { title: "Loud Harbour", slug: "loud-harbour" } as const;
export const NEW_TRACKS_RELEASE = { title: "Fresh Tracks", slug: "fresh-tracks" } as const;
/** The same member's second draft, for the new track without JavaScript (tests run side by side). */
export const PLAIN_TRACKS_RELEASE = { title: "Plain Tracks", slug: "plain-tracks" } as const;
