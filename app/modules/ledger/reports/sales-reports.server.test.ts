import { and, eq, isNotNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { ledgerAccounts, postings, profiles, statementLines, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createUser } from "../../../../tests/helpers/factories";
import { DIGITAL_HEADER, PRO_HEADER, LICENSE_HEADER, importStatement } from "../../../../tests/helpers/statements";
import { useTestDatabase } from "../../../../tests/helpers/database";
import type { StatementKind } from "../imports/parse-statement";
import {
  iterateSalesLines,
  LINES_PAGE_SIZE,
  parseSalesQuery,
  SALES_GROUPS,
  salesBreakdown,
  salesLinesPage,
  salesTotals,
  sumMicros,
  type SalesFilters,
  type SalesKind,
  type SalesScope,
} from "./sales-reports.server";

useTestDatabase();

let admin: User;
let mia: User;
let paul: User;
let owlsId: number;

function digital(statementId: string, period: string, store: string, country: string, upc: string, title: string, isrc: string, net: string) {
  return `${statementId},2026-08-15,${period},${period},${store},,stream,track,${country},Midnight Owls,,${upc},${title},${isrc},10,0.1,USD,${net},${net},USD,`;
}

async function importNow(kind: StatementKind, lines: string[]) {
  return importStatement(kind, lines, admin.id);
}

/** The member's earnings postings of one source, straight from the ledger. */
async function earned(userId: number, source: SalesKind) {
  const [row] = await db()
    .select({ sum: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text` })
    .from(postings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(and(eq(ledgerAccounts.kind, "earnings"), eq(ledgerAccounts.userId, userId), eq(postings.source, source), isNotNull(postings.statementLineId)));
  return row!.sum;
}

const noFilters: SalesFilters = { from: null, to: null, store: null, country: null };
const member = (user: User): SalesScope => ({ type: "member", memberId: user.id });
const adminScope: SalesScope = { type: "admin" };

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  owlsId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
  await importNow("digital", [
    DIGITAL_HEADER,
    digital("R-1", "2026-06", "Spotify", "US", "", "Northbound", "USBL12600005", "10.00"),
    digital("R-1", "2026-07", "Spotify", "US", "", "Northbound", "USBL12600005", "10.00"),
    digital("R-1", "2026-07", "Apple Music", "GB", "", "Late Trains", "USBL1-26-00001", "10.00"),
    digital("R-1", "2026-07", "iTunes", "DE", "0196589000019", "", "", "4.00"),
    digital("R-1", "2026-07", "Deezer", "FR", "", "Someone else", "GBXXX2600001", "3.00"),
    digital("R-1", "2026-08", "Spotify", "US", "", "Northbound", "USBL12600005", "-1.00"),
    digital("R-1", "2026-08", "Tidal", "US", "", "Early Mornings", "USBL12600002", "0.12345650"),
    // 30 small lines so the lines table has more than one page.
    ...Array.from({ length: 30 }, (_, i) =>
      digital("R-1", "2026-08", "YouTube", "BR", "", "Platform Nine", "USBL12600003", `0.0${String(i).padStart(2, "0")}0017`),
    ),
  ]);
  await importNow("pro", [
    PRO_HEADER,
    "BMI-R,2026-09-30,Mia Member,523419871,Writer,Late Trains,T-345.246.800-3,Radio,US,2026-04-01,2026-06-30,100,50,12.34567891,USD,,",
    "BMI-R,2026-09-30,Mia Member,00523419871,Writer,A work not in the catalogue,,Radio,CA,2026-04-01,2026-06-30,10,100,1.00,USD,,",
    "BMI-R,2026-09-30,Someone,00999999999,Writer,Other,,Radio,US,2026-04-01,2026-06-30,10,100,2.00,USD,,",
  ]);
  await importNow("license", [LICENSE_HEADER, "L-1,LIC-9,Netflix,sync,US,2026-05-01,2027-04-30,Northbound,USBL12600005,500.00,USD,"]);
});

describe("member totals per artist", () => {
  it("agree with the member's earnings postings to the micro-unit, for every source", async () => {
    for (const user of [mia, paul]) {
      for (const kind of ["digital", "pro", "license"] as const) {
        const rows = await salesTotals(member(user), kind, noFilters);
        expect(sumMicros(rows.map((r) => r.amount)), `${user.email} ${kind}`).toBe(await earned(user.id, kind));
      }
    }
    const miaDigital = await salesTotals(member(mia), "digital", noFilters);
    expect(miaDigital.map((r) => [r.id, r.name])).toEqual([[owlsId, "Mia and the Midnight Owls"]]);
    // Mia's PRO money: Late Trains (her artist page) and a work outside the catalogue (artist 0).
    const miaPro = await salesTotals(member(mia), "pro", noFilters);
    expect(miaPro.map((r) => [r.id, r.amount]).sort()).toEqual(
      [
        [0, "1000000"],
        [owlsId, "12345679"],
      ].sort(),
    );
  });

  it("never show another member's money: Paul sees his share only, a newcomer nothing", async () => {
    const paulDigital = await salesTotals(member(paul), "digital", noFilters);
    // Northbound July 10 -> Paul 2.70, August refund -> -0.27; Late Trains 10 -> 2.70; EP 4 -> Late Trains track 0.27.
    expect(paulDigital).toEqual([
      { id: owlsId, name: "Mia and the Midnight Owls", lines: 4, amount: String(2_700_000 - 270_000 + 2_700_000 + 270_000), commission: "0" },
    ]);
    const newcomer = await createUser({ email: "nobody-sales@example.com" });
    expect(await salesTotals(member(newcomer), "digital", noFilters)).toEqual([]);
    const breakdown = await salesBreakdown(member(newcomer), "digital", owlsId, noFilters);
    expect(breakdown.total.amount).toBe("0");
    expect(await salesLinesPage(member(newcomer), "digital", owlsId, parseSalesQuery(new URLSearchParams()))).toEqual({ rows: [], total: 0 });
  });
});

describe("a detail page", () => {
  it("breaks the total down by period, store, country, release and track, each summing to it", async () => {
    const breakdown = await salesBreakdown(member(mia), "digital", owlsId, noFilters);
    expect(breakdown.total.amount).toBe(await earned(mia.id, "digital"));
    for (const group of SALES_GROUPS) expect(sumMicros(breakdown.groups[group].map((g) => g.amount)), group).toBe(breakdown.total.amount);
    expect(breakdown.groups.period.map((g) => g.key)).toEqual(["2026-06", "2026-07", "2026-08"]);
    expect(breakdown.groups.store.map((g) => g.key).sort()).toEqual(["Apple Music", "Spotify", "Tidal", "YouTube", "iTunes"].sort());
    expect(breakdown.groups.country.map((g) => g.key)).not.toContain("FR"); // the unmatched Deezer line is no one's
    // The EP line is spread over its four tracks: each track group carries a part of it.
    expect(breakdown.groups.track.map((g) => g.key).sort()).toEqual(["Early Mornings", "Late Trains", "Nashville Rain", "Northbound", "Platform Nine"]);
  });

  it("filters by period and store from the URL query", async () => {
    const query = parseSalesQuery(new URLSearchParams("from=2026-07&to=2026-07&store=Spotify&group=store&bogus=1"));
    expect(query).toMatchObject({ from: "2026-07", to: "2026-07", store: "Spotify", group: "store", key: null, page: 1 });
    const breakdown = await salesBreakdown(member(mia), "digital", owlsId, query);
    // July Northbound on Spotify: 10 less 10 % commission, 70 % to Mia.
    expect(breakdown.total).toEqual({ lines: 1, amount: "6300000", commission: "0" });
    expect(parseSalesQuery(new URLSearchParams("from=2026-13&group=nope&page=-2"))).toMatchObject({ from: null, group: "period", page: 1 });
    const june = await salesBreakdown(member(mia), "digital", owlsId, { ...noFilters, to: "2026-06" });
    expect(june.total.amount).toBe("9000000");
    const brazil = await salesBreakdown(member(mia), "digital", owlsId, { ...noFilters, country: "BR" });
    expect(brazil.total.lines).toBe(30);
  });

  it("drills down to the lines of a figure, page by page, and the export streams them all", async () => {
    const breakdown = await salesBreakdown(member(mia), "digital", owlsId, noFilters);
    const all = parseSalesQuery(new URLSearchParams());
    const first = await salesLinesPage(member(mia), "digital", owlsId, all);
    expect(first.rows).toHaveLength(LINES_PAGE_SIZE);
    const pages = Math.ceil(first.total / LINES_PAGE_SIZE);
    const rows = [...first.rows];
    for (let page = 2; page <= pages; page++) rows.push(...(await salesLinesPage(member(mia), "digital", owlsId, { ...all, page })).rows);
    expect(sumMicros(rows.map((r) => r.amount))).toBe(breakdown.total.amount);
    const streamed = [];
    for await (const row of iterateSalesLines(member(mia), "digital", owlsId, all, 7)) streamed.push(row);
    expect(streamed).toHaveLength(rows.length);
    expect(sumMicros(streamed.map((r) => r.amount))).toBe(breakdown.total.amount);

    // One store's figure drills down to that store's lines.
    const youtube = breakdown.groups.store.find((g) => g.key === "YouTube")!;
    const drilled = await salesLinesPage(member(mia), "digital", owlsId, { ...all, group: "store", key: "YouTube" });
    expect(drilled.total).toBe(30);
    const drilledAll = [];
    for await (const row of iterateSalesLines(member(mia), "digital", owlsId, { ...all, group: "store", key: "YouTube" })) drilledAll.push(row);
    expect(sumMicros(drilledAll.map((r) => r.amount))).toBe(youtube.amount);
    expect(drilledAll.every((r) => r.store === "YouTube" && r.country === "BR")).toBe(true);
  });
});

describe("admin figures", () => {
  it("show whole statement amounts per artist page with the commission, unmatched lines apart", async () => {
    const rows = await salesTotals(adminScope, "digital", noFilters);
    const [lines] = await db()
      .select({ sum: sql<string>`sum(${statementLines.amountMicros})::text` })
      .from(statementLines)
      .where(eq(statementLines.kind, "digital"));
    expect(sumMicros(rows.map((r) => r.amount))).toBe(lines!.sum);
    const owls = rows.find((r) => r.id === owlsId)!;
    const unmatched = rows.find((r) => r.id === 0)!;
    expect(unmatched).toMatchObject({ amount: "3000000", commission: "0", lines: 1 });
    const [commission] = await db()
      .select({ sum: sql<string>`sum(${postings.amountMicros})::text` })
      .from(postings)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
      .innerJoin(statementLines, eq(statementLines.id, postings.statementLineId))
      .where(and(eq(ledgerAccounts.kind, "commission"), eq(statementLines.kind, "digital")));
    expect(owls.commission).toBe(commission!.sum);
    const detail = await salesBreakdown(adminScope, "digital", owlsId, noFilters);
    expect(detail.total).toEqual({ lines: owls.lines, amount: owls.amount, commission: owls.commission });
  });

  it("list PRO money per member, unmatched lines as member 0", async () => {
    const rows = await salesTotals(adminScope, "pro", noFilters);
    expect(rows.map((r) => [r.id, r.name, r.amount])).toEqual([
      [mia.id, "Mia Member", "13345679"],
      [0, "", "2000000"],
    ]);
    const detail = await salesBreakdown(adminScope, "pro", mia.id, noFilters);
    expect(detail.groups.store).toEqual([{ key: "Radio", lines: 2, amount: "13345679", commission: "0" }]);
  });

  it("licence lines carry their commission", async () => {
    const rows = await salesTotals(adminScope, "license", noFilters);
    expect(rows).toEqual([{ id: owlsId, name: "Mia and the Midnight Owls", lines: 1, amount: "500000000", commission: "50000000" }]);
    expect(sumMicros((await salesTotals(member(mia), "license", noFilters)).map((r) => r.amount))).toBe(await earned(mia.id, "license"));
  });
});
