import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { ledgerAccounts, postings, splitParties, statementLines, users, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createUser } from "../../../../tests/helpers/factories";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSalesImport, runSalesImport } from "../imports/sales-imports.server";
import type { StatementKind } from "../imports/parse-statement";
import { incomePageData, incomeReportJson, memberIncome, memberIncomeLines, memberPayments, STATEMENTS_PAGE_SIZE } from "./income.server";

useTestDatabase();

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
const PRO_HEADER =
  "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator";

function digital(statementId: string, period: string, store: string, upc: string, title: string, isrc: string, net: string) {
  return `${statementId},2026-08-15,${period},${period},${store},,stream,track,US,Midnight Owls,,${upc},${title},${isrc},10,0.1,USD,${net},${net},USD,`;
}

let admin: User;
let mia: User;
let paul: User;
let nina: User;

async function importNow(kind: StatementKind, lines: string[]) {
  const text = lines.join("\n") + "\n";
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "income-"));
  const tmpPath = path.join(dir, "upload");
  await fs.writeFile(tmpPath, text);
  const created = await createSalesImport({
    kind,
    file: { tmpPath, filename: `${kind}-statement.csv`, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
    exchangeRate: null,
    uploadedBy: admin.id,
  });
  const done = await runSalesImport(created.id);
  expect(done?.status, done?.error ?? "").toBe("completed");
  return done!;
}

/** The sum of a user's postings on one account kind, straight from the postings (optionally income only). */
async function postingsSum(userId: number, kind: "earnings" | "payouts_reserved" | "payouts_paid", incomeOnly = false) {
  const [row] = await db()
    .select({ sum: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text` })
    .from(postings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(and(eq(ledgerAccounts.kind, kind), eq(ledgerAccounts.userId, userId), incomeOnly ? isNotNull(postings.source) : undefined));
  return BigInt(row!.sum);
}

let digitalImport: number;
let proImport: number;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  // Nina signs up with the invited address (verified) but has not answered: her 20 % of Late Trains is held.
  nina = await createUser({ email: "nina@example.com", emailVerifiedAt: new Date() });
  digitalImport = (
    await importNow("digital", [
      DIGITAL_HEADER,
      // Northbound June: Mia all (after 10 % commission); July 70/30.
      digital("INC-1", "2026-06", "Spotify", "", "Northbound", "USBL12600005", "10.00"),
      digital("INC-1", "2026-07", "Spotify", "", "Northbound", "USBL12600005", "10.00"),
      // Late Trains: Mia 50, Paul 30, Nina 20 held.
      digital("INC-1", "2026-07", "Apple Music", "", "Late Trains", "USBL12600001", "10.00"),
      // 8 decimals, and a refund.
      digital("INC-1", "2026-07", "Tidal", "", "Early Mornings", "USBL12600002", "0.12345650"),
      digital("INC-1", "2026-07", "Spotify", "", "Northbound", "USBL12600005", "-1.00"),
      // Unknown: suspense, nobody's income.
      digital("INC-1", "2026-07", "Deezer", "", "Someone else", "GBXXX2600001", "3.00"),
    ])
  ).id;
  proImport = (
    await importNow("pro", [
      PRO_HEADER,
      "BMI-INC,2026-09-30,Mia Member,00523419871,Writer,Late Trains,T-345.246.800-3,Radio,US,2026-04-01,2026-06-30,100,50,12.34567891,USD,,",
    ])
  ).id;
});

describe("memberIncome", () => {
  it("agrees with the postings to the micro-unit: earned, by source, by month, and the statements behind them", async () => {
    const income = (await memberIncome(mia.id))!;
    // Northbound June 9.00; July 6.30 - 0.63; Late Trains 4.50; Early Mornings 0.111110 -> digital 19.281110. PRO 12.345679.
    expect(income.bySource.digital).toBe(9_000_000n + 6_300_000n - 630_000n + 4_500_000n + 111_110n);
    expect(income.bySource.pro).toBe(12_345_679n);
    expect(income.bySource.license).toBe(0n);
    expect(income.earnedMicros).toBe(await postingsSum(mia.id, "earnings", true));
    expect(income.balanceMicros).toBe(await postingsSum(mia.id, "earnings"));
    expect(income.heldMicros).toBe(0n);
    expect(income.reservedMicros).toBe(0n);
    expect(income.paidOutMicros).toBe(0n);
    expect(income.availableCents).toBe(3162n); // 31.626789 rounded down
    expect(incomeReportJson(income)).toEqual({
      memberId: mia.id,
      currency: "USD",
      earned: "31.626789",
      held: "0.000000",
      reserved: "0.000000",
      paid_out: "0.000000",
      available: "31.620000",
      by_source: { digital: "19.281110", pro: "12.345679", license: "0.000000", marketplace: "0.000000", affiliate: "0.000000" },
    });
    // By the month of the sale period: the PRO line's period starts in April, Northbound's first in June.
    expect(income.byMonth.map((m) => [m.month, m.bySource.digital, m.bySource.pro])).toEqual([
      ["2026-04", 0n, 12_345_679n],
      ["2026-06", 9_000_000n, 0n],
      ["2026-07", 6_300_000n - 630_000n + 4_500_000n + 111_110n, 0n],
    ]);
    expect(income.byMonth.reduce((sum, m) => sum + m.totalMicros, 0n)).toBe(income.earnedMicros);
    // The statements: newest first, each with the member's amount, summing to the total.
    expect(income.statements.map((s) => [s.importId, s.kind, s.fileName, s.amountMicros])).toEqual([
      [proImport, "pro", "pro-statement.csv", 12_345_679n],
      [digitalImport, "digital", "digital-statement.csv", 19_281_110n],
    ]);
    // Members see each named by its source and the months of their part of it, not by the uploaded file.
    expect(incomePageData(income).statements.map((s) => s.name)).toEqual(["Performance royalties · April 2026", "Digital sales · Jun – Jul 2026"]);
    expect(JSON.stringify(incomePageData(income))).not.toContain("statement.csv");
    expect(income.statementCount).toBe(2);
    expect(income.statementsPage).toBe(1);
    // A page past the last: no statements, the same count and figures.
    const past = (await memberIncome(mia.id, 2))!;
    expect([past.statements, past.statementCount, past.statementsPage, past.earnedMicros]).toEqual([[], 2, 2, income.earnedMicros]);
    // The lines behind the digital statement's amount: only Mia's, with her part of each.
    const { lines, total, naming } = await memberIncomeLines(mia.id, digitalImport);
    expect(total).toBe(5);
    expect(naming).toMatchObject({ kind: "digital", firstMonth: "2026-06", lastMonth: "2026-07" });
    expect(lines.map((l) => [l.lineNo, l.amountMicros])).toEqual([
      [2, 9_000_000n],
      [3, 6_300_000n],
      [4, 4_500_000n],
      [5, 111_110n],
      [6, -630_000n],
    ]);
    expect(lines.reduce((sum, l) => sum + l.amountMicros, 0n)).toBe(19_281_110n);
  });

  it("shows a pending party her held share (by her verified address) and keeps every member to their own figures", async () => {
    const [party] = await db().select().from(splitParties).where(eq(splitParties.email, "nina@example.com"));
    const [held] = await db()
      .select({ sum: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text` })
      .from(postings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
      .where(eq(ledgerAccounts.splitPartyId, party!.id));
    const ninaIncome = (await memberIncome(nina.id))!;
    expect(ninaIncome.heldMicros).toBe(1_800_000n);
    expect(ninaIncome.heldMicros).toBe(BigInt(held!.sum));
    expect(ninaIncome.earnedMicros).toBe(0n);
    expect(ninaIncome.statements).toEqual([]);

    // While her address is unverified the held share is not hers to see.
    await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, nina.id));
    expect((await memberIncome(nina.id))!.heldMicros).toBe(0n);
    await db().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, nina.id));

    const paulIncome = (await memberIncome(paul.id))!;
    // Northbound July 2.70 - 0.27; Late Trains 2.70.
    expect(paulIncome.earnedMicros).toBe(2_700_000n - 270_000n + 2_700_000n);
    expect(paulIncome.earnedMicros).toBe(await postingsSum(paul.id, "earnings", true));
    expect(paulIncome.bySource.pro).toBe(0n);
    expect(paulIncome.heldMicros).toBe(0n);
    expect(paulIncome.statements.map((s) => s.importId)).toEqual([digitalImport]);
    expect((await memberIncomeLines(paul.id, proImport)).lines).toEqual([]);
    expect((await memberIncomeLines(paul.id, digitalImport)).lines.map((l) => l.lineNo)).toEqual([3, 4, 6]);
    expect(await memberIncome(2_000_000_000)).toBeNull();
  });

  it("moves the held share into earnings when she accepts, keeping its month and statement", async () => {
    const { answerSplit } = await import("~/modules/splits/splits.server");
    const [party] = await db().select().from(splitParties).where(eq(splitParties.email, "nina@example.com"));
    await answerSplit(nina, party!.id, "accepted", { ip: "203.0.113.9", userAgent: "vitest" });
    const income = (await memberIncome(nina.id))!;
    expect(income.heldMicros).toBe(0n);
    expect(income.earnedMicros).toBe(1_800_000n);
    expect(income.byMonth.map((m) => [m.month, m.totalMicros])).toEqual([["2026-07", 1_800_000n]]);
    expect(income.statements.map((s) => [s.importId, s.amountMicros])).toEqual([[digitalImport, 1_800_000n]]);
    expect(incomeReportJson(income).available).toBe("1.800000");
    // The statement lines stay the import's: nothing was rewritten.
    const lines = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(statementLines)
      .where(eq(statementLines.importId, digitalImport));
    expect(lines[0]!.n).toBe(6);
  });

  it("has no payments before payouts exist", async () => {
    expect(await memberPayments(mia.id)).toEqual([]);
  });
});

// Last: it adds statements that pay Mia.
describe("memberIncome's statements, a page at a time", () => {
  it("pages the statements newest first, with every figure still over all of them", async () => {
    const before = (await memberIncome(mia.id))!;
    const added: number[] = [];
    for (let n = 1; n <= STATEMENTS_PAGE_SIZE; n++) {
      added.push((await importNow("digital", [DIGITAL_HEADER, digital(`PAGE-${n}`, "2026-08", "Spotify", "", "Northbound", "USBL12600005", "1.00")])).id);
    }
    const first = (await memberIncome(mia.id))!;
    expect(first.statementCount).toBe(STATEMENTS_PAGE_SIZE + 2);
    expect(first.statements.map((s) => s.importId)).toEqual([...added].reverse());
    // 70/30 after 10 % commission: 0.63 each.
    expect(first.earnedMicros).toBe(before.earnedMicros + BigInt(STATEMENTS_PAGE_SIZE) * 630_000n);
    const second = (await memberIncome(mia.id, 2))!;
    expect(second.statements.map((s) => s.importId)).toEqual([proImport, digitalImport]);
    expect([second.statementCount, second.statementsPage, second.earnedMicros]).toEqual([first.statementCount, 2, first.earnedMicros]);
  });
});
