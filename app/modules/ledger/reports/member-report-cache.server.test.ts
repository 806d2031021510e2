import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import type { User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { creditEarnings } from "../../../../tests/helpers/ledger";
import { captureStatements } from "../../../../tests/helpers/plans";
import { DIGITAL_HEADER, importStatement } from "../../../../tests/helpers/statements";
import { memberIncome } from "./income.server";
import { salesTotals, type SalesFilters } from "./sales-reports.server";

useTestDatabase();

let admin: User;
let mia: User;
let paul: User;
const noFilters: SalesFilters = { from: null, to: null, store: null, country: null };

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
});

/** Runs `fn` and tells whether it read the figures (the rollups) or only the cache's key. */
async function reads<T>(fn: () => Promise<T>) {
  const { result, statements } = await captureStatements(fn);
  return { result, statements: statements.length, aggregated: statements.some((s) => /posting_rollups|posting_summaries/.test(s.text)) };
}

describe("reports cached per member", () => {
  it("serves a figure again without reading the ledger; the member's own entry changes it, another member's does not", async () => {
    const first = await reads(() => memberIncome(mia.id));
    expect(first.aggregated).toBe(true);
    const again = await reads(() => memberIncome(mia.id));
    // Only the key: one statement by primary keys, no rollup read.
    expect(again).toMatchObject({ statements: 1, aggregated: false });
    expect(again.result).toBe(first.result);

    // Another member's entry: Mia's figure is still served from the cache.
    await creditEarnings(paul.id, 5_000_000n);
    const afterPaul = await reads(() => memberIncome(mia.id));
    expect(afterPaul).toMatchObject({ statements: 1, aggregated: false });
    expect(afterPaul.result).toBe(first.result);
    // …and Paul's is computed afresh with his new money.
    const paulIncome = await memberIncome(paul.id);
    const paulAgain = await reads(() => memberIncome(paul.id));
    expect(paulAgain.aggregated).toBe(false);

    // An entry for Mia: her figure is read again, and shows it.
    await creditEarnings(mia.id, 2_500_000n);
    const afterMia = await reads(() => memberIncome(mia.id));
    expect(afterMia.aggregated).toBe(true);
    expect(afterMia.result!.earnedMicros - first.result!.earnedMicros).toBe(2_500_000n);
    expect((await reads(() => memberIncome(paul.id))).result).toBe(paulIncome);
  });

  it("caches the sales figures too, and a completed import renews them", async () => {
    const before = await reads(() => salesTotals({ type: "member", memberId: mia.id }, "digital", noFilters));
    const cached = await reads(() => salesTotals({ type: "member", memberId: mia.id }, "digital", noFilters));
    expect(cached).toMatchObject({ statements: 1, aggregated: false });
    expect(cached.result).toBe(before.result);
    await importStatement(
      "digital",
      [DIGITAL_HEADER, "MC-1,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Midnight Owls,,,Northbound,USBL12600005,10,0.1,USD,10.00,10.00,USD,"],
      admin.id,
    );
    const after = await reads(() => salesTotals({ type: "member", memberId: mia.id }, "digital", noFilters));
    expect(after.aggregated).toBe(true);
    const sum = (rows: Array<{ amount: string }>) => rows.reduce((n, r) => n + BigInt(r.amount), 0n);
    expect(sum(after.result)).toBeGreaterThan(sum(before.result));
  });

  it("an import renews the income figure too", async () => {
    const before = await memberIncome(mia.id);
    await importStatement(
      "digital",
      [DIGITAL_HEADER, "MC-2,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Midnight Owls,,,Early Mornings,USBL12600002,10,0.1,USD,10.00,10.00,USD,"],
      admin.id,
    );
    const after = await memberIncome(mia.id);
    expect(after!.earnedMicros - before!.earnedMicros).toBe(9_000_000n);
  });

  it("is never stale after an import, with readers filling the cache while imports commit", async () => {
    let stop = false;
    const readers = Array.from({ length: 4 }, async () => {
      while (!stop) await memberIncome(mia.id);
    });
    try {
      for (let i = 0; i < 4; i++) {
        await importStatement(
          "digital",
          [
            DIGITAL_HEADER,
            `RC-C${i},2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Midnight Owls,,,Early Mornings,USBL12600002,10,0.1,USD,10.00,10.00,USD,`,
          ],
          admin.id,
        );
        const truth = (
          (await db().execute(sql`select coalesce(sum(p.amount_micros), 0)::text as s from postings p join ledger_accounts a on a.id = p.account_id
            where a.kind = 'earnings' and a.user_id = ${mia.id} and p.source is not null`)) as unknown as { rows: Array<{ s: string }> }
        ).rows[0]!.s;
        expect((await memberIncome(mia.id))!.earnedMicros.toString(), `after import ${i}`).toBe(truth);
      }
    } finally {
      stop = true;
      await Promise.all(readers);
    }
  });
});
