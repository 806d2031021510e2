import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, ledgerAccounts, postings, salesImports, splitParties, statementLines, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { answerSplit } from "~/modules/splits/splits.server";
import { createUser } from "../../../../tests/helpers/factories";
import { DIGITAL_HEADER, PRO_HEADER, statementUpload } from "../../../../tests/helpers/statements";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSalesImport, runSalesImport, SalesImportRefusal, salesImportJson } from "./sales-imports.server";
import type { StatementKind } from "./parse-statement";
import { SALES_IMPORT_JOB, submitSalesImport } from "./sales-import-job.server";
import { matchSuspenseLine } from "./suspense-matching.server";
import { summaryRowsOf } from "../summaries.server";
import { runQueuedJobsNow } from "~/modules/jobs/queue.server";

useTestDatabase();

let admin: User;
let mia: User;
let paul: User;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
});

/** A digital line: [statement, period start, store, upc, title, isrc, net, currency, rate]. */
function digital(statementId: string, period: string, store: string, upc: string, title: string, isrc: string, net: string, currency = "USD", rate = "") {
  return `${statementId},2026-08-15,${period},${period},${store},,stream,track,US,Midnight Owls,,${upc},${title},${isrc},10,0.1,${currency},${net},${net},${currency},${rate}`;
}

async function upload(kind: StatementKind, lines: string[], exchangeRate: string | null = null) {
  return createSalesImport(await statementUpload(kind, lines, admin.id, exchangeRate));
}

async function importNow(kind: StatementKind, lines: string[], exchangeRate: string | null = null) {
  const created = await upload(kind, lines, exchangeRate);
  const done = await runSalesImport(created.id);
  expect(done?.status, done?.error ?? "").toBe("completed");
  return done!;
}

/** The sum of postings on an account kind for a user (earnings) or a party (held), in micro-units. */
async function balance(kind: "earnings" | "held" | "suspense" | "commission", owner: { userId?: number; partyId?: string } = {}) {
  const [row] = await db()
    .select({ sum: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text` })
    .from(postings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(
      and(
        eq(ledgerAccounts.kind, kind),
        owner.userId ? eq(ledgerAccounts.userId, owner.userId) : undefined,
        owner.partyId ? eq(ledgerAccounts.splitPartyId, owner.partyId) : undefined,
      ),
    );
  return BigInt(row!.sum);
}

/** docs/money.md's invariant for one import: its postings sum to zero and share out exactly the lines' total. */
async function expectInvariant(importId: number) {
  const [lines] = await db()
    .select({ total: sql<string>`coalesce(sum(${statementLines.amountMicros}), 0)::text` })
    .from(statementLines)
    .where(eq(statementLines.importId, importId));
  const [made] = await db()
    .select({
      all: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text`,
      shared: sql<string>`coalesce(sum(${postings.amountMicros}) filter (where ${ledgerAccounts.kind} <> 'receipts'), 0)::text`,
    })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(eq(journalEntries.importId, importId));
  expect(BigInt(made!.all)).toBe(0n);
  expect(made!.shared).toBe(lines!.total);
  const [row] = await db().select().from(salesImports).where(eq(salesImports.id, importId));
  expect(row!.totalMicros.toString()).toBe(lines!.total);
}

describe("a digital statement", () => {
  it("matches by ISRC (hyphens and case ignored) and by UPC, shares June and July by the split in force, holds pending shares, and balances", async () => {
    const before = { mia: await balance("earnings", { userId: mia.id }), paul: await balance("earnings", { userId: paul.id }) };
    const done = await importNow("digital", [
      DIGITAL_HEADER,
      // Northbound: June pays Mia all; July 70/30.
      digital("DK-1", "2026-06", "Spotify", "", "Northbound", "us-bl1-26-00005", "10.00"),
      digital("DK-1", "2026-07", "Spotify", "", "Northbound", "USBL12600005", "10.00"),
      // Late Trains: Mia 50, Paul 30, Nina 20 pending (held).
      digital("DK-1", "2026-07-01", "Apple Music", "", "Late Trains", "USBL1-26-00001", "10.00"),
      // The Late Trains EP by UPC only (leading zeros): spread over its 4 tracks.
      digital("DK-1", "2026-07", "iTunes", "0196589000019", "", "", "4.00"),
      // Unknown code: suspense.
      digital("DK-1", "2026-07", "Deezer", "", "Someone else", "GBXXX2600001", "3.00"),
      // A refund, and an 8-decimal amount (rounded half-to-even once).
      digital("DK-1", "2026-07", "Spotify", "", "Northbound", "USBL12600005", "-1.00"),
      digital("DK-1", "2026-07", "Tidal", "", "Early Mornings", "USBL12600002", "0.12345650"),
      // A foreign line with its own rate.
      digital("DK-1", "2026-07", "Spotify", "", "Platform Nine", "USBL12600003", "5.00", "EUR", "1.10"),
    ]);
    expect(salesImportJson(done)).toEqual({
      id: done.id,
      kind: "digital",
      status: "completed",
      lines: 8,
      matched: 7,
      unmatched: 1,
      total: "41.623456",
      suspense: "3.000000",
      error: null,
    });
    await expectInvariant(done.id);

    // Northbound June 10 -> commission 1, Mia 9; July 10 -> Mia 6.30, Paul 2.70; refund -1 -> Mia -0.63, Paul -0.27.
    // Late Trains 10 -> Mia 4.50, Paul 2.70, Nina 1.80 held. EP 4.00 -> commission 0.40, 0.90 per track:
    // Late Trains (Mia 0.45, Paul 0.27, Nina 0.18 held), Early Mornings, Platform Nine, Nashville Rain (Mia 0.90 each).
    // Early Mornings 0.123456 (0.12345650 half-even) -> commission 0.012346, Mia 0.111110.
    // Platform Nine 5 EUR x 1.10 = 5.50 -> commission 0.55, Mia 4.95.
    const miaGot = (await balance("earnings", { userId: mia.id })) - before.mia;
    const paulGot = (await balance("earnings", { userId: paul.id })) - before.paul;
    expect(miaGot).toBe(9_000_000n + 6_300_000n - 630_000n + 4_500_000n + 450_000n + 3n * 900_000n + 111_110n + 4_950_000n);
    expect(paulGot).toBe(2_700_000n - 270_000n + 2_700_000n + 270_000n);
    const [nina] = await db().select().from(splitParties).where(eq(splitParties.email, "nina@example.com"));
    expect(await balance("held", { partyId: nina!.id })).toBe(1_800_000n + 180_000n);
    expect(await balance("suspense")).toBe(3_000_000n);
    const lines = await db().select().from(statementLines).where(eq(statementLines.importId, done.id)).orderBy(statementLines.lineNo);
    expect(lines.map((l) => l.matchedBy)).toEqual(["isrc", "isrc", "isrc", "upc", null, "isrc", "isrc", "isrc"]);
    expect(lines[7]).toMatchObject({ originalAmountMicros: 5_000_000n, originalCurrency: "EUR", exchangeRate: "1.10", amountMicros: 5_500_000n });
  });

  it("refuses the same file and the same statement again, naming the earlier import, and changes nothing", async () => {
    const first = await importNow("digital", [DIGITAL_HEADER, digital("DK-2", "2026-08", "Spotify", "", "Northbound", "USBL12600005", "1.00")]);
    const counted = async () =>
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(postings)
      )[0]!.n;
    const postingsBefore = await counted();
    await expect(upload("digital", [DIGITAL_HEADER, digital("DK-2", "2026-08", "Spotify", "", "Northbound", "USBL12600005", "1.00")])).rejects.toThrow(
      new RegExp(`imported already: import #${first.id}`),
    );
    await expect(upload("digital", [DIGITAL_HEADER, digital("DK-2", "2026-08", "Tidal", "", "Northbound", "USBL12600005", "2.00")])).rejects.toThrow(
      /Statement “DK-2” was imported already/,
    );
    expect(await counted()).toBe(postingsBefore);
    // Running a completed import again does nothing.
    expect(await runSalesImport(first.id)).toBeNull();
    expect(await counted()).toBe(postingsBefore);
  });

  it("refuses an unknown header, a malformed line and a foreign line without a rate, with the reason and the field", async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error as SalesImportRefusal,
      );
    const unknown = await refusal(upload("digital", ["title,money", "a,1"]));
    expect(unknown).toBeInstanceOf(SalesImportRefusal);
    expect(unknown!.message).toMatch(/Backline CSV, DistroKid TSV, TuneCore CSV, CD Baby CSV/);
    const malformed = await refusal(upload("digital", [DIGITAL_HEADER, digital("DK-3", "2026-08", "Spotify", "", "Northbound", "USBL12600005", "ten")]));
    expect(malformed!.message).toMatch(/^Line 2/);
    const noRate = await refusal(upload("digital", [DIGITAL_HEADER, digital("DK-4", "2026-08", "Spotify", "", "Northbound", "USBL12600005", "1.00", "EUR")]));
    expect([noRate!.field, noRate!.message]).toEqual(["exchange_rate", expect.stringMatching(/in EUR and carries no exchange rate/)]);
    // With the rate entered at upload, the same file goes in.
    const withRate = await importNow(
      "digital",
      [DIGITAL_HEADER, digital("DK-4", "2026-08", "Spotify", "", "Northbound", "USBL12600005", "1.00", "EUR")],
      "1.2",
    );
    expect(salesImportJson(withRate).total).toBe("1.200000");
    expect(await db().select().from(salesImports).where(eq(salesImports.statementId, "DK-3"))).toEqual([]);
  });
});

describe("held shares", () => {
  it("move to the invitee when she accepts, keeping their lines", async () => {
    const [party] = await db().select().from(splitParties).where(eq(splitParties.email, "nina@example.com"));
    const held = await balance("held", { partyId: party!.id });
    expect(held).toBeGreaterThan(0n);
    const nina = await createUser({ email: "nina@example.com", emailVerifiedAt: new Date() });
    await answerSplit(nina, party!.id, "accepted", { ip: "203.0.113.9", userAgent: "vitest" });
    expect(await balance("held", { partyId: party!.id })).toBe(0n);
    expect(await balance("earnings", { userId: nina.id })).toBe(held);
    // Every posting of the move points at a statement line.
    const moved = await db()
      .select({ lineId: postings.statementLineId })
      .from(postings)
      .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
      .where(eq(journalEntries.kind, "held_release"));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((p) => p.lineId !== null)).toBe(true);
    // Later sales pay her directly.
    await importNow("digital", [DIGITAL_HEADER, digital("DK-5", "2026-09", "Spotify", "", "Late Trains", "USBL12600001", "10.00")]);
    expect(await balance("earnings", { userId: nina.id })).toBe(held + 1_800_000n);
  });
});

describe("a PRO statement", () => {
  it("pays the member matched by IPI in full (no commission), and holds an unknown IPI in suspense", async () => {
    const before = await balance("earnings", { userId: mia.id });
    const suspenseBefore = await balance("suspense");
    const done = await importNow("pro", [
      PRO_HEADER,
      "BMI-1,2026-09-30,Mia Member,523419871,Writer,Late Trains,T-345.246.800-3,Radio,US,2026-04-01,2026-06-30,100,50,12.34567891,USD,,",
      "BMI-1,2026-09-30,Mia Member,00523419871,Writer,early mornings,,Radio,US,2026-04-01,2026-06-30,10,100,1.00,USD,,",
      "BMI-1,2026-09-30,Someone,00999999999,Writer,Other,,Radio,US,2026-04-01,2026-06-30,10,100,2.00,USD,,",
    ]);
    await expectInvariant(done.id);
    expect(await balance("earnings", { userId: mia.id })).toBe(before + 12_345_679n + 1_000_000n);
    expect(await balance("suspense")).toBe(suspenseBefore + 2_000_000n);
    const lines = await db().select().from(statementLines).where(eq(statementLines.importId, done.id)).orderBy(statementLines.lineNo);
    expect(lines.map((l) => [l.matchedBy, l.memberId])).toEqual([
      ["ipi-iswc", mia.id],
      ["ipi-title", mia.id],
      [null, null],
    ]);
  });
});

describe("the unmatched queue", () => {
  it("moves a matched line out of suspense to its owners, remembers its code, and later statements match by it", async () => {
    const [line] = await db().select().from(statementLines).where(eq(statementLines.isrc, "GBXXX2600001"));
    expect(line!.matchedBy).toBeNull();
    const platformNine = await db().query.songs.findFirst({ where: (s, { eq }) => eq(s.isrc, "USBL12600003") });
    const suspenseBefore = await balance("suspense");
    const miaBefore = await balance("earnings", { userId: mia.id });
    const [importBefore] = await db().select().from(salesImports).where(eq(salesImports.id, line!.importId));
    await expect(matchSuspenseLine(admin.id, line!.id, { memberId: mia.id })).rejects.toThrow(/matched to a song or a release/);
    expect(await matchSuspenseLine(admin.id, line!.id, { songId: platformNine!.id })).toEqual({ matched: 1 });
    expect(await balance("suspense")).toBe(suspenseBefore - 3_000_000n);
    expect(await balance("earnings", { userId: mia.id })).toBe(miaBefore + 2_700_000n);
    const [importAfter] = await db().select().from(salesImports).where(eq(salesImports.id, line!.importId));
    expect([importAfter!.matched, importAfter!.unmatched, importAfter!.suspenseMicros]).toEqual([
      importBefore!.matched + 1,
      importBefore!.unmatched - 1,
      importBefore!.suspenseMicros - 3_000_000n,
    ]);
    await expectInvariant(line!.importId);
    await expect(matchSuspenseLine(admin.id, line!.id, { songId: platformNine!.id })).rejects.toThrow(/matched already/);
    // The next statement with that code matches by the alias.
    const next = await importNow("digital", [DIGITAL_HEADER, digital("DK-6", "2026-09", "Deezer", "", "Someone else", "GB-XXX-26-00001", "1.00")]);
    expect([next.matched, next.unmatched]).toEqual([1, 0]);
    const [aliased] = await db().select().from(statementLines).where(eq(statementLines.importId, next.id));
    expect([aliased!.matchedBy, aliased!.songId]).toEqual(["alias", platformNine!.id]);
  });
});

describe("the job", () => {
  it("runs a submitted import from the durable queue", async () => {
    const created = await submitSalesImport(
      await statementUpload("digital", [DIGITAL_HEADER, digital("DK-7", "2026-10", "Spotify", "", "Northbound", "USBL12600005", "2.00")], admin.id),
    );
    expect(created.status).toBe("queued");
    await runQueuedJobsNow(SALES_IMPORT_JOB);
    const [row] = await db().select().from(salesImports).where(eq(salesImports.id, created.id));
    expect([row!.status, row!.lines, row!.totalMicros]).toEqual(["completed", 1, 2_000_000n]);
    await expectInvariant(created.id);
  });
});

describe("posting_summaries", () => {
  it("equal the sums over the postings, per summary key, exactly, after imports, a held release and a suspense match", async () => {
    const keyOrder = sql.raw("account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title");
    const cells = sql.raw(
      "account_id, source, import_id, month::text as month, store, territory, song_id, release_id, release_title, track_title, amount_micros::text as amount, postings, lines, track_lines",
    );
    const summaries = await db().execute(sql`select ${cells} from posting_summaries where postings <> 0 order by ${keyOrder}`);
    const fromPostings = await db().execute(sql`select ${cells} from (${summaryRowsOf(sql`true`)}) x order by ${keyOrder}`);
    const rows = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows;
    expect(rows(summaries).length).toBeGreaterThan(0);
    expect(rows(summaries)).toEqual(rows(fromPostings));
    // The bulk form (a window instead of a look-up per posting, for copies onto new lines) gives the same rows.
    const windowed = await db().execute(sql`select ${cells} from (${summaryRowsOf(sql`true`, 1, true)}) x order by ${keyOrder}`);
    expect(rows(windowed)).toEqual(rows(fromPostings));
    // Every posting is in them, and the moves (held release, suspense match) are among them.
    const [{ n }] = rows(
      await db().execute(sql`select (select count(*) from postings)::int - (select coalesce(sum(postings), 0) from posting_summaries)::int as n`),
    ) as [{ n: number }];
    expect(n).toBe(0);
    const moved = rows(await db().execute(sql`select distinct je.kind from postings p join journal_entries je on je.id = p.entry_id`)).map((r) => r.kind);
    expect(moved).toEqual(expect.arrayContaining(["statement_import", "held_release", "suspense_match"]));

    // posting_rollups (kept by triggers) equal posting_summaries summed three ways: without store and territory,
    // and per store / territory of statement lines, per month and artist page.
    const measures = sql.raw(
      "sum(ps.amount_micros)::text as amount, sum(ps.postings)::int as postings, sum(ps.lines)::int as lines, sum(ps.track_lines)::int as track_lines",
    );
    const artist = sql.raw("coalesce((select s.artist_id from songs s where s.id = ps.song_id), 0)");
    const expected = [
      ...rows(
        await db()
          .execute(sql`select ps.account_id, ps.source, '' as dim, '' as dim_value, ps.import_id, ps.month::text as month, ps.song_id, ${artist} as artist_id,
          ps.release_id, ps.release_title, ps.track_title, ${measures}
        from posting_summaries ps group by 1, 2, 5, 6, 7, 8, 9, 10, 11 having sum(ps.postings) <> 0`),
      ),
      ...rows(
        await db()
          .execute(sql`select ps.account_id, ps.source, 'store' as dim, ps.store as dim_value, 0 as import_id, ps.month::text as month, 0 as song_id, ${artist} as artist_id,
          0 as release_id, '' as release_title, '' as track_title, ${measures}
        from posting_summaries ps where ps.import_id <> 0 group by 1, 2, 4, 6, 8 having sum(ps.postings) <> 0`),
      ),
      ...rows(
        await db()
          .execute(sql`select ps.account_id, ps.source, 'territory' as dim, ps.territory as dim_value, 0 as import_id, ps.month::text as month, 0 as song_id, ${artist} as artist_id,
          0 as release_id, '' as release_title, '' as track_title, ${measures}
        from posting_summaries ps where ps.import_id <> 0 group by 1, 2, 4, 6, 8 having sum(ps.postings) <> 0`),
      ),
    ];
    const rollups = rows(
      await db()
        .execute(sql`select account_id, source, dim, dim_value, import_id, month::text as month, song_id, artist_id, release_id, release_title, track_title,
        amount_micros::text as amount, postings, lines, track_lines from posting_rollups`),
    );
    const order = (list: Array<Record<string, unknown>>) => list.map((r) => JSON.stringify(r)).sort();
    expect(rollups.length).toBeGreaterThan(0);
    expect(order(rollups)).toEqual(order(expected));
  });
});
