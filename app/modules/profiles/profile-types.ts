import type { ProfileStatus, ProfileType, RateUnit, ReferenceKind } from "~/db/schema";

/**
 * Everything that differs between the five profile types (artist pages and the four provider profiles),
 * in one place: labels, the URL segments of the product specification, route names and which fields apply.
 * Pages, services and menus read this instead of switching on the type.
 */
export interface ProfileTypeInfo {
  type: ProfileType;
  label: string;
  plural: string;
  /** Directory segment in both areas: `/member/{m}/{directory}`, `/admin/{directory}`, `.../{directory}/{username}`. */
  directory: string;
  /** Owner's page in the member area: `/member/{m}/{memberPage}/{id}`. */
  memberPage: string;
  /** Single profile page in the admin area: `/admin/{adminPage}/{id}` (the product specification spells these differently). */
  adminPage: string;
  /** The reference lists a profile of this type carries, in form order. */
  reference: readonly ReferenceKind[];
  /** Providers have rates, credits and sample links; artists have band members and an avatar. */
  provider: boolean;
}

export const PROFILE_TYPE_INFO: Record<ProfileType, ProfileTypeInfo> = {
  artist: {
    type: "artist",
    label: "Artist",
    plural: "Artists",
    directory: "artists",
    memberPage: "artist-profile",
    adminPage: "artist-profile",
    reference: ["genre"],
    provider: false,
  },
  musician: {
    type: "musician",
    label: "Musician",
    plural: "Musicians",
    directory: "musicians",
    memberPage: "musician-profile",
    adminPage: "musicians-profile",
    reference: ["genre", "skill", "instrument", "language"],
    provider: true,
  },
  audio_engineer: {
    type: "audio_engineer",
    label: "Audio Engineer",
    plural: "Audio Engineers",
    directory: "audio-engineers",
    memberPage: "audio-engineer-profile",
    adminPage: "audio-engineers-profile",
    reference: ["genre", "skill"],
    provider: true,
  },
  music_producer: {
    type: "music_producer",
    label: "Music Producer",
    plural: "Music Producers",
    directory: "music-producers",
    memberPage: "music-producer-profile",
    adminPage: "music-producer-profile",
    reference: ["genre", "skill", "instrument"],
    provider: true,
  },
  studio: {
    type: "studio",
    label: "Studio",
    plural: "Studios",
    directory: "studios",
    memberPage: "studio-profile",
    adminPage: "studios-profile",
    reference: ["genre", "skill", "instrument"],
    provider: true,
  },
};

/** Browser-safe list of the types (the schema's `profileTypes`, without importing the schema). */
export const PROFILE_TYPES = Object.keys(PROFILE_TYPE_INFO) as ProfileType[];

export const PROVIDER_TYPES = ["musician", "audio_engineer", "music_producer", "studio"] as const satisfies readonly ProfileType[];

export const REFERENCE_LABELS: Record<ReferenceKind, { singular: string; plural: string }> = {
  genre: { singular: "Genre", plural: "Genres" },
  skill: { singular: "Skill", plural: "Skills" },
  instrument: { singular: "Instrument", plural: "Instruments" },
  language: { singular: "Language", plural: "Languages" },
  pro: { singular: "PRO", plural: "PROs" },
};

export const PROFILE_STATUS_LABELS: Record<ProfileStatus, string> = {
  draft: "Draft",
  pending_approval: "Pending approval",
  published: "Published",
  unpublished: "Unpublished",
  rejected: "Rejected",
};

export const RATE_UNIT_LABELS: Record<RateUnit, string> = {
  per_song: "per song",
  per_hour: "per hour",
  per_day: "per day",
  per_project: "per project",
};

/** Usernames that would collide with fixed path segments (`artists/profiles`, ...). */
export const RESERVED_USERNAMES = new Set(["profiles", "new", "create", "edit", "admin", "member", "djs", "songwriters"]);

/** The skills whose holders the admin `djs` and `songwriters` lists show. */
export const DJ_SKILL = "DJ";
export const SONGWRITER_SKILL = "Songwriter";

type Area = "member" | "admin";

/** URLs of a profile type's pages; `memberId` is needed in the member area. */
export function profilePaths(type: ProfileType, area: Area, memberId?: number) {
  const info = PROFILE_TYPE_INFO[type];
  const base = area === "admin" ? "/admin" : `/member/${memberId}`;
  return {
    directory: `${base}/${info.directory}`,
    publicPage: (username: string) => `${base}/${info.directory}/${encodeURIComponent(username)}`,
    ownerPage: (id: number) => `${base}/${area === "admin" ? info.adminPage : info.memberPage}/${id}`,
    /** Admin only: the moderation list. */
    moderation: `/admin/${info.directory}/profiles`,
  };
}

/** Route names (handle.routeName) of a type's pages, in the area's prefix convention. */
export function profileRouteNames(type: ProfileType) {
  const info = PROFILE_TYPE_INFO[type];
  return {
    memberDirectory: `member-${info.directory}`,
    memberPublicPage: `member-${info.directory}-show`,
    memberOwnerPage: `member-${info.memberPage}`,
    adminDirectory: `admin-${info.directory}`,
    adminPublicPage: `admin-${info.directory}-show`,
    adminModeration: `admin-${info.directory}-profiles`,
    adminOwnerPage: `admin-${info.adminPage}`,
  };
}
