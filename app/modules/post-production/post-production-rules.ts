import type { PostProductionService, PostProductionStage, PostProductionStatus } from "~/db/schema";

/** Post-production rules shared by the services and the pages: labels, stages per service, limits. */

export const PP_SERVICE_LABELS: Record<PostProductionService, string> = {
  mixing: "Mixing",
  mastering: "Mastering",
  mixing_and_mastering: "Mixing and mastering",
};

export const PP_STATUS_LABELS: Record<PostProductionStatus, string> = {
  pending: "Waiting for the engineer",
  awaiting_funding: "Awaiting funding",
  in_progress: "In progress",
  delivered: "Delivered",
  revision_requested: "Revision requested",
  completed: "Completed",
  canceled: "Canceled",
  declined: "Declined",
};

/** The StatusTag look of each status. */
export const PP_STATUS_TAG: Record<PostProductionStatus, string> = {
  pending: "pending",
  awaiting_funding: "pending",
  in_progress: "pending",
  delivered: "pending",
  revision_requested: "pending",
  completed: "approved",
  canceled: "rejected",
  declined: "rejected",
};

/** The stages of each service, in order (as projects of the same services go); `completed` comes with the owner's acceptance. */
export const PP_SERVICE_STAGES: Record<PostProductionService, readonly PostProductionStage[]> = {
  mixing: ["in_mixing", "mixed"],
  mastering: ["in_mastering"],
  mixing_and_mastering: ["in_mixing_and_mastering", "mixed", "in_mastering"],
};

export function ppFirstStage(service: PostProductionService): PostProductionStage {
  return PP_SERVICE_STAGES[service][0]!;
}

/** The stage after `stage` for the service, or null at the last one. */
export function ppNextStage(service: PostProductionService, stage: PostProductionStage | null): PostProductionStage | null {
  if (!stage) return null;
  const stages = PP_SERVICE_STAGES[service];
  const at = stages.indexOf(stage);
  return at >= 0 && at + 1 < stages.length ? stages[at + 1]! : null;
}

export function ppStageLabel(stage: string | null): string {
  if (!stage) return "Not started";
  const text = stage.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Statuses in which the job is still open (not completed, canceled or declined). */
export const PP_OPEN_STATUSES: readonly PostProductionStatus[] = ["pending", "awaiting_funding", "in_progress", "delivered", "revision_requested"];

export const PP_LIMITS = {
  notesMax: 2000,
  noteMin: 3,
  noteMax: 2000,
  reasonMin: 3,
  reasonMax: 500,
  emailMax: 254,
  /** A mixed or mastered song: lossless audio, as the song's own audio (250 MB). */
  deliveryMaxBytes: 250 * 1024 * 1024,
} as const;

/** How long an invitation link works. */
export const PP_INVITE_TTL_SECONDS = 30 * 24 * 60 * 60;
export const PP_INVITE_PATH = "/post-production-jobs/create-account";
export const PP_JOB_ROUTE = "member-post-production-job";
