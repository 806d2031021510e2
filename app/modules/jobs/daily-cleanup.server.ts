import { deleteSpentTokens } from "~/modules/accounts/tokens.server";
import { deleteExpiredSessions } from "~/modules/accounts/session.server";
import { env } from "~/env.server";
import { deleteStaleRateLimits, LONGEST_RATE_WINDOW_SECONDS } from "~/modules/security/rate-limit.server";
import { defineJob } from "./queue.server";

/**
 * Once a day (decision 016, `daily` jobs): deletes expired sessions, one-time tokens that can no longer be used,
 * and rate-limit counters whose window ended. Nothing deleted them: the tables only grew, and every login, link
 * and limited form added rows. Idempotent: a second run finds nothing to delete.
 */
export const DAILY_CLEANUP_JOB = "daily-cleanup";

export interface CleanupCounts {
  sessions: number;
  tokens: number;
  rateLimits: number;
}

export async function runDailyCleanup(): Promise<CleanupCounts> {
  const counts = {
    sessions: await deleteExpiredSessions(),
    tokens: await deleteSpentTokens(),
    rateLimits: await deleteStaleRateLimits(Math.max(LONGEST_RATE_WINDOW_SECONDS, env().LOGIN_LIMIT_WINDOW_SECONDS)),
  };
  console.log(JSON.stringify({ level: "info", message: "daily clean-up", ...counts }));
  return counts;
}

/** Registered at boot by the job registry (app/modules/jobs/registry.server.ts). */
export const dailyCleanupJob = defineJob(
  DAILY_CLEANUP_JOB,
  async () => {
    await runDailyCleanup();
  },
  { daily: true, retryLimit: 2, expireInSeconds: 30 * 60 },
);
