import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { incomeSources, type IncomeSource, type StatementKindName as StatementKind } from "~/db/schema";
import { centsToMicros, formatMicros, microsToCentsFloor } from "../money";
import { cachedMemberReport } from "./member-report-cache.server";
import { statementName, type StatementNaming } from "./statement-name";

/**
 * A member's income, derived from the ledger's postings (docs/money.md "Balances are derived"):
 *
 * - earned: their earnings postings that carry a source (income, wherever it came from: a statement, a held
 *   share released to them, a declined share returned to them as the owner); payouts post without a source;
 * - held: the balances of the held accounts of split parties that are theirs (linked to them, or addressed to
 *   their verified email, as splits' partyOfUser), money waiting for them to accept;
 * - reserved, paid_out: the balances of their payouts_reserved and payouts_paid accounts;
 * - available: the earnings account's balance minus reserved, rounded down to whole cents.
 *
 * Income by month uses the first day of the statement line's sale period for postings that come from a
 * statement line, and the entry's month (UTC) otherwise. Everything is read in one aggregate statement, from
 * posting_rollups (posting_summaries rolled up by triggers; both written in the transactions that write the postings:
 * summaries.server.ts, app/db/schema/core.ts).
 */

export type SourceAmounts = Record<IncomeSource, bigint>;

export interface IncomeStatement {
  /** The sales import the lines came from; null for income that did not come from a statement. */
  importId: number | null;
  /** The uploaded file's name: for administrators; members see the statement's name (statement-name.ts). */
  fileName: string | null;
  kind: StatementKind | null;
  layout: string | null;
  statementId: string | null;
  /** The first and last sale month of the member's part of it ("YYYY-MM"). */
  firstMonth: string | null;
  lastMonth: string | null;
  importedAt: string | null;
  /** How many of the member's postings came from the statement's lines. */
  postings: number;
  amountMicros: bigint;
}

export interface MemberIncome {
  memberId: number;
  currency: "USD";
  earnedMicros: bigint;
  heldMicros: bigint;
  reservedMicros: bigint;
  paidOutMicros: bigint;
  /** The earnings account's whole balance (income less what has been paid from it). */
  balanceMicros: bigint;
  /** Balance minus reserved, rounded down to whole cents. */
  availableCents: bigint;
  bySource: SourceAmounts;
  /** Oldest month first; only months with income. */
  byMonth: Array<{ month: string; bySource: SourceAmounts; totalMicros: bigint }>;
  /** Newest first, one page of STATEMENTS_PAGE_SIZE (`statementsPage`). */
  statements: IncomeStatement[];
  statementCount: number;
  statementsPage: number;
}

/** Statements per page of Income & Shares' statements table (`statements_page`). */
export const STATEMENTS_PAGE_SIZE = 10;

export const emptySources = (): SourceAmounts => Object.fromEntries(incomeSources.map((s) => [s, 0n])) as SourceAmounts;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface IncomeRow {
  found: boolean;
  balance: string;
  reserved: string;
  paid: string;
  held: string;
  by_month: Array<{ month: string; source: IncomeSource; amount: string }> | null;
  statements: Array<{
    import_id: number | null;
    file_name: string | null;
    kind: StatementKind | null;
    layout: string | null;
    statement_id: string | null;
    first_month: string | null;
    last_month: string | null;
    imported_at: string | null;
    n: number;
    amount: string;
  }> | null;
  statement_count: number;
}

/**
 * The member's income figures with one page of their statements, or null when there is no such user: computed once per
 * member and ledger change (member-report-cache.server.ts), one statement when cached, two when not.
 */
export async function memberIncome(memberId: number, statementsPage = 1): Promise<MemberIncome | null> {
  const page = Math.max(1, statementsPage);
  return cachedMemberReport(memberId, `income:${page}`, () => computeMemberIncome(memberId, page));
}

/** memberIncome's figures, read in one aggregate statement. */
async function computeMemberIncome(memberId: number, page: number): Promise<MemberIncome | null> {
  const result = await db().execute(sql`
    with member as (
      select id, lower(trim(email)) as email, email_verified_at is not null as verified from users where id = ${memberId}
    ),
    own as (
      select a.id, a.kind from ledger_accounts a
      where a.user_id = ${memberId} and a.currency = 'USD' and a.kind in ('earnings', 'payouts_reserved', 'payouts_paid')
    ),
    held as (
      select a.id from ledger_accounts a
      join split_parties sp on sp.id = a.split_party_id
      join member m on sp.user_id = m.id or (sp.user_id is null and m.verified and lower(sp.email) = m.email)
      where a.kind = 'held' and a.currency = 'USD'
    ),
    income as (
      select ps.amount_micros, ps.source, nullif(ps.import_id, 0) as import_id, ps.postings, ps.month
      from posting_rollups ps
      join own on own.id = ps.account_id and own.kind = 'earnings'
      where ps.dim = '' and ps.source <> ''
    ),
    per_import as (
      select i.import_id, sum(i.postings)::int as n, sum(i.amount_micros) as amount,
        to_char(min(i.month), 'YYYY-MM') as first_month, to_char(max(i.month), 'YYYY-MM') as last_month
      from income i group by i.import_id
    ),
    -- One pass over the member's own accounts' rollups for the three balances (three subqueries scanned it thrice).
    totals as (
      select
        coalesce(sum(ps.amount_micros) filter (where own.kind = 'earnings'), 0)::text as balance,
        coalesce(sum(ps.amount_micros) filter (where own.kind = 'payouts_reserved'), 0)::text as reserved,
        coalesce(sum(ps.amount_micros) filter (where own.kind = 'payouts_paid'), 0)::text as paid
      from own join posting_rollups ps on ps.account_id = own.id and ps.dim = ''
    )
    select
      exists (select 1 from member) as found,
      totals.balance, totals.reserved, totals.paid,
      (select coalesce(sum(ps.amount_micros), 0)::text from posting_rollups ps join held on held.id = ps.account_id and ps.dim = '') as held,
      (select json_agg(json_build_object('month', to_char(x.month, 'YYYY-MM'), 'source', x.source, 'amount', x.amount::text) order by x.month, x.source)
        from (select month, source, sum(amount_micros) as amount from income group by month, source) x) as by_month,
      (select json_agg(json_build_object(
          'import_id', x.import_id, 'file_name', si.file_name, 'kind', si.kind, 'layout', si.layout, 'statement_id', si.statement_id,
          'first_month', x.first_month, 'last_month', x.last_month,
          'imported_at', to_char(si.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'n', x.n, 'amount', x.amount::text) order by si.created_at desc nulls last, x.import_id desc)
        from (select * from per_import order by import_id desc nulls last limit ${STATEMENTS_PAGE_SIZE} offset ${(page - 1) * STATEMENTS_PAGE_SIZE}) x
        left join sales_imports si on si.id = x.import_id) as statements,
      (select count(*)::int from per_import) as statement_count
    from totals
  `);
  const [row] = rowsOf<IncomeRow>(result);
  if (!row?.found) return null;

  const bySource = emptySources();
  const months = new Map<string, SourceAmounts>();
  for (const cell of row.by_month ?? []) {
    const amount = BigInt(cell.amount);
    bySource[cell.source] += amount;
    const month = months.get(cell.month) ?? emptySources();
    month[cell.source] += amount;
    months.set(cell.month, month);
  }
  const earnedMicros = incomeSources.reduce((sum, s) => sum + bySource[s], 0n);
  const balanceMicros = BigInt(row.balance);
  const reservedMicros = BigInt(row.reserved);
  return {
    memberId,
    currency: "USD",
    earnedMicros,
    heldMicros: BigInt(row.held),
    reservedMicros,
    paidOutMicros: BigInt(row.paid),
    balanceMicros,
    // A payout request moves its amount out of earnings into payouts_reserved (decision 018): the earnings
    // balance is already earned less reserved and paid.
    availableCents: microsToCentsFloor(balanceMicros),
    bySource,
    byMonth: [...months.entries()].map(([month, sources]) => ({
      month,
      bySource: sources,
      totalMicros: incomeSources.reduce((sum, s) => sum + sources[s], 0n),
    })),
    statements: (row.statements ?? []).map((s) => ({
      importId: s.import_id,
      fileName: s.file_name,
      kind: s.kind,
      layout: s.layout,
      statementId: s.statement_id,
      firstMonth: s.first_month,
      lastMonth: s.last_month,
      importedAt: s.imported_at,
      postings: s.n,
      amountMicros: BigInt(s.amount),
    })),
    statementCount: row.statement_count,
    statementsPage: page,
  };
}

/** docs/money.md's contract for GET /api/members/{id}/royalties-report/income. */
export interface IncomeReportJson {
  memberId: number;
  currency: "USD";
  earned: string;
  held: string;
  reserved: string;
  paid_out: string;
  available: string;
  by_source: Record<IncomeSource, string>;
}

export function incomeReportJson(income: MemberIncome): IncomeReportJson {
  return {
    memberId: income.memberId,
    currency: income.currency,
    earned: formatMicros(income.earnedMicros),
    held: formatMicros(income.heldMicros),
    reserved: formatMicros(income.reservedMicros),
    paid_out: formatMicros(income.paidOutMicros),
    available: formatMicros(centsToMicros(income.availableCents)),
    by_source: Object.fromEntries(incomeSources.map((s) => [s, formatMicros(income.bySource[s])])) as Record<IncomeSource, string>,
  };
}

/* ------------------------------------------------------------------ the lines behind a statement's amount */

export interface IncomeLine {
  lineId: number;
  lineNo: number;
  period: string;
  source: string;
  territory: string | null;
  releaseTitle: string | null;
  trackTitle: string | null;
  isrc: string | null;
  lineAmountMicros: bigint;
  /** The member's part of the line (their earnings postings on it). */
  amountMicros: bigint;
}

export const LINES_PAGE_SIZE = 50;

/**
 * The member's postings on one import's lines, a page at a time, with the total count (from posting_rollups:
 * the account's first posting on each line counts it). One statement.
 */
export async function memberIncomeLines(
  memberId: number,
  importId: number,
  page = 1,
): Promise<{ lines: IncomeLine[]; total: number; naming: StatementNaming | null }> {
  const offset = (Math.max(1, page) - 1) * LINES_PAGE_SIZE;
  const result = await db().execute(sql`
    with mine as (
      select p.statement_line_id as line_id, sum(p.amount_micros) as amount
      from postings p
      join ledger_accounts a on a.id = p.account_id and a.kind = 'earnings' and a.user_id = ${memberId}
      join statement_lines sl on sl.id = p.statement_line_id and sl.import_id = ${importId}
      where p.source is not null
      group by p.statement_line_id
    )
    select sl.id, sl.line_no, to_char(sl.sale_period_start, 'YYYY-MM-DD') as period, sl.source, sl.territory, sl.release_title, sl.track_title, sl.isrc,
      sl.amount_micros::text as line_amount, mine.amount::text as amount,
      (select coalesce(sum(ps.lines), 0)::int from posting_rollups ps
        join ledger_accounts a on a.id = ps.account_id and a.kind = 'earnings' and a.user_id = ${memberId}
        where ps.dim = '' and ps.import_id = ${importId} and ps.source <> '') as total,
      -- What names the statement for the member (statement-name.ts): its source and the months of their part.
      (select json_build_object('kind', si.kind, 'layout', si.layout, 'statementId', si.statement_id,
          'firstMonth', (select to_char(min(ps.month), 'YYYY-MM') from posting_rollups ps
            join ledger_accounts a on a.id = ps.account_id and a.kind = 'earnings' and a.user_id = ${memberId}
            where ps.dim = '' and ps.import_id = ${importId} and ps.source <> ''),
          'lastMonth', (select to_char(max(ps.month), 'YYYY-MM') from posting_rollups ps
            join ledger_accounts a on a.id = ps.account_id and a.kind = 'earnings' and a.user_id = ${memberId}
            where ps.dim = '' and ps.import_id = ${importId} and ps.source <> ''))
        from sales_imports si where si.id = ${importId}) as naming
    from mine join statement_lines sl on sl.id = mine.line_id
    order by sl.line_no
    limit ${LINES_PAGE_SIZE} offset ${offset}
  `);
  const rows = rowsOf<{
    id: number | string;
    line_no: number;
    period: string;
    source: string;
    territory: string | null;
    release_title: string | null;
    track_title: string | null;
    isrc: string | null;
    line_amount: string;
    amount: string;
    total: number;
    naming: StatementNaming | null;
  }>(result);
  return {
    total: rows[0]?.total ?? 0,
    naming: rows[0]?.naming ?? null,
    lines: rows.map((r) => ({
      lineId: Number(r.id),
      lineNo: r.line_no,
      period: r.period,
      source: r.source,
      territory: r.territory,
      releaseTitle: r.release_title,
      trackTitle: r.track_title,
      isrc: r.isrc,
      lineAmountMicros: BigInt(r.line_amount),
      amountMicros: BigInt(r.amount),
    })),
  };
}

/* ------------------------------------------------------------------ payouts (filled by the payouts issue) */

export interface PaymentJson {
  entryId: number;
  kind: string;
  memo: string;
  /** "reserved" (a payout request's reservation or its release) or "paid". */
  account: "reserved" | "paid";
  amount: string;
  created_at: string;
}

/**
 * GET /api/members/{id}/royalties-report/payments: the member's payout requests and payments as they stand
 * in the ledger, newest first: every posting on their payouts_reserved and payouts_paid accounts, one row per
 * entry and account. Empty until payouts exist. One statement.
 */
export async function memberPayments(memberId: number, limit = 100): Promise<PaymentJson[]> {
  const result = await db().execute(sql`
    select je.id as entry_id, je.kind, je.memo, a.kind as account, sum(p.amount_micros)::text as amount,
      to_char(je.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
    from ledger_accounts a
    join postings p on p.account_id = a.id
    join journal_entries je on je.id = p.entry_id
    where a.user_id = ${memberId} and a.kind in ('payouts_reserved', 'payouts_paid')
    group by je.id, je.kind, je.memo, a.kind, je.created_at
    order by je.created_at desc, je.id desc
    limit ${limit}
  `);
  return rowsOf<{ entry_id: number | string; kind: string; memo: string; account: string; amount: string; created_at: string }>(result).map((r) => ({
    entryId: Number(r.entry_id),
    kind: r.kind,
    memo: r.memo,
    account: r.account === "payouts_paid" ? "paid" : "reserved",
    amount: formatMicros(BigInt(r.amount)),
    created_at: r.created_at,
  }));
}

/* ------------------------------------------------------------------ page data (micro-units as strings) */

const sourceStrings = (amounts: SourceAmounts) => Object.fromEntries(incomeSources.map((s) => [s, amounts[s].toString()])) as Record<IncomeSource, string>;

/** What the Income & Shares page receives: the same figures, micro-units as exact strings. */
export function incomePageData(income: MemberIncome) {
  return {
    memberId: income.memberId,
    earned: income.earnedMicros.toString(),
    held: income.heldMicros.toString(),
    reserved: income.reservedMicros.toString(),
    paidOut: income.paidOutMicros.toString(),
    availableCents: income.availableCents.toString(),
    bySource: sourceStrings(income.bySource),
    byMonth: income.byMonth.map((m) => ({ month: m.month, bySource: sourceStrings(m.bySource), total: m.totalMicros.toString() })),
    // Named by source and period: the uploaded file's name is the administrator's, not the member's.
    statements: income.statements.map((s) => ({
      importId: s.importId,
      name: statementName(s),
      statementId: s.statementId,
      kind: s.kind,
      importedAt: s.importedAt,
      postings: s.postings,
      amount: s.amountMicros.toString(),
    })),
    statementCount: income.statementCount,
    statementsPage: income.statementsPage,
    statementsPageSize: STATEMENTS_PAGE_SIZE,
  };
}
