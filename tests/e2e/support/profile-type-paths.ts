/**
 * The five profile types as the product specification names their pages, written out independently of the app's
 * profile-types.ts so the e2e suites check the app against the spec. No app imports here.
 */
export const PROFILE_TYPE_PATHS = {
  artist: { label: "Artist", directory: "artists", memberPage: "artist-profile", adminPage: "artist-profile", provider: false },
  musician: { label: "Musician", directory: "musicians", memberPage: "musician-profile", adminPage: "musicians-profile", provider: true },
  audio_engineer: {
    label: "Audio Engineer",
    directory: "audio-engineers",
    memberPage: "audio-engineer-profile",
    adminPage: "audio-engineers-profile",
    provider: true,
  },
  music_producer: {
    label: "Music Producer",
    directory: "music-producers",
    memberPage: "music-producer-profile",
    adminPage: "music-producer-profile",
    provider: true,
  },
  studio: { label: "Studio", directory: "studios", memberPage: "studio-profile", adminPage: "studios-profile", provider: true },
} as const;
export type ProfileTypeKey = keyof typeof PROFILE_TYPE_PATHS;
