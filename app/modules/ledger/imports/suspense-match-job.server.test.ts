import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { salesImports, statementLines, suspenseMatches, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { runQueuedJobsNow } from "~/modules/jobs/queue.server";
import { DIGITAL_HEADER, importStatement } from "../../../../tests/helpers/statements";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { SUSPENSE_MATCH_JOB, submitSuspenseMatch } from "./suspense-match-job.server";
import { recentMatches } from "./suspense-matching.server";

useTestDatabase();

let admin: User;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
});

const LINES = 4000;
const CODE = "GBXXX2699999";

/** The ledger's invariant over every entry: postings sum to zero, and what suspense holds is the unmatched lines' total. */
async function expectLedgerInvariant() {
  const rows = (await db().execute(sql`
    select (select coalesce(sum(amount_micros), 0) from postings)::text as "all",
      (select coalesce(sum(p.amount_micros), 0) from postings p join ledger_accounts a on a.id = p.account_id where a.kind = 'suspense')::text as suspense,
      (select coalesce(sum(amount_micros), 0) from statement_lines where matched_by is null)::text as unmatched`)) as unknown as {
    rows: Array<{ all: string; suspense: string; unmatched: string }>;
  };
  const row = rows.rows[0]!;
  expect(row.all).toBe("0");
  expect(row.suspense).toBe(row.unmatched);
}

describe("a suspense match of a code, as a background job", () => {
  it(`moves all ${LINES.toLocaleString("en-US")} lines of one code in one job, leaving none in suspense and the ledger balanced`, async () => {
    const lines = [DIGITAL_HEADER];
    for (let i = 0; i < LINES; i++) {
      const cents = String(1 + (i % 97)).padStart(2, "0");
      lines.push(`SM-1,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Someone Else,,,Lost Song,${CODE},1,0.${cents},USD,0.${cents},0.${cents},USD,`);
    }
    // And one line of another unknown code, which the match must leave where it is.
    lines.push(`SM-1,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Someone Else,,,Other Song,GBXXX2600042,1,1.00,USD,1.00,1.00,USD,`);
    const imported = await importStatement("digital", lines, admin.id);
    expect(imported.status).toBe("completed");
    expect(imported.unmatched).toBe(LINES + 1);

    const [first] = await db()
      .select({ id: statementLines.id })
      .from(statementLines)
      .where(and(eq(statementLines.importId, imported.id), eq(statementLines.isrc, CODE)))
      .orderBy(statementLines.id)
      .limit(1);
    const songs = (await db().execute(sql`select id from songs where isrc is not null order by id limit 1`)) as unknown as { rows: Array<{ id: number }> };
    const songId = songs.rows[0]!.id;

    // The form's action only records the match and its job: nothing has moved yet.
    const queued = await submitSuspenseMatch(admin.id, first!.id, { songId });
    expect([queued.status, queued.expectedLines]).toEqual(["queued", LINES]);
    expect((await recentMatches(imported.id))[0]).toMatchObject({ id: queued.id, status: "queued", expectedLines: LINES, lines: 0 });
    const inSuspense = async () =>
      (
        (await db().execute(sql`select count(*)::int as n from statement_lines where matched_by is null and suspense_key = ${`isrc:${CODE}`}`)) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0]!.n;
    expect(await inSuspense()).toBe(LINES);

    const ran = await runQueuedJobsNow(SUSPENSE_MATCH_JOB);
    expect(ran.completed).toBe(1);
    const [done] = await db().select().from(suspenseMatches).where(eq(suspenseMatches.id, queued.id));
    expect([done!.status, done!.matched, done!.error]).toEqual(["completed", LINES, null]);
    expect(await inSuspense()).toBe(0);
    const [row] = await db().select().from(salesImports).where(eq(salesImports.id, imported.id));
    expect([row!.matched, row!.unmatched, row!.suspenseMicros]).toEqual([LINES, 1, 1_000_000n]);
    // One entry moved them all (set-based: no entry per line).
    const entries = (await db().execute(sql`select count(*)::int as n from journal_entries where kind = 'suspense_match'`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(entries.rows[0]!.n).toBe(1);
    await expectLedgerInvariant();
    expect((await recentMatches(null))[0]).toMatchObject({ id: queued.id, status: "completed", lines: LINES });
  });

  it("refuses a line that is matched already, and a finished match is not run twice", async () => {
    const [matched] = await db().select({ id: statementLines.id }).from(statementLines).where(eq(statementLines.isrc, CODE)).limit(1);
    await expect(submitSuspenseMatch(admin.id, matched!.id, { songId: 1 })).rejects.toThrow("matched already");
  });
});
