import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { oneTimeTokens, rateLimits, sessions } from "~/db/schema";
import { DAILY_CLEANUP_JOB } from "~/modules/jobs/daily-cleanup.server";
import { enqueueDailyJobs, runQueuedJobsNow, startJobWorkers, stopJobWorkers } from "~/modules/jobs/queue.server";
import { sha256 } from "~/modules/security/hash.server";
import { useTestDatabase } from "../helpers/database";
import { createUser } from "../helpers/factories";

/**
 * The daily clean-up (decision 016, `daily` jobs): nothing deleted expired sessions, spent one-time tokens or
 * rate-limit counters whose window ended, so the tables only grew. A pg-boss job, enqueued once per UTC day by the
 * workers' maintenance tick (whatever the number of nodes), deletes them and leaves everything still in use.
 */

useTestDatabase();
afterAll(() => stopJobWorkers());

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

/** Rows of each kind, stale and still in use; returns the keys of the ones that must stay. */
async function seedRows() {
  const user = await createUser();
  const key = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;
  const live = { sessions: [key("live"), key("live")], tokens: [key("live"), key("live"), key("live")], limits: [key("live"), key("live")] };
  const stale = { sessions: [key("stale")], tokens: [key("stale"), key("stale")], limits: [key("stale")] };
  await db()
    .insert(sessions)
    .values([
      { idHash: sha256(live.sessions[0]!), userId: user.id, expiresAt: new Date(Date.now() + HOUR) },
      // A guest session (no user) still within its time.
      { idHash: sha256(live.sessions[1]!), userId: null, expiresAt: new Date(Date.now() + 60_000) },
      { idHash: sha256(stale.sessions[0]!), userId: user.id, expiresAt: ago(60_000) },
    ]);
  await db()
    .insert(oneTimeTokens)
    .values([
      { userId: user.id, purpose: "password_reset", tokenHash: sha256(live.tokens[0]!), expiresAt: new Date(Date.now() + HOUR) },
      {
        userId: user.id,
        purpose: "email_change_cancel",
        newEmail: user.email,
        tokenHash: sha256(live.tokens[1]!),
        expiresAt: new Date(Date.now() + 72 * HOUR),
      },
      // A form's idempotency key is used from the start, and kept until it expires.
      { userId: user.id, purpose: "idempotency", tokenHash: sha256(live.tokens[2]!), expiresAt: new Date(Date.now() + 24 * HOUR), usedAt: ago(60_000) },
      { userId: user.id, purpose: "password_reset", tokenHash: sha256(stale.tokens[0]!), expiresAt: new Date(Date.now() + HOUR), usedAt: ago(60_000) },
      { userId: user.id, purpose: "email_verification", tokenHash: sha256(stale.tokens[1]!), expiresAt: ago(60_000) },
    ]);
  await db()
    .insert(rateLimits)
    .values([
      { key: live.limits[0]!, windowStart: ago(60_000), count: 3 },
      // A day's window (invitations per day) that began 23 hours ago still counts.
      { key: live.limits[1]!, windowStart: ago(23 * HOUR), count: 9 },
      { key: stale.limits[0]!, windowStart: ago(25 * HOUR), count: 50 },
    ]);
  return { live, stale };
}

async function present(rows: Awaited<ReturnType<typeof seedRows>>["live"]) {
  const sessionsLeft = await db().select({ idHash: sessions.idHash }).from(sessions);
  const tokensLeft = await db().select({ tokenHash: oneTimeTokens.tokenHash }).from(oneTimeTokens);
  const limitsLeft = await db().select({ key: rateLimits.key }).from(rateLimits);
  return {
    sessions: rows.sessions.filter((k) => sessionsLeft.some((s) => s.idHash === sha256(k))).length,
    tokens: rows.tokens.filter((k) => tokensLeft.some((t) => t.tokenHash === sha256(k))).length,
    limits: rows.limits.filter((k) => limitsLeft.some((l) => l.key === k)).length,
  };
}

/** Yesterday's key (UTC), as a run made a day earlier carries it. */
const yesterday = () => `daily:${new Date(Date.now() - 24 * HOUR).toISOString().slice(0, 10)}`;

const jobRows = async () =>
  (
    (await db().execute(sql`select state, singleton_key from pgboss.job where name = ${DAILY_CLEANUP_JOB}`)) as unknown as {
      rows: Array<{ state: string }>;
    }
  ).rows;

describe("the daily clean-up", () => {
  it("deletes expired sessions, spent tokens and ended rate-limit windows, and keeps what is still in use", async () => {
    const { live, stale } = await seedRows();
    expect(await enqueueDailyJobs()).toEqual([DAILY_CLEANUP_JOB]);
    expect(await runQueuedJobsNow(DAILY_CLEANUP_JOB)).toEqual({ runs: 1, completed: 1, failed: 0 });
    expect(await present(stale)).toEqual({ sessions: 0, tokens: 0, limits: 0 });
    expect(await present(live)).toEqual({ sessions: 2, tokens: 3, limits: 2 });
  });

  it("is enqueued once a day, however many times (or nodes) ask, a finished run included; the next day again", async () => {
    // Today's run exists and has completed (the test above): asking again enqueues nothing.
    expect(await enqueueDailyJobs()).toEqual([]);
    expect(await Promise.all([enqueueDailyJobs(), enqueueDailyJobs()])).toEqual([[], []]);
    expect(await jobRows()).toMatchObject([{ state: "completed" }]);
    // A day later (the run's day moved back), it is enqueued again, once.
    await db().execute(sql`update pgboss.job set singleton_key = ${yesterday()} where name = ${DAILY_CLEANUP_JOB}`);
    expect(await Promise.all([enqueueDailyJobs(), enqueueDailyJobs()])).toContainEqual([DAILY_CLEANUP_JOB]);
    expect(await enqueueDailyJobs()).toEqual([]);
    expect(await runQueuedJobsNow(DAILY_CLEANUP_JOB)).toEqual({ runs: 1, completed: 1, failed: 0 });
    expect(await jobRows()).toHaveLength(2);
  });

  it("runs by itself where the job workers run (their maintenance tick)", async () => {
    // Yesterday's run, as a server started this morning would find it.
    await db().execute(sql`update pgboss.job set singleton_key = ${yesterday()} where name = ${DAILY_CLEANUP_JOB}`);
    const { stale } = await seedRows();
    await startJobWorkers({ pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    const deadline = Date.now() + 15_000;
    while (JSON.stringify(await present(stale)) !== JSON.stringify({ sessions: 0, tokens: 0, limits: 0 })) {
      if (Date.now() > deadline) throw new Error(`the clean-up did not run: ${JSON.stringify(await present(stale))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await stopJobWorkers();
    // What is still in use stays (two sessions of each seeding).
    expect(
      (
        await db()
          .select()
          .from(sessions)
          .where(sql`${sessions.expiresAt} > now()`)
      ).length,
    ).toBe(4);
  });
});
