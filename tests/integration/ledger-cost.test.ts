import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { currentDatabase, db } from "~/db/client.server";
import { splitParties, statementLines, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { matchSuspenseLine, suspenseQueue } from "~/modules/ledger/imports/suspense-matching.server";
import { approveDelivery, fundProject, uploadDeliverable } from "~/modules/marketplace/projects.server";
import { declareTaxStatus, saveManualPayoutAccount } from "~/modules/payouts/payout-accounts.server";
import { approvePayoutRequest, cancelPayoutRequest, payManualPayoutRequest, requestPayout } from "~/modules/payouts/payouts.server";
import { answerSplit } from "~/modules/splits/splits.server";
import { useTestDatabase } from "../helpers/database";
import { createUser } from "../helpers/factories";
import { growImport } from "../helpers/large-ledger";
import { openProject } from "../helpers/marketplace";
import { captureStatements, explainGeneric, planText, type ExplainedStatement } from "../helpers/plans";
import { DIGITAL_HEADER, importStatement } from "../helpers/statements";

/**
 * docs/money.md "Cost does not grow with history": a money action reads indexes or running totals, never every
 * statement line or posting ever written. On a ledger of 200,000 statement lines (600,000 postings) with fresh
 * statistics, every statement each action sends is EXPLAINed as a generic plan (the plan a named prepared
 * statement settles on) and none may read statement_lines or postings whole; and each action runs a fixed,
 * small number of statements.
 */
useTestDatabase();

const LINES = 200_000;
const ARTISTS = 300;
const WATCHED = ["statement_lines", "postings"] as const;

let admin: User;
let mia: User;

const digital = (statementId: string, period: string, store: string, upc: string, title: string, isrc: string, net: string) =>
  `${statementId},2026-08-15,${period},${period},${store},,stream,track,US,Midnight Owls,,${upc},${title},${isrc},10,0.1,USD,${net},${net},USD,`;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  await saveManualPayoutAccount(mia, mia.id, {
    country: "US",
    accountHolder: "Mia Member",
    bankName: "First Bank",
    accountNumber: "000111224242",
    routingCode: "021000021",
  });
  await declareTaxStatus(mia, mia.id, { form: "w9", legalName: "Mia Member", country: "US", tin: "123-45-6789" });
  // The history: a label's, 300 artists with a song each (a generic plan estimates a lookup by account as the
  // table's rows over its distinct accounts: a ledger of three members would make each look like a third of it),
  // plus Mia's songs and unknown codes, in one statement grown to LINES lines.
  await db().execute(sql`
    with made as (
      insert into users (name, last_name, email, password_hash, email_verified_at, activated_at)
      select 'Artist', 'No ' || n, 'cost-artist-' || n || '@example.test', u.password_hash, now(), now()
      from generate_series(1, ${ARTISTS}) n cross join (select password_hash from users where email = 'member@example.com') u
      returning id, email
    ), pages as (
      insert into profiles (type, owner_id, name, username)
      select 'artist', m.id, 'Cost Artist ' || m.id, 'cost-artist-' || m.id from made m
      returning id, owner_id
    )
    insert into songs (artist_id, title, isrc)
    select p.id, 'Cost Song ' || p.owner_id, 'USCST' || lpad(row_number() over (order by p.id)::text, 7, '0') from pages p`);
  const template = [DIGITAL_HEADER];
  for (let i = 0; i < 1000; i++) {
    const [title, isrc] =
      i % 10 === 9
        ? ["Not Ours", `GBXXX26${String(i).padStart(5, "0")}`]
        : i % 10 === 8
          ? [
              ["Northbound", "USBL12600005"],
              ["Early Mornings", "USBL12600002"],
              ["Platform Nine", "USBL12600003"],
            ][i % 3]!
          : [`Cost Song ${i}`, `USCST${String((i % ARTISTS) + 1).padStart(7, "0")}`];
    template.push(digital("COST-1", i % 2 ? "2026-07" : "2026-06", `Store ${i % 7}`, "", title, isrc, `${(i % 13) + 1}.${String(i % 100).padStart(2, "0")}`));
  }
  const history = await importStatement("digital", template, admin.id);
  await growImport(history.id, LINES);
  // This month's statement: a held share (Nina, pending, on Late Trains), an EP by UPC, one unknown code.
  await importStatement(
    "digital",
    [
      DIGITAL_HEADER,
      digital("COST-2", "2026-09", "Spotify", "", "Late Trains", "USBL12600001", "10.00"),
      digital("COST-2", "2026-09", "iTunes", "196589000019", "", "", "4.00"),
      digital("COST-2", "2026-09", "Deezer", "", "Someone", "GBONE2600001", "3.00"),
    ],
    admin.id,
  );
  // Fresh statistics, as autovacuum keeps them on a live database.
  await db().execute(sql`analyze`);
}, 300_000);

const suspenseCount = async (code: string) =>
  (
    (await db().execute(sql`select count(*)::int as n from statement_lines where isrc = ${code} and matched_by is null`)) as unknown as {
      rows: Array<{ n: number }>;
    }
  ).rows;

/** Runs an action, EXPLAINs what it sent, and fails on any full scan of the watched tables. */
async function measured<T>(name: string, action: () => Promise<T>, maxStatements: number): Promise<{ result: T; statements: ExplainedStatement[] }> {
  const started = performance.now();
  const { result, statements } = await captureStatements(action);
  const ms = performance.now() - started;
  const explained = await explainGeneric(currentDatabase()!.url, statements, WATCHED);
  const scans = explained.filter((s) => s.fullScans.length > 0);
  expect(
    scans.map((s) => `${s.fullScans.join(", ")}\n${s.text}\n${planText(s.plan)}`),
    `${name}: statements that read a table whole`,
  ).toEqual([]);
  expect(explained.length, `${name}: statements sent\n${explained.map((s) => s.text.replace(/\s+/g, " ").slice(0, 160)).join("\n")}`).toBeLessThanOrEqual(
    maxStatements,
  );
  // The time is printed for the notes, never asserted (budgets live in `npm run bench`).
  console.log(`[ledger cost] ${name}: ${explained.length} statements, no full scan of ${WATCHED.join(" or ")} (${ms.toFixed(0)} ms here)`);
  const slowest = [...statements].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, 3);
  if (ms > 1000) console.log(slowest.map((s) => `  ${(s.ms ?? 0).toFixed(0)} ms: ${s.text.replace(/\s+/g, " ").slice(0, 140)}`).join("\n"));
  return { result, statements: explained };
}

describe(`money actions on a ledger of ${LINES.toLocaleString("en-US")} statement lines`, () => {
  it("has the size it claims", async () => {
    const result = await db().execute(sql`select (select count(*) from statement_lines)::int as lines, (select count(*) from postings)::int as postings`);
    const { lines, postings } = (result as unknown as { rows: Array<{ lines: number; postings: number }> }).rows[0]!;
    expect(lines).toBeGreaterThanOrEqual(LINES);
    expect(postings).toBeGreaterThanOrEqual(LINES * 2);
    // Sizes on disk, tables with their indexes, for docs/beyond-one-machine.md (printed, not asserted).
    const sizes = await db().execute(sql`select relname as name, pg_total_relation_size(oid)::bigint::text as bytes from pg_class
      where relname in ('statement_lines', 'postings', 'posting_summaries', 'posting_rollups') order by relname`);
    console.log(
      `[ledger cost] ${lines} lines, ${postings} postings; ${(sizes as unknown as { rows: Array<{ name: string; bytes: string }> }).rows.map((r) => `${r.name} ${(Number(r.bytes) / 1048576).toFixed(1)} MB`).join(", ")}`,
    );
  });

  it("payout request, cancel, approve and pay", async () => {
    const { result: first } = await measured("payout request", () => requestPayout(mia, mia.id, "10.00"), 11);
    await measured("payout cancel", () => cancelPayoutRequest(mia, first.id), 9);
    const second = await requestPayout(mia, mia.id, "12.00");
    await measured("payout approve", () => approvePayoutRequest(admin, second.id), 4);
    const { result: paid } = await measured("payout pay", () => payManualPayoutRequest(admin, second.id, "TRANSFER-0001"), 11);
    expect(paid.status).toBe("paid");
  });

  it("the suspense queue across imports reads the lines in suspense only", async () => {
    const { result } = await measured("suspense queue page", () => suspenseQueue(1), 1);
    expect(result.total).toBeGreaterThan(0);
    expect(result.rows[0]!.lines).toBeGreaterThan(1);
  });

  it("suspense match of a line", async () => {
    const [line] = await db().select().from(statementLines).where(eq(statementLines.isrc, "GBONE2600001"));
    const platformNine = await db().query.songs.findFirst({ where: (s, { eq }) => eq(s.isrc, "USBL12600003") });
    const { result } = await measured("suspense match", () => matchSuspenseLine(admin.id, line!.id, { songId: platformNine!.id }), 22);
    expect(result).toEqual({ matched: 1 });
  });

  it("suspense match of a code: every line with it, across the history, in the same statements", async () => {
    const code = "GBXXX2600009";
    const [{ n: before }] = await suspenseCount(code);
    expect(before).toBeGreaterThan(100);
    const [line] = await db().select().from(statementLines).where(eq(statementLines.isrc, code)).limit(1);
    const northbound = await db().query.songs.findFirst({ where: (s, { eq }) => eq(s.isrc, "USBL12600005") });
    const { result } = await measured(`suspense match of ${before} lines`, () => matchSuspenseLine(admin.id, line!.id, { songId: northbound!.id }), 22);
    expect(result).toEqual({ matched: before });
    expect((await suspenseCount(code))[0]!.n).toBe(0);
    // To a release: the lines' summaries move to the release's key, in the same few statements.
    const epId = ((await db().execute(sql`select id from releases where upc = '196589000019'`)) as unknown as { rows: Array<{ id: number }> }).rows[0]!.id;
    const [other] = await db().select().from(statementLines).where(eq(statementLines.isrc, "GBXXX2600019")).limit(1);
    const { result: toRelease } = await measured(
      "suspense match of a code to a release",
      () => matchSuspenseLine(admin.id, other!.id, { releaseId: epId }),
      25,
    );
    expect(toRelease.matched).toBeGreaterThan(100);
    expect((await suspenseCount("GBXXX2600019"))[0]!.n).toBe(0);
    // Suspense holds exactly the lines still in it, and every entry balances.
    const checked = await db().execute(sql`
      select (select coalesce(sum(p.amount_micros), 0) from postings p join ledger_accounts a on a.id = p.account_id and a.kind = 'suspense')::text as suspense,
        (select coalesce(sum(amount_micros), 0) from statement_lines where matched_by is null)::text as unmatched,
        (select count(*) from (select entry_id from postings group by entry_id having sum(amount_micros) <> 0) x)::int as unbalanced`);
    const check = (checked as unknown as { rows: Array<{ suspense: string; unmatched: string; unbalanced: number }> }).rows[0];
    expect(check).toEqual({ suspense: check!.unmatched, unmatched: check!.unmatched, unbalanced: 0 });
  });

  it("suspense match of a code with 40,000 lines: all of them, in the same statements", async () => {
    const code = "GBBIG2640000";
    const big = await importStatement(
      "digital",
      [
        DIGITAL_HEADER,
        ...Array.from({ length: 8 }, (_, i) => digital("COST-BIG", "2026-07", `Store ${i}`, "", "Big Unknown", code, `0.${String(i + 1).padStart(2, "0")}`)),
      ],
      admin.id,
    );
    await growImport(big.id, 40_000);
    await db().execute(sql`analyze statement_lines`);
    expect((await suspenseCount(code))[0]!.n).toBe(40_000);
    const [line] = await db().select().from(statementLines).where(eq(statementLines.isrc, code)).limit(1);
    const earlyMornings = await db().query.songs.findFirst({ where: (s, { eq }) => eq(s.isrc, "USBL12600002") });
    const { result } = await measured("suspense match of 40,000 lines", () => matchSuspenseLine(admin.id, line!.id, { songId: earlyMornings!.id }), 25);
    expect(result).toEqual({ matched: 40_000 });
    expect((await suspenseCount(code))[0]!.n).toBe(0);
    const figures = await db().execute(sql`select matched, unmatched, suspense_micros::text as suspense from sales_imports where id = ${big.id}`);
    expect((figures as unknown as { rows: unknown[] }).rows[0]).toEqual({ matched: 40_000, unmatched: 0, suspense: "0" });
  }, 120_000);

  it("held share released when the invitee accepts", async () => {
    const [party] = await db().select().from(splitParties).where(eq(splitParties.email, "nina@example.com"));
    const nina = await createUser({ email: "nina@example.com", emailVerifiedAt: new Date() });
    await measured("held release", () => answerSplit(nina, party!.id, "accepted", { ip: "203.0.113.9", userAgent: "vitest" }), 14);
  });

  it("escrow funded and released", async () => {
    const client = await createUser({ name: "Cleo", lastName: "Client" });
    const provider = await createUser({ name: "Pete", lastName: "Provider" });
    const { project } = await openProject(client, provider);
    await measured("escrow fund", () => fundProject(admin, project.id, "wire 0001"), 9);
    await uploadDeliverable(provider, project.id, { filePath: "deliverables/mix-v1.wav", fileName: "mix-v1.wav", bytes: 12_345_678, mime: "audio/wav" });
    await measured("escrow release", () => approveDelivery(client, project.id), 8);
  });
});
