/**
 * Accounts and profiles for tests/e2e/community/directory.spec.ts, created before the server starts by
 * prepare-directory.ts. No app imports here: the spec imports this.
 *
 * Per type there are three profiles, all found by searching the type's `search` prefix:
 *   target: published, newest, cheapest, in Reykjavik, with the type's genre/skill/instrument, a hero image;
 *   other:  published earlier, dearer, in Oslo, with other values;
 *   draft:  never listed, its public page 404 for anyone but its owner.
 */
export const DIRECTORY_PASSWORD = "directory-pass-123";

export const DIRECTORY_ACCOUNTS = {
  /** Browses the directories in its own area. */
  viewer: { email: "directory-viewer@example.test", name: "Vera", lastName: "Viewer" },
  /** Whose area the viewer must not open. */
  other: { email: "directory-other@example.test", name: "Otto", lastName: "Other" },
  /** Browses without JavaScript. */
  noJs: { email: "directory-nojs@example.test", name: "Nora", lastName: "NoScript" },
  admin: { email: "directory-admin@example.test", name: "Adele", lastName: "Directory" },
  /** Own the prepared profiles (one provider profile of each type per member). */
  targetOwner: { email: "directory-target-owner@example.test", name: "Tara", lastName: "Target" },
  otherOwner: { email: "directory-other-owner@example.test", name: "Oren", lastName: "Elsewhere" },
  draftOwner: { email: "directory-draft-owner@example.test", name: "Dora", lastName: "Draft" },
} as const;

export type DirectoryType = "artist" | "musician" | "audio_engineer" | "music_producer" | "studio";

/** The five types with their directory segment, labels and which filters their page offers. */
export const DIRECTORY_TYPES: Record<
  DirectoryType,
  { segment: string; title: string; label: string; provider: boolean; filter: { label: string; target: string; other: string } }
> = {
  artist: {
    segment: "artists",
    title: "Artist Pages",
    label: "Artist",
    provider: false,
    filter: { label: "Genre", target: "Jazz", other: "Rock" },
  },
  musician: {
    segment: "musicians",
    title: "Musician Pages",
    label: "Musician",
    provider: true,
    filter: { label: "Instrument", target: "Piano", other: "Drums" },
  },
  audio_engineer: {
    segment: "audio-engineers",
    title: "Audio Engineer Pages",
    label: "Audio Engineer",
    provider: true,
    filter: { label: "Skill", target: "Mastering", other: "Recording" },
  },
  music_producer: {
    segment: "music-producers",
    title: "Music Producer Pages",
    label: "Music Producer",
    provider: true,
    filter: { label: "Instrument", target: "Synthesizer", other: "Organ" },
  },
  studio: {
    segment: "studios",
    title: "Studio Pages",
    label: "Studio",
    provider: true,
    filter: { label: "Skill", target: "Recording", other: "Live Sound" },
  },
};

/** The genres every target carries (the share hashtags come from them, sorted by name). */
export const TARGET_GENRES = ["Jazz", "Hip-Hop/Rap"] as const;
export const TARGET_HASHTAGS = ["HipHopRap", "Jazz"] as const;
/** The X account in every target's links: the twitter share credits it with `via`. */
export const TARGET_X_HANDLE = "backline_dir";
export const TARGET_LOCATION = "Reykjavik, Iceland";
export const OTHER_LOCATION = "Oslo, Norway";
/** Cents: the target's cheapest rate (per hour) and the other profile's. */
export const TARGET_RATE_CENTS = 40_00;
export const OTHER_RATE_CENTS = 95_00;

export function directoryProfile(type: DirectoryType, which: "target" | "other" | "draft") {
  const { segment, label } = DIRECTORY_TYPES[type];
  const kind = which[0]!.toUpperCase() + which.slice(1);
  return { name: `Dirtest ${label} ${kind}`, username: `dirtest-${segment}-${which}` };
}

/** What the directory search box finds the type's three prepared profiles by. */
export const directorySearch = (type: DirectoryType) => `dirtest-${DIRECTORY_TYPES[type].segment}`;

/** Published musicians for the pagination test: "Dirpage Musician 01" ... "Dirpage Musician 30". */
export const PAGED_COUNT = 30;
export const PAGED_SEARCH = "dirpage";
export const pagedMusician = (n: number) => {
  const nn = String(n).padStart(2, "0");
  return { name: `Dirpage Musician ${nn}`, username: `dirpage-musician-${nn}`, email: `directory-paged-${nn}@example.test` };
};

/** The skill lists (profile-types.ts DJ_SKILL, SONGWRITER_SKILL): the musician target is a DJ, the studio target a songwriter. */
export const DJ_SKILL_NAME = "DJ";
export const SONGWRITER_SKILL_NAME = "Songwriter";
export const DJ_TARGET: DirectoryType = "musician";
export const SONGWRITER_TARGET: DirectoryType = "studio";
