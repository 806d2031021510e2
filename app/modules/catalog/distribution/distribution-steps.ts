/**
 * The guided distribution flow (`/member/{m}/digital-distribution/start`): seven steps over one draft
 * release, each saved as it is left. The release and the step travel in the query string
 * (`?release=12&step=cover`), so every step is a plain page that works without JavaScript.
 */

export const DISTRIBUTION_STEPS = [
  { key: "artist", label: "Artist" },
  { key: "details", label: "Release details" },
  { key: "tracks", label: "Tracks and audio" },
  { key: "cover", label: "Cover art" },
  { key: "stores", label: "Stores and territories" },
  { key: "preflight", label: "Preflight" },
  { key: "submit", label: "Submit" },
] as const;

export type DistributionStep = (typeof DISTRIBUTION_STEPS)[number]["key"];

const STEP_KEYS = DISTRIBUTION_STEPS.map((s) => s.key) as readonly string[];

export function isDistributionStep(value: unknown): value is DistributionStep {
  return typeof value === "string" && STEP_KEYS.includes(value);
}

/** The step after `step` (the last step is its own successor). */
export function nextStep(step: DistributionStep): DistributionStep {
  const index = STEP_KEYS.indexOf(step);
  return DISTRIBUTION_STEPS[Math.min(index + 1, DISTRIBUTION_STEPS.length - 1)]!.key;
}

export function previousStep(step: DistributionStep): DistributionStep | null {
  const index = STEP_KEYS.indexOf(step);
  return index > 0 ? DISTRIBUTION_STEPS[index - 1]!.key : null;
}

export function distributionPath(memberId: number, releaseId?: number | null, step?: DistributionStep): string {
  const base = `/member/${memberId}/digital-distribution/start`;
  if (!releaseId) return base;
  return `${base}?release=${releaseId}&step=${step ?? "details"}`;
}

/** The step that edits a preflight problem's release field (track fields are fixed on the song's page). */
const STEP_OF_FIELD: Record<string, DistributionStep> = {
  title: "details",
  type: "details",
  upc: "details",
  label: "details",
  p_line: "details",
  c_line: "details",
  primary_genre: "details",
  secondary_genre: "details",
  language: "details",
  release_date: "details",
  previous_release_date: "details",
  parental_advisory: "details",
  tracks: "tracks",
  cover: "cover",
  stores: "stores",
  territories: "stores",
};

export function stepOfField(field: string): DistributionStep | null {
  return STEP_OF_FIELD[field] ?? null;
}
