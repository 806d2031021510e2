import type { MarketplaceService, ProjectStage } from "~/db/schema";

/** Marketplace rules shared by the services and the forms: labels, stages per service, limits, the fee. */

export const SERVICE_LABELS: Record<MarketplaceService, string> = {
  recording: "Recording",
  session_work: "Session work",
  production: "Production",
  mixing: "Mixing",
  mastering: "Mastering",
  mixing_and_mastering: "Mixing and mastering",
};

/**
 * The stages a project of each service goes through, in order; the provider advances one at a time and
 * `completed` comes only with the client's approval (or an administrator's release).
 */
export const SERVICE_STAGES: Record<MarketplaceService, readonly ProjectStage[]> = {
  recording: ["in_recording"],
  session_work: ["in_session_work"],
  production: ["in_production", "production_completed"],
  mixing: ["in_mixing", "mixed"],
  mastering: ["in_mastering"],
  mixing_and_mastering: ["in_mixing_and_mastering", "mixed", "in_mastering"],
};

export function firstStage(service: MarketplaceService): ProjectStage {
  return SERVICE_STAGES[service][0]!;
}

/** The stage after `stage` for the service, or null at the last one (only completion follows). */
export function nextStage(service: MarketplaceService, stage: ProjectStage): ProjectStage | null {
  const stages = SERVICE_STAGES[service];
  const at = stages.indexOf(stage);
  return at >= 0 && at + 1 < stages.length ? stages[at + 1]! : null;
}

export const LIMITS = {
  descriptionMin: 10,
  descriptionMax: 5000,
  links: 10,
  linkMax: 500,
  budgetMaxCents: 100_000_000, // $1,000,000
  lineItems: 20,
  lineItemDescriptionMax: 200,
  estimateMaxCents: 100_000_000,
  deliveryDaysMax: 365,
  revisionsMax: 20,
  pointsMaxBps: 5000,
  expiryDaysMax: 90,
  noteMax: 2000,
  messageMax: 5000,
  reviewMax: 5000,
  reasonMin: 3,
  reasonMax: 500,
  deliverableMaxBytes: 500 * 1024 * 1024,
} as const;

/** Audio a provider may deliver (streamed uploads; the route checks the bytes, this the declared type). */
export const DELIVERABLE_MIME_TYPES = [
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/flac",
  "audio/x-flac",
  "audio/aiff",
  "audio/x-aiff",
  "audio/mpeg",
  "audio/mp4",
  "audio/aac",
  "audio/ogg",
  "application/zip",
] as const;

/** The config key of the platform's marketplace fee (basis points of the project amount; default 10 %). */
export const MARKETPLACE_FEE_KEY = "marketplace_fee_bps";
export const DEFAULT_MARKETPLACE_FEE_BPS = 1000;

export function parseMarketplaceFeeBps(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 10_000 ? n : DEFAULT_MARKETPLACE_FEE_BPS;
}

/** The platform fee on `cents`, in whole cents, rounded half-to-even (integer arithmetic). */
export function feeCents(cents: bigint, bps: number): bigint {
  const exact = cents * BigInt(bps);
  let fee = exact / 10_000n;
  const twice = (exact % 10_000n) * 2n;
  if (twice > 10_000n || (twice === 10_000n && fee % 2n === 1n)) fee += 1n;
  return fee;
}
