import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, ledgerAccounts, postings, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { runQueuedJobsNow, stopJobWorkers } from "~/modules/jobs/queue.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { DIGITAL_HEADER, statementUpload } from "../../../tests/helpers/statements";
import { SALES_IMPORT_JOB, submitSalesImport } from "./imports/sales-import-job.server";
import { matchSuspenseLine } from "./imports/suspense-matching.server";
import { IMPORT_RECONCILE_JOB, lastReconciliation, reconcileImport } from "./reconcile.server";

useTestDatabase();
afterAll(() => stopJobWorkers());

let admin: User;
let mia: User;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
});

function digital(statementId: string, store: string, upc: string, title: string, isrc: string, net: string) {
  return `${statementId},2026-08-15,2026-07,2026-07,${store},,stream,track,US,Midnight Owls,,${upc},${title},${isrc},10,0.1,USD,${net},${net},USD,`;
}

/** Uploads a statement and lets the queue run its import, then the reconcile the import enqueues. */
async function importThroughQueue(statementId: string) {
  const created = await submitSalesImport(
    await statementUpload(
      "digital",
      [
        DIGITAL_HEADER,
        digital(statementId, "Spotify", "", "Northbound", "USBL12600005", "10.00"),
        digital(statementId, "Apple Music", "", "Late Trains", "USBL12600001", "7.333333"),
        digital(statementId, "iTunes", "0196589000019", "", "", "4.00"),
        digital(statementId, "Deezer", "", "Someone else", "GBXXX2600001", "3.00"),
        digital(statementId, "Deezer", "", "Someone else", "GBXXX2600001", "-1.25"),
      ],
      admin.id,
    ),
  );
  await runQueuedJobsNow(SALES_IMPORT_JOB);
  return created.id;
}

describe("reconcile an import", () => {
  it("runs after each import through its job, and finds the import's parts equal to its postings", async () => {
    const importId = await importThroughQueue("RC-1");
    expect(await lastReconciliation(importId)).toBeNull();
    const ran = await runQueuedJobsNow(IMPORT_RECONCILE_JOB);
    expect(ran.completed).toBe(1);
    const result = await lastReconciliation(importId);
    expect(result).toMatchObject({ importId, reconciled: true, linesChecked: 5, mismatchedLines: 0, mismatches: [] });
    expect(result!.accountsChecked).toBeGreaterThanOrEqual(4); // receipts, commission, suspense, Mia's earnings at least
  });

  it("still reconciles after a match moves lines out of suspense (the running totals follow the lines)", async () => {
    const importId = await importThroughQueue("RC-2");
    const [line] = (
      (await db().execute(sql`select id from statement_lines where import_id = ${importId} and matched_by is null order by line_no limit 1`)) as unknown as {
        rows: Array<{ id: string }>;
      }
    ).rows;
    const [song] = ((await db().execute(sql`select id from songs where isrc is not null order by id limit 1`)) as unknown as { rows: Array<{ id: number }> })
      .rows;
    await matchSuspenseLine(admin.id, Number(line!.id), { songId: song!.id });
    const result = await reconcileImport(importId);
    expect(result?.mismatches).toEqual([]);
    expect(result?.reconciled).toBe(true);
  });

  it("reports a corrupted posting: its line, its account's running total and the entry's balance", async () => {
    const importId = await importThroughQueue("RC-3");
    const [entry] = await db()
      .select({ id: journalEntries.id })
      .from(journalEntries)
      .where(and(eq(journalEntries.importId, importId), eq(journalEntries.kind, "statement_import")));
    const [earning] = await db()
      .select({ id: postings.id })
      .from(postings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
      .where(and(eq(postings.entryId, entry!.id), eq(ledgerAccounts.kind, "earnings"), eq(ledgerAccounts.userId, mia.id)))
      .limit(1);
    // What a bad write (or a hand edit) would leave: one posting a cent higher than its line allocated.
    await db().execute(sql`update postings set amount_micros = amount_micros + 10000 where id = ${earning!.id}`);

    const result = await reconcileImport(importId);
    expect(result?.reconciled).toBe(false);
    expect(result?.mismatchedLines).toBe(1);
    const checks = result!.mismatches.map((m) => m.check).sort();
    expect(checks).toEqual(["entry", "line", "summary"]);
    const line = result!.mismatches.find((m) => m.check === "line")!;
    expect(BigInt(line.foundMicros) - BigInt(line.expectedMicros)).toBe(10000n);
    const summary = result!.mismatches.find((m) => m.check === "summary")!;
    expect(summary.label).toContain("earnings of");
    expect(BigInt(summary.expectedMicros) - BigInt(summary.foundMicros)).toBe(10000n);
    expect(result!.mismatches.find((m) => m.check === "entry")).toMatchObject({ expectedMicros: "0", foundMicros: "10000" });

    // A posting of the entry that names no line of the import is a mismatch of its account's parts.
    await db().execute(sql`update postings set amount_micros = amount_micros - 10000 where id = ${earning!.id}`);
    await db().execute(sql`update postings set statement_line_id = null where id = ${earning!.id}`);
    const unlinked = await reconcileImport(importId);
    expect(unlinked?.reconciled).toBe(false);
    expect(unlinked!.mismatches.some((m) => m.check === "account" && m.label.includes("earnings of"))).toBe(true);
    expect(await lastReconciliation(importId)).toMatchObject({ reconciled: false });
  });

  it("answers null for an import that has not completed", async () => {
    expect(await reconcileImport(999_999)).toBeNull();
  });
});
