import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { CLEANUP_BATCH, deleteInBatches } from "~/db/batched-delete.server";
import { rateLimits } from "~/db/schema";

export interface RateLimitState {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters kept in the database, so every app node sees the same counts.
 * `hit` counts one attempt and says whether it is still within `limit`.
 */
export async function hitRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitState> {
  const expired = sql`${rateLimits.windowStart} <= now() - make_interval(secs => ${windowSeconds})`;
  const [row] = await db()
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  return toState(row!, limit, windowSeconds);
}

/** The current state without counting an attempt. */
export async function peekRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitState> {
  const [row] = await db().select({ count: rateLimits.count, windowStart: rateLimits.windowStart }).from(rateLimits).where(eq(rateLimits.key, key));
  if (!row || row.windowStart.getTime() + windowSeconds * 1000 <= Date.now()) {
    return { allowed: true, count: 0, retryAfterSeconds: 0 };
  }
  return toState(row, limit, windowSeconds, true);
}

export async function resetRateLimit(key: string): Promise<void> {
  await db().delete(rateLimits).where(eq(rateLimits.key, key));
}

function toState(row: { count: number; windowStart: Date }, limit: number, windowSeconds: number, peek = false) {
  const retryAfterSeconds = Math.max(1, Math.ceil((row.windowStart.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
  const allowed = peek ? row.count < limit : row.count <= limit;
  return { allowed, count: row.count, retryAfterSeconds };
}

export function describeWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? "a minute" : `${minutes} minutes`;
}

/** The longest window any counter uses (a day: invitations per day); the login window may be set longer. */
export const LONGEST_RATE_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Deletes counters whose window ended: a row older than every window counts nothing (the next hit starts a new
 * window). The daily clean-up (app/modules/jobs/daily-cleanup.server.ts) calls it. Returns how many.
 */
export async function deleteStaleRateLimits(longestWindowSeconds = LONGEST_RATE_WINDOW_SECONDS): Promise<number> {
  return deleteInBatches(
    sql`delete from rate_limits where key in (select key from rate_limits where window_start < now() - make_interval(secs => ${longestWindowSeconds}) limit ${CLEANUP_BATCH})`,
  );
}
