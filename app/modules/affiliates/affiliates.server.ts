import { randomInt } from "node:crypto";
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { affiliates, affiliateStatuses, users, type Affiliate, type AffiliateStatus } from "~/db/schema";

/**
 * Affiliates (decision 025): a member applies (pending_approval); an administrator approves
 * (the affiliate gets its code), rejects with a reason, sets the rate, suspends, reinstates. Every status
 * change is one conditional UPDATE (`... where id = ? and status in (...) returning`); when it finds no
 * row, the error says why: 404 for a missing affiliate, else 409 naming its status.
 */

export class AffiliateError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "AffiliateError";
  }
}

export const NO_AFFILIATE = "That affiliate does not exist.";
export const AFFILIATE_PAGE_SIZE = 25;

export const STATUS_LABELS: Record<AffiliateStatus, string> = {
  pending_approval: "Pending approval",
  approved: "Approved",
  rejected: "Rejected",
  suspended: "Suspended",
};

export interface AffiliateApplication {
  audience: string;
  payoutMethod: "manual" | "stripe";
}

/** A member's application (inside the caller's transaction when given): refused when they have one already. */
export async function applyAsAffiliate(userId: number, application: AffiliateApplication, executor: Db = db()): Promise<Affiliate> {
  const [row] = await executor
    .insert(affiliates)
    .values({ userId, audience: application.audience, payoutMethod: application.payoutMethod })
    .onConflictDoNothing({ target: affiliates.userId })
    .returning();
  if (!row) throw new AffiliateError(409, "You have applied already: your affiliate application is on your affiliate page.");
  return row;
}

/** The member's own affiliate, whatever its status; null when they never applied. */
export async function affiliateOfUser(userId: number, executor: Db = db()): Promise<Affiliate | null> {
  const [row] = await executor.select().from(affiliates).where(eq(affiliates.userId, userId)).limit(1);
  return row ?? null;
}

export async function findAffiliate(id: number, executor: Db = db()): Promise<Affiliate | null> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  const [row] = await executor.select().from(affiliates).where(eq(affiliates.id, id)).limit(1);
  return row ?? null;
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A new ref code: 8 letters and digits, without the look-alikes (0/O, 1/I). */
export function newRefCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

async function explain(id: number, doing: string): Promise<AffiliateError> {
  const row = await findAffiliate(id);
  if (!row) return new AffiliateError(404, NO_AFFILIATE);
  return new AffiliateError(409, `This affiliate is ${STATUS_LABELS[row.status].toLowerCase()}: it cannot be ${doing}.`);
}

/** Approves a pending (or reinstates a suspended) affiliate; its code is given once and kept. */
export async function approveAffiliate(adminId: number, id: number): Promise<Affiliate> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const [row] = await db()
        .update(affiliates)
        .set({
          status: "approved",
          code: sql`coalesce(${affiliates.code}, ${newRefCode()})`,
          rejectionReason: null,
          decidedBy: adminId,
          decidedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(and(eq(affiliates.id, id), inArray(affiliates.status, ["pending_approval", "suspended"])))
        .returning();
      if (!row) throw await explain(id, "approved");
      return row;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // a code taken already: another one
    }
  }
  throw new Error("No free affiliate code was found.");
}

export function cleanReason(value: unknown): string {
  const text = typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
  if (text.length < 3 || text.length > 500) throw new AffiliateError(400, "Give a reason (3 to 500 characters).", "reason");
  return text;
}

/** Rejects a pending application, with a reason shown to the applicant. */
export async function rejectAffiliate(adminId: number, id: number, reason: unknown): Promise<Affiliate> {
  const text = cleanReason(reason);
  const [row] = await db()
    .update(affiliates)
    .set({ status: "rejected", rejectionReason: text, decidedBy: adminId, decidedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(affiliates.id, id), eq(affiliates.status, "pending_approval")))
    .returning();
  if (!row) throw await explain(id, "rejected");
  return row;
}

/** Suspends an approved affiliate: its links stop counting, no referral is bound to it and it earns nothing until reinstated. */
export async function suspendAffiliate(adminId: number, id: number, reason: unknown): Promise<Affiliate> {
  const text = cleanReason(reason);
  const [row] = await db()
    .update(affiliates)
    .set({ status: "suspended", rejectionReason: text, decidedBy: adminId, decidedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(affiliates.id, id), eq(affiliates.status, "approved")))
    .returning();
  if (!row) throw await explain(id, "suspended");
  return row;
}

/** Sets the rate (basis points of the platform commission), for the commissions posted from now on. */
export async function setAffiliateRate(adminId: number, id: number, bps: number): Promise<Affiliate> {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
    throw new AffiliateError(400, "Enter a rate between 0 and 10,000 basis points (0 % to 100 %).", "commissionBps");
  const [row] = await db()
    .update(affiliates)
    .set({ commissionBps: bps, decidedBy: adminId, updatedAt: sql`now()` })
    .where(and(eq(affiliates.id, id), inArray(affiliates.status, ["pending_approval", "approved", "suspended"])))
    .returning();
  if (!row) throw await explain(id, "given a new rate");
  return row;
}

/* ------------------------------------------------------------------ lists and figures */

export interface AffiliateListRow {
  id: number;
  status: AffiliateStatus;
  code: string | null;
  commissionBps: number;
  member: { id: number; name: string; email: string };
  createdAt: Date;
  referrals: number;
  earnedMicros: bigint;
}

export interface AffiliateListQuery {
  page: number;
  status: AffiliateStatus | null;
  q: string;
}

export function parseAffiliateListQuery(url: URL): AffiliateListQuery {
  const status = url.searchParams.get("status");
  const page = Number(url.searchParams.get("page") ?? "1");
  return {
    page: Number.isInteger(page) && page > 0 && page < 100_000 ? page : 1,
    status: (affiliateStatuses as readonly string[]).includes(status ?? "") ? (status as AffiliateStatus) : null,
    q: (url.searchParams.get("q") ?? "").trim().slice(0, 100),
  };
}

/** The admin list, newest first, a page at a time, with each affiliate's referrals and earnings. One statement. */
export async function listAffiliates(query: AffiliateListQuery): Promise<{ rows: AffiliateListRow[]; total: number; pageCount: number }> {
  const where: SQL[] = [];
  if (query.status) where.push(eq(affiliates.status, query.status));
  if (query.q) {
    const like = `%${escapeLike(query.q)}%`;
    where.push(or(ilike(users.email, like), ilike(users.name, like), ilike(users.lastName, like), ilike(sql`coalesce(${affiliates.code}, '')`, like))!);
  }
  const rows = await db()
    .select({
      id: affiliates.id,
      status: affiliates.status,
      code: affiliates.code,
      commissionBps: affiliates.commissionBps,
      createdAt: affiliates.createdAt,
      memberId: users.id,
      name: sql<string>`${users.name} || ' ' || ${users.lastName}`,
      email: users.email,
      referrals: sql<number>`(select count(*)::int from affiliate_referrals r where r.affiliate_id = ${affiliates.id})`,
      earned: sql<string>`(select coalesce(sum(c.amount_micros), 0)::text from affiliate_commissions c where c.affiliate_id = ${affiliates.id})`,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(affiliates)
    .innerJoin(users, eq(users.id, affiliates.userId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(affiliates.createdAt), desc(affiliates.id))
    .limit(AFFILIATE_PAGE_SIZE)
    .offset((query.page - 1) * AFFILIATE_PAGE_SIZE);
  const total = rows[0]?.total ?? 0;
  return {
    total,
    pageCount: pageCountFor(total, AFFILIATE_PAGE_SIZE),
    rows: rows.map((r) => ({
      id: r.id,
      status: r.status,
      code: r.code,
      commissionBps: r.commissionBps,
      createdAt: r.createdAt,
      member: { id: r.memberId, name: r.name, email: r.email },
      referrals: r.referrals,
      earnedMicros: BigInt(r.earned),
    })),
  };
}

export interface AffiliateFigures {
  clicks: number;
  signUps: number;
  /** Referred members still within their 12 months. */
  activeReferrals: number;
  /** From the ledger: the owner's earnings postings with source `affiliate`. */
  earnedMicros: bigint;
  byMonth: Array<{ month: string; amountMicros: bigint }>;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Clicks, sign-ups, active referrals and commissions by month (the latter from the ledger). One statement. */
export async function affiliateFigures(affiliate: Pick<Affiliate, "id" | "userId">): Promise<AffiliateFigures> {
  const [row] = rowsOf<{ clicks: number; sign_ups: number; active: number; months: Array<{ month: string; amount: string }> | null }>(
    await db().execute(sql`
      select
        (select coalesce(sum(clicks), 0)::int from affiliate_clicks where affiliate_id = ${affiliate.id}) as clicks,
        (select count(*)::int from affiliate_referrals where affiliate_id = ${affiliate.id}) as sign_ups,
        (select count(*)::int from affiliate_referrals where affiliate_id = ${affiliate.id} and created_at > now() - interval '12 months') as active,
        (select json_agg(json_build_object('month', m.month, 'amount', m.amount::text) order by m.month)
          from (select to_char(date_trunc('month', je.created_at at time zone 'UTC'), 'YYYY-MM') as month, sum(p.amount_micros) as amount
            from postings p
            join ledger_accounts a on a.id = p.account_id and a.kind = 'earnings' and a.user_id = ${affiliate.userId}
            join journal_entries je on je.id = p.entry_id
            where p.source = 'affiliate'
            group by 1) m) as months`),
  );
  const byMonth = (row?.months ?? []).map((m) => ({ month: m.month, amountMicros: BigInt(m.amount) }));
  return {
    clicks: row?.clicks ?? 0,
    signUps: row?.sign_ups ?? 0,
    activeReferrals: row?.active ?? 0,
    earnedMicros: byMonth.reduce((sum, m) => sum + m.amountMicros, 0n),
    byMonth,
  };
}

export interface CommissionLine {
  postingId: number;
  createdAt: string;
  importId: number | null;
  lineNo: number | null;
  period: string | null;
  store: string | null;
  trackTitle: string | null;
  referred: { id: number; name: string };
  baseMicros: bigint;
  commissionBps: number;
  amountMicros: bigint;
}

/** Everything the affiliate earned, newest first, each traced to its statement line and referred member. One statement. */
export async function commissionLines(
  affiliateId: number,
  page: number,
  perPage = AFFILIATE_PAGE_SIZE,
): Promise<{ rows: CommissionLine[]; total: number; pageCount: number }> {
  const rows = rowsOf<{
    posting_id: string | number;
    created_at: string;
    import_id: number | null;
    line_no: number | null;
    period: string | null;
    store: string | null;
    track_title: string | null;
    user_id: number;
    name: string;
    base: string;
    bps: number;
    amount: string;
    total: number;
  }>(
    await db().execute(sql`
      select c.posting_id, to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD') as created_at, sl.import_id, sl.line_no,
        to_char(sl.sale_period_start, 'YYYY-MM-DD') as period, sl.source as store, sl.track_title,
        u.id as user_id, u.name || ' ' || u.last_name as name, c.base_micros::text as base, c.commission_bps as bps, c.amount_micros::text as amount,
        count(*) over ()::int as total
      from affiliate_commissions c
      join users u on u.id = c.referred_user_id
      left join statement_lines sl on sl.id = c.statement_line_id
      where c.affiliate_id = ${affiliateId}
      order by c.created_at desc, c.posting_id desc
      limit ${perPage} offset ${(Math.max(1, page) - 1) * perPage}`),
  );
  const total = rows[0]?.total ?? 0;
  return {
    total,
    pageCount: pageCountFor(total, perPage),
    rows: rows.map((r) => ({
      postingId: Number(r.posting_id),
      createdAt: r.created_at,
      importId: r.import_id,
      lineNo: r.line_no,
      period: r.period,
      store: r.store,
      trackTitle: r.track_title,
      referred: { id: r.user_id, name: r.name },
      baseMicros: BigInt(r.base),
      commissionBps: r.bps,
      amountMicros: BigInt(r.amount),
    })),
  };
}

/** The affiliate's owner, for the admin page. */
export async function affiliateOwner(affiliate: Pick<Affiliate, "userId">): Promise<{ id: number; name: string; email: string } | null> {
  const [row] = await db()
    .select({ id: users.id, name: sql<string>`${users.name} || ' ' || ${users.lastName}`, email: users.email })
    .from(users)
    .where(eq(users.id, affiliate.userId))
    .limit(1);
  return row ?? null;
}
