import { ADMIN_CHANNEL, publish } from "~/modules/notifications/broadcaster.server";
import { defineJob, enqueueJob, storableError } from "~/modules/jobs/queue.server";
import { failSuspenseMatch, onMatchProgress, queueSuspenseMatch, runSuspenseMatch, type MatchTarget } from "./suspense-matching.server";

/**
 * A suspense match of a code runs as a durable job (decision 016, decision 028), as an import does: the admin's
 * form records it and its job and redirects; a worker moves the lines in one transaction; progress reaches the
 * admin pages live over the same channel as an import's, and the pages refresh without JavaScript.
 */
export const SUSPENSE_MATCH_JOB = "suspense-match";
export const SUSPENSE_MATCH_PROGRESS_EVENT = "suspense-match.progress";
const RETRY_LIMIT = 2;

/** Registered at boot by the job registry (app/modules/jobs/registry.server.ts). */
export const suspenseMatchJob = defineJob<{ matchId: number }>(
  SUSPENSE_MATCH_JOB,
  async ({ matchId }, job) => {
    try {
      await runSuspenseMatch(matchId);
    } catch (error) {
      if (job.retryCount >= RETRY_LIMIT) {
        const reason = storableError(error).message;
        console.error(JSON.stringify({ level: "error", message: "suspense match failed", matchId, error: reason }));
        await failSuspenseMatch(
          matchId,
          `The match stopped on an error and moved nothing: ${reason}. Match the line again, or ask a developer to look at the server log.`,
        );
        return;
      }
      throw error;
    }
  },
  { retryLimit: RETRY_LIMIT, retryDelaySeconds: 5, expireInSeconds: 60 * 60 },
);

onMatchProgress((progress) => {
  void publish([ADMIN_CHANNEL], SUSPENSE_MATCH_PROGRESS_EVENT, { ...progress });
});

/** Records a match of a line (and every line in suspense with its code) with its job. MatchError when refused. */
export async function submitSuspenseMatch(actorId: number, lineId: number, target: MatchTarget) {
  return queueSuspenseMatch(actorId, lineId, target, (tx, row) =>
    enqueueJob(SUSPENSE_MATCH_JOB, { matchId: row.id }, { singletonKey: `suspense-match:${row.id}`, tx }),
  );
}
