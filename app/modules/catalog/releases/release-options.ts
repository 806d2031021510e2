/**
 * The fixed vocabularies of a release form (client-safe): the stores a release can be delivered to,
 * the territories, the types and statuses' labels, and the slug made from a title.
 */
import type { ReleaseStatus, ReleaseType } from "~/db/schema";

export const STORES = [
  { code: "spotify", name: "Spotify" },
  { code: "apple_music", name: "Apple Music / iTunes" },
  { code: "amazon_music", name: "Amazon Music" },
  { code: "youtube_music", name: "YouTube Music" },
  { code: "deezer", name: "Deezer" },
  { code: "tidal", name: "TIDAL" },
  { code: "tiktok", name: "TikTok / Resso" },
  { code: "instagram_facebook", name: "Instagram / Facebook" },
  { code: "pandora", name: "Pandora" },
  { code: "soundcloud", name: "SoundCloud" },
] as const;
export const STORE_CODES = STORES.map((s) => s.code) as readonly string[];

/** "WW" means worldwide; otherwise ISO 3166-1 alpha-2 codes. */
export const WORLDWIDE = "WW";
export const TERRITORIES = [
  { code: "US", name: "United States" },
  { code: "CA", name: "Canada" },
  { code: "MX", name: "Mexico" },
  { code: "BR", name: "Brazil" },
  { code: "AR", name: "Argentina" },
  { code: "GB", name: "United Kingdom" },
  { code: "IE", name: "Ireland" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "ES", name: "Spain" },
  { code: "IT", name: "Italy" },
  { code: "NL", name: "Netherlands" },
  { code: "SE", name: "Sweden" },
  { code: "NO", name: "Norway" },
  { code: "PL", name: "Poland" },
  { code: "JP", name: "Japan" },
  { code: "KR", name: "South Korea" },
  { code: "IN", name: "India" },
  { code: "AU", name: "Australia" },
  { code: "NZ", name: "New Zealand" },
  { code: "ZA", name: "South Africa" },
  { code: "NG", name: "Nigeria" },
] as const;
export const TERRITORY_CODES = TERRITORIES.map((t) => t.code) as readonly string[];

export const RELEASE_TYPE_OPTIONS: Array<{ value: ReleaseType; label: string }> = [
  { value: "single", label: "Single" },
  { value: "ep", label: "EP" },
  { value: "album", label: "Album" },
];

export const RELEASE_STATUS_LABELS: Record<ReleaseStatus, string> = {
  draft: "Draft",
  pending_approval: "Pending approval",
  approved: "Ready for distribution",
  rejected: "Rejected",
  in_distribution: "In distribution",
  takedown_requested: "Takedown requested",
  taken_down: "Taken down",
};

/** Statuses in which the owner may still change the release. */
export const EDITABLE_STATUSES: readonly ReleaseStatus[] = ["draft", "rejected"];

/** The fields an administrator can give a rejection reason for (the preflight's field names). */
export const REVIEW_FIELDS = [
  { field: "title", label: "Title" },
  { field: "type", label: "Release type" },
  { field: "upc", label: "UPC" },
  { field: "label", label: "Label, ℗ and © lines" },
  { field: "primary_genre", label: "Genre" },
  { field: "language", label: "Language" },
  { field: "release_date", label: "Release date" },
  { field: "parental_advisory", label: "Explicit flag" },
  { field: "cover", label: "Cover art" },
  { field: "stores", label: "Stores and territories" },
  { field: "tracks", label: "Tracks" },
  { field: "other", label: "Other" },
] as const;

/** "Live at the Roxy (2026)!" -> "live-at-the-roxy-2026". Empty when the title has no letters or digits. */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The anchor of a release field on the release profile page (`#field-release_date`). */
export function releaseFieldAnchor(field: string): string {
  return `field-${field.replace(/[^a-z0-9_-]/gi, "_")}`;
}

/** A cover variant's public path from the stored (1400) path; anything else is returned as it is. */
export function coverVariant(path: string | null, variant: "1400x1400" | "600x600" | "300x300"): string | null {
  if (!path) return null;
  return path.replace(/\/1400x1400\.webp$/, `/${variant}.webp`);
}

/** The songs' audio, served by the songs module. */
export function songAudioPath(songId: number): string {
  return `/storage/audio/${songId}`;
}

/** A track's length as m:ss ("–" when unknown). */
export function formatDuration(seconds: number | null): string {
  if (seconds == null) return "–";
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The release's public page (`release-page/{artistSlug}/{releaseSlug}`) in the member (with its id) or admin area. */
export function releasePagePath(memberId: number | null, release: { slug: string; artist: { username: string } }): string {
  const base = memberId === null ? "/admin" : `/member/${memberId}`;
  return `${base}/release-page/${encodeURIComponent(release.artist.username)}/${encodeURIComponent(release.slug)}`;
}
