import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, type Db } from "~/db/client.server";
import { affiliateClicks, affiliateReferrals, affiliates, songs, statementLines, users, type Affiliate, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail, registerMember } from "~/modules/accounts/accounts.server";
import { loadDashboardProfiles } from "~/modules/members/member-area.server";
import { matchSuspenseLine } from "~/modules/ledger/imports/suspense-matching.server";
import { memberIncome } from "~/modules/ledger/reports/income.server";
import { availableCents, earningsBalanceMicros } from "~/modules/payouts/payouts.server";
import { summaryRowsOf } from "~/modules/ledger/summaries.server";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { DIGITAL_HEADER, importStatement } from "../../../tests/helpers/statements";
import {
  AffiliateError,
  affiliateFigures,
  affiliateOfUser,
  applyAsAffiliate,
  approveAffiliate,
  commissionLines,
  rejectAffiliate,
  setAffiliateRate,
  suspendAffiliate,
} from "./affiliates.server";
import { affiliateCommissionMicros, halfEvenDivBig } from "./commissions.server";
import { bindReferral, readRefTouch, REF_COOKIE_DAYS, trackReferral, validTouch } from "./referrals.server";

useTestDatabase();

const DAY = 24 * 60 * 60 * 1000;
let admin: User;
let mia: User;
let paul: User;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
});

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function approvedAffiliate(owner?: User, bps = 2000): Promise<Affiliate> {
  const user = owner ?? (await createUser({ email: uniqueEmail("affiliate") }));
  const applied = await applyAsAffiliate(user.id, { audience: "A music blog with 20,000 readers", payoutMethod: "manual" });
  await setAffiliateRate(admin.id, applied.id, bps);
  return approveAffiliate(admin.id, applied.id);
}

/** Refers `user` to `affiliate` as if they had signed up `monthsAgo` months ago (the window's start). */
async function refer(user: User, affiliate: Affiliate, monthsAgo = 0) {
  await db().delete(affiliateReferrals).where(eq(affiliateReferrals.userId, user.id));
  await db().execute(sql`insert into affiliate_referrals (user_id, affiliate_id, first_touch_at, created_at)
    values (${user.id}, ${affiliate.id}, now(), now() - make_interval(months => ${monthsAgo}))`);
}

function digital(statementId: string, period: string, title: string, isrc: string, net: string) {
  return `${statementId},2026-08-15,${period},${period},Spotify,,stream,track,US,Midnight Owls,,,${title},${isrc},10,0.1,USD,${net},${net},USD,`;
}

let statementNo = 0;
async function importLines(lines: string[]) {
  statementNo += 1;
  return importStatement("digital", [DIGITAL_HEADER, ...lines.map((l) => l.replace(/^STMT/, `AFF-${statementNo}`))], admin.id);
}

/** Every entry of the ledger sums to zero, and the affiliate entries' postings pair up per line. */
async function expectLedgerBalanced() {
  const unbalanced = rowsOf<{ n: number }>(
    await db().execute(sql`select count(*)::int as n from (select entry_id from postings group by entry_id having sum(amount_micros) <> 0) x`),
  );
  expect(unbalanced[0]!.n).toBe(0);
}

/** What the import's entries share out (everything but receipts) equals its lines' total: the import's invariant, affiliate entry included. */
async function expectImportInvariant(importId: number) {
  const [row] = rowsOf<{ lines: string; shared: string; all: string }>(
    await db().execute(sql`select
      (select coalesce(sum(amount_micros), 0)::text from statement_lines where import_id = ${importId}) as lines,
      (select coalesce(sum(p.amount_micros) filter (where a.kind <> 'receipts'), 0)::text from postings p join journal_entries je on je.id = p.entry_id join ledger_accounts a on a.id = p.account_id where je.import_id = ${importId}) as shared,
      (select coalesce(sum(p.amount_micros), 0)::text from postings p join journal_entries je on je.id = p.entry_id where je.import_id = ${importId}) as "all"`),
  );
  expect(row!.all).toBe("0");
  expect(row!.shared).toBe(row!.lines);
}

async function affiliateEarned(owner: number) {
  const [row] = rowsOf<{ sum: string }>(
    await db().execute(sql`select coalesce(sum(p.amount_micros), 0)::text as sum from postings p join ledger_accounts a on a.id = p.account_id
      where a.kind = 'earnings' and a.user_id = ${owner} and p.source = 'affiliate'`),
  );
  return BigInt(row!.sum);
}

describe("commission arithmetic", () => {
  it("rounds half to even in micro-units, with the sign of the line", () => {
    expect(halfEvenDivBig(15n, 10n)).toBe(2n);
    expect(halfEvenDivBig(25n, 10n)).toBe(2n);
    expect(halfEvenDivBig(-15n, 10n)).toBe(-2n);
    expect(halfEvenDivBig(-25n, 10n)).toBe(-2n);
    expect(halfEvenDivBig(26n, 10n)).toBe(3n);
    expect(halfEvenDivBig(24n, -10n)).toBe(-2n);
    // 1.00 of commission, all of the net the member's, at 20 %: 0.20.
    expect(affiliateCommissionMicros(1_000_000n, 9_000_000n, 9_000_000n, 2000)).toBe(200_000n);
    // 70 % of the net: 70 % of the commission, at 20 %: 0.14.
    expect(affiliateCommissionMicros(1_000_000n, 6_300_000n, 9_000_000n, 2000)).toBe(140_000n);
    expect(affiliateCommissionMicros(25n, 225n, 225n, 600)).toBe(2n); // 1.5 -> 2
    expect(affiliateCommissionMicros(75n, 675n, 675n, 600)).toBe(4n); // 4.5 -> 4
    expect(affiliateCommissionMicros(-25n, -225n, -225n, 600)).toBe(-2n);
    expect(affiliateCommissionMicros(100n, 0n, 0n, 600)).toBe(0n);
  });
});

describe("commissions posted by an import", () => {
  it("pays the affiliate its rate of the commission on the referred member's part of each line, as its own balanced entry traced to the commission posting", async () => {
    const affiliate = await approvedAffiliate(undefined, 2000);
    await refer(mia, affiliate);
    const done = await importLines([
      // Northbound June: Mia 100 % (commission 1.00 -> 0.20). July: Mia 70 %, Paul 30 % (Mia's part 0.70 -> 0.14).
      digital("STMT", "2026-06", "Northbound", "USBL12600005", "10.00"),
      digital("STMT", "2026-07", "Northbound", "USBL12600005", "10.00"),
      // A refund takes back its part: commission -0.10 -> -0.02.
      digital("STMT", "2026-06", "Northbound", "USBL12600005", "-1.00"),
      // Unmatched: suspense, no commission yet.
      digital("STMT", "2026-07", "Somebody else", "GBXXX2699999", "3.00"),
    ]);
    expect(await affiliateEarned(affiliate.userId)).toBe(320_000n);
    await expectImportInvariant(done.id);
    await expectLedgerBalanced();

    const traced = await commissionLines(affiliate.id, 1);
    expect(traced.total).toBe(3);
    expect(traced.rows.map((r) => r.amountMicros).sort()).toEqual([-20_000n, 140_000n, 200_000n].sort());
    expect(traced.rows.every((r) => r.referred.id === mia.id && r.importId === done.id && r.commissionBps === 2000)).toBe(true);
    // Each trace names the platform commission posting it was computed from, on the same line, in the import's entry.
    const links = rowsOf<{ ok: boolean }>(
      await db()
        .execute(sql`select bool_and(src.statement_line_id = c.statement_line_id and a.kind = 'commission' and je.kind = 'statement_import' and je.import_id = ${done.id}) as ok
        from affiliate_commissions c join postings src on src.id = c.source_posting_id join ledger_accounts a on a.id = src.account_id
        join journal_entries je on je.id = src.entry_id where c.affiliate_id = ${affiliate.id}`),
    );
    expect(links[0]!.ok).toBe(true);

    // The affiliate's income shows it as "affiliate", and the dashboard figures agree with the ledger.
    const income = (await memberIncome(affiliate.userId))!;
    expect(income.bySource.affiliate).toBe(320_000n);
    // It is part of what the payout flow can pay: the earnings balance, in whole cents.
    expect(await earningsBalanceMicros(affiliate.userId)).toBe(320_000n);
    expect(await availableCents(affiliate.userId)).toBe(32n);
    expect(income.availableCents).toBe(32n);
    const figures = await affiliateFigures(affiliate);
    expect(figures.earnedMicros).toBe(320_000n);
    expect(figures.signUps).toBe(1);
    expect(figures.activeReferrals).toBe(1);

    // A line matched out of suspense later pays its commission too, in the matching's transaction.
    const [line] = await db()
      .select()
      .from(statementLines)
      .where(and(eq(statementLines.importId, done.id), eq(statementLines.isrc, "GBXXX2699999")));
    const [song] = await db().select().from(songs).where(eq(songs.isrc, "USBL12600002"));
    await matchSuspenseLine(admin.id, line!.id, { songId: song!.id });
    expect(await affiliateEarned(affiliate.userId)).toBe(320_000n + 60_000n);
    await expectImportInvariant(done.id);
    await expectLedgerBalanced();
  });

  it("rounds in SQL as in JavaScript (half to even) and keeps every entry at zero", async () => {
    const affiliate = await approvedAffiliate(undefined, 600);
    await refer(mia, affiliate);
    const done = await importLines([
      digital("STMT", "2026-06", "Northbound", "USBL12600005", "0.000250"), // commission 25 -> 1.5 -> 2
      digital("STMT", "2026-06", "Northbound", "USBL12600005", "0.000750"), // commission 75 -> 4.5 -> 4
      digital("STMT", "2026-06", "Northbound", "USBL12600005", "-0.000250"), // -2
    ]);
    const lines = await commissionLines(affiliate.id, 1);
    expect(lines.rows.map((r) => r.amountMicros).sort((a, b) => Number(a - b))).toEqual([-2n, 2n, 4n]);
    await expectImportInvariant(done.id);
    await expectLedgerBalanced();
  });

  it("earns for 12 months after the sign-up only, and nothing while suspended", async () => {
    const affiliate = await approvedAffiliate(undefined, 2000);
    await refer(mia, affiliate, 13);
    await importLines([digital("STMT", "2026-06", "Northbound", "USBL12600005", "10.00")]);
    expect(await affiliateEarned(affiliate.userId)).toBe(0n);
    await refer(mia, affiliate, 11);
    await importLines([digital("STMT", "2026-06", "Northbound", "USBL12600005", "10.00")]);
    expect(await affiliateEarned(affiliate.userId)).toBe(200_000n);
    expect((await affiliateFigures(affiliate)).activeReferrals).toBe(1);
    await suspendAffiliate(admin.id, affiliate.id, "Spam links reported");
    const done = await importLines([digital("STMT", "2026-06", "Northbound", "USBL12600005", "10.00")]);
    expect(await affiliateEarned(affiliate.userId)).toBe(200_000n);
    await expectImportInvariant(done.id);
    await db().delete(affiliateReferrals).where(eq(affiliateReferrals.userId, mia.id));
  });
});

describe("the pages' cached totals", () => {
  it("posting_summaries still equal the sums over the postings after affiliate entries (imports and a suspense match)", async () => {
    const keyOrder = sql.raw("account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title");
    const cells = sql.raw(
      "account_id, source, import_id, month::text as month, store, territory, song_id, release_id, release_title, track_title, amount_micros::text as amount, postings, lines, track_lines",
    );
    const affiliateEntries = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from journal_entries where kind = 'affiliate_commission'`));
    expect(affiliateEntries[0]!.n).toBeGreaterThan(1);
    const summaries = rowsOf<Record<string, unknown>>(await db().execute(sql`select ${cells} from posting_summaries where postings <> 0 order by ${keyOrder}`));
    const fromPostings = rowsOf<Record<string, unknown>>(await db().execute(sql`select ${cells} from (${summaryRowsOf(sql`true`)}) x order by ${keyOrder}`));
    expect(summaries).toEqual(fromPostings);
  });
});

describe("referral tracking and binding", () => {
  it("counts clicks per day and path, ignores unknown codes, and keeps the first touch", async () => {
    const first = await approvedAffiliate();
    const second = await approvedAffiliate();
    expect(await trackReferral({ code: "NOSUCHCODE", path: "/register", cookieHeader: null })).toBeNull();
    expect(await trackReferral({ code: "<script>", path: "/register", cookieHeader: null })).toBeNull();
    const setCookie = await trackReferral({ code: first.code!.toLowerCase(), path: "/register", cookieHeader: null });
    expect(setCookie).toMatch(/^backline_ref=.+; Max-Age=5184000; Path=\/; HttpOnly; SameSite=Lax/);
    const cookieHeader = setCookie!.split(";")[0]!;
    expect((await readRefTouch(cookieHeader))?.code).toBe(first.code);
    // A later link of another affiliate is counted, but the first touch stays.
    expect(await trackReferral({ code: second.code, path: "/legal-terms", cookieHeader })).toBeNull();
    await trackReferral({ code: first.code, path: "/register", cookieHeader });
    const clicks = await db().select().from(affiliateClicks).where(eq(affiliateClicks.affiliateId, first.id));
    expect(clicks).toEqual([{ affiliateId: first.id, day: new Date().toISOString().slice(0, 10), path: "/register", clicks: 2 }]);
    expect((await db().select().from(affiliateClicks).where(eq(affiliateClicks.affiliateId, second.id))).map((c) => c.path)).toEqual(["/legal-terms"]);
    // A pending affiliate's code (none yet) and a suspended one's count nothing.
    await suspendAffiliate(admin.id, second.id, "Paused by request");
    expect(await trackReferral({ code: second.code, path: "/register", cookieHeader: null })).toBeNull();
  });

  it("expires the first touch after 60 days", () => {
    const now = Date.now();
    expect(validTouch({ code: "ABCDEF23", at: now - (REF_COOKIE_DAYS - 1) * DAY }, now)).toEqual({ code: "ABCDEF23", at: now - (REF_COOKIE_DAYS - 1) * DAY });
    expect(validTouch({ code: "ABCDEF23", at: now - (REF_COOKIE_DAYS + 1) * DAY }, now)).toBeNull();
    expect(validTouch({ code: "ABCDEF23", at: now + DAY }, now)).toBeNull();
    expect(validTouch({ code: "bad code", at: now }, now)).toBeNull();
    expect(validTouch("ABCDEF23", now)).toBeNull();
  });

  it("binds at registration to the first touch, never to an expired touch, never afterwards, never to oneself", async () => {
    const affiliate = await approvedAffiliate();
    const touch = { code: affiliate.code!, at: Date.now() - DAY };
    const member = await registerMember(
      { name: "Rita", lastName: "Referred", email: uniqueEmail("rita"), password: "correct horse battery" },
      { onCreated: (tx, user) => bindReferral(tx, user.id, touch) },
    );
    const [bound] = await db().select().from(affiliateReferrals).where(eq(affiliateReferrals.userId, member.id));
    expect(bound?.affiliateId).toBe(affiliate.id);
    // After registration: refused, for a member with or without a referral.
    const other = await approvedAffiliate();
    expect(await bindReferral(db(), member.id, { code: other.code!, at: Date.now() })).toBeNull();
    expect(await bindReferral(db(), paul.id, { code: other.code!, at: Date.now() })).toBeNull();
    expect(await db().select().from(affiliateReferrals).where(eq(affiliateReferrals.userId, paul.id))).toEqual([]);
    // An expired touch (the cookie may outlive its time in a browser that ignores Max-Age) binds nothing.
    const late = await registerMember(
      { name: "Leo", lastName: "Late", email: uniqueEmail("leo"), password: "correct horse battery" },
      { onCreated: (tx, user) => bindReferral(tx, user.id, { code: affiliate.code!, at: Date.now() - (REF_COOKIE_DAYS + 1) * DAY }) },
    );
    expect(await db().select().from(affiliateReferrals).where(eq(affiliateReferrals.userId, late.id))).toEqual([]);
    // Oneself: an account whose own affiliate the touch names.
    const self = await db().transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ name: "Sam", lastName: "Self", email: uniqueEmail("sam"), passwordHash: "x", activatedAt: new Date() })
        .returning();
      const [own] = await tx
        .insert(affiliates)
        .values({ userId: user!.id, audience: "My own site", payoutMethod: "manual", status: "approved", code: "SELFREF23" })
        .returning();
      return { bound: await bindReferral(tx as unknown as Db, user!.id, { code: own!.code!, at: Date.now() }), userId: user!.id };
    });
    expect(self.bound).toBeNull();
    expect(await db().select().from(affiliateReferrals).where(eq(affiliateReferrals.userId, self.userId))).toEqual([]);
  });
});

describe("application and its transitions (conditional updates)", () => {
  it("applies once, approves with a code, rejects with a reason, suspends and reinstates", async () => {
    const owner = await createUser({ email: uniqueEmail("applicant") });
    const applied = await applyAsAffiliate(owner.id, { audience: "YouTube channel on home recording", payoutMethod: "stripe" });
    expect(applied).toMatchObject({ status: "pending_approval", code: null, commissionBps: 2000 });
    await expect(applyAsAffiliate(owner.id, { audience: "again", payoutMethod: "manual" })).rejects.toMatchObject({ status: 409 });
    // Only pending applications are rejected; a reason is required.
    await expect(rejectAffiliate(admin.id, applied.id, " ")).rejects.toMatchObject({ status: 400, field: "reason" });
    await expect(suspendAffiliate(admin.id, applied.id, "Not yet approved")).rejects.toMatchObject({ status: 409 });
    const approved = await approveAffiliate(admin.id, applied.id);
    expect(approved.status).toBe("approved");
    expect(approved.code).toMatch(/^[A-Z2-9]{8}$/);
    await expect(approveAffiliate(admin.id, applied.id)).rejects.toMatchObject({ status: 409 });
    await expect(rejectAffiliate(admin.id, applied.id, "Too late now")).rejects.toMatchObject({ status: 409 });
    const suspended = await suspendAffiliate(admin.id, applied.id, "Misleading ads");
    expect(suspended).toMatchObject({ status: "suspended", code: approved.code, rejectionReason: "Misleading ads" });
    const reinstated = await approveAffiliate(admin.id, applied.id);
    expect(reinstated).toMatchObject({ status: "approved", code: approved.code, rejectionReason: null });
    await expect(setAffiliateRate(admin.id, applied.id, 10_001)).rejects.toBeInstanceOf(AffiliateError);
    expect((await setAffiliateRate(admin.id, applied.id, 1500)).commissionBps).toBe(1500);
    await expect(approveAffiliate(admin.id, 999_999)).rejects.toMatchObject({ status: 404 });

    const other = await applyAsAffiliate((await createUser({ email: uniqueEmail("other") })).id, { audience: "A newsletter", payoutMethod: "manual" });
    const rejected = await rejectAffiliate(admin.id, other.id, "Audience unrelated to music");
    expect(rejected).toMatchObject({ status: "rejected", rejectionReason: "Audience unrelated to music", code: null });
    await expect(approveAffiliate(admin.id, other.id)).rejects.toMatchObject({ status: 409 });
    await expect(setAffiliateRate(admin.id, other.id, 100)).rejects.toMatchObject({ status: 409 });
    expect((await affiliateOfUser(owner.id))?.id).toBe(applied.id);
    // The member menu's Affiliate entry: the member's affiliate, from the profiles' one statement, with or without profiles.
    expect((await loadDashboardProfiles(owner.id)).owned_affiliate).toEqual({ id: applied.id });
    expect((await loadDashboardProfiles(mia.id)).owned_affiliate).toBeNull();
    expect((await loadDashboardProfiles(mia.id)).artists.length).toBeGreaterThan(0);
  });
});
