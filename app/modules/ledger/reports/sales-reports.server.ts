import { sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import type { RouteArgs } from "~/request-context";
import { ensureAdminSalesRollups } from "./admin-sales-rollups.server";
import { cachedMemberReport } from "./member-report-cache.server";

/**
 * The sales pages' figures, read from the ledger in aggregate statements only.
 *
 * Two scopes:
 * - **member**: the member's own money, the postings on their earnings account of one source (digital,
 *   pro, license) that point to a statement line. A posting's song gives the artist page (songs.artist_id);
 *   a PRO line paid to a member without a catalogue song belongs to "artist 0" (not in the catalogue).
 *   Nothing outside that account is ever read, so a member can only see their own figures.
 * - **admin**: whole statement lines of one kind, with the platform commission posted for them. Digital and
 *   licence lines belong to the artist page of their song (else of their release; unmatched: artist 0);
 *   PRO lines to the member they were matched to (unmatched: member 0).
 *
 * Amounts are micro-units as decimal integer strings (bigint text) so they cross to the page unchanged;
 * pages show them in cents (microsToCentsFloor), CSV files as six-decimal dollars (formatMicros).
 */

export const SALES_KINDS = ["digital", "pro", "license"] as const;
export type SalesKind = (typeof SALES_KINDS)[number];

export const SALES_GROUPS = ["period", "store", "country", "release", "track"] as const;
export type SalesGroup = (typeof SALES_GROUPS)[number];

export type SalesScope = { type: "member"; memberId: number } | { type: "admin" };

export interface SalesFilters {
  /** "YYYY-MM", inclusive, on the month of the line's sale period start. */
  from: string | null;
  to: string | null;
  store: string | null;
  country: string | null;
}

export interface SalesQuery extends SalesFilters {
  group: SalesGroup;
  /** A group's key: the lines table (and its export) shows that group's lines only. */
  key: string | null;
  page: number;
}

export const LINES_PAGE_SIZE = 25;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Reads the filters, grouping and drill-down from a URL's query; anything malformed is ignored. */
export function parseSalesQuery(search: URLSearchParams): SalesQuery {
  const text = (name: string, max = 200) => {
    const value = search.get(name)?.trim() ?? "";
    return value && value.length <= max ? value : null;
  };
  const month = (name: string) => {
    const value = text(name, 7);
    return value && MONTH.test(value) ? value : null;
  };
  const group = search.get("group");
  const page = Number(search.get("page") ?? "1");
  return {
    from: month("from"),
    to: month("to"),
    store: text("store"),
    country: text("country", 20),
    group: (SALES_GROUPS as readonly string[]).includes(group ?? "") ? (group as SalesGroup) : "period",
    key: search.has("key") ? (search.get("key") ?? "").slice(0, 500) : null,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The first day of the month after "YYYY-MM". */
function nextMonthStart(month: string): string {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01-01` : `${year}-${String(m + 1).padStart(2, "0")}-01`;
}

/** The subject of a detail page: an artist page (digital, licence, member PRO) or a member (admin PRO). 0 = none. */
export type SalesSubject = number | null;

/**
 * Admin scope: one row per statement line, with every column the reports group on (member figures read
 * posting_rollups / posting_summaries, and a member's lines memberLinesSelect):
 * subject_id (artist page or member), line_id, import_id, line_no, period ("YYYY-MM"), period_start,
 * store, country, release, track, quantity, line_amount, amount, commission.
 */
function adminRows(kind: SalesKind, subject: SalesSubject, filters: SalesFilters): SQL {
  const where: SQL[] = [];
  if (filters.from) where.push(sql`sl.sale_period_start >= ${`${filters.from}-01`}::date`);
  if (filters.to) where.push(sql`sl.sale_period_start < ${nextMonthStart(filters.to)}::date`);
  if (filters.store) where.push(sql`sl.source = ${filters.store}`);
  if (filters.country) where.push(sql`sl.territory = ${filters.country}`);
  const common = sql`sl.id as line_id, sl.import_id, sl.line_no, to_char(sl.sale_period_start, 'YYYY-MM') as period,
    sl.sale_period_start, sl.source as store, coalesce(sl.territory, '') as country,
    coalesce(r.title, sl.release_title, '') as release, sl.quantity, sl.amount_micros as line_amount`;

  const subjectExpr = kind === "pro" ? sql`coalesce(sl.member_id, 0)` : sql`coalesce(s.artist_id, r.artist_id, 0)`;
  if (subject !== null) {
    // Said so that the subject's lines are found by the lines' indexes (song, release, member; unmatched lines: the
    // partial index of lines in suspense), not by reading every line of the kind. A matched line has a song or a
    // release (digital, licence) or a member (PRO), so these are the lines whose subject is `subject`.
    if (kind === "pro") where.push(subject === 0 ? sql`sl.matched_by is null and sl.member_id is null` : sql`sl.member_id = ${subject}`);
    else if (subject === 0) where.push(sql`sl.matched_by is null and sl.song_id is null and sl.release_id is null`);
    else
      where.push(
        sql`(sl.song_id in (select id from songs where artist_id = ${subject}) or (sl.song_id is null and sl.release_id in (select id from releases where artist_id = ${subject})))`,
      );
  }
  return sql`select ${subjectExpr} as subject_id, ${common}, coalesce(s.title, sl.track_title, '') as track,
      sl.amount_micros as amount, coalesce(c.commission, 0)::bigint as commission
    from statement_lines sl
    left join songs s on s.id = sl.song_id
    left join releases r on r.id = sl.release_id
    left join lateral (
      select sum(cp.amount_micros) as commission
      from postings cp join ledger_accounts ca on ca.id = cp.account_id and ca.kind = 'commission'
      where cp.statement_line_id = sl.id
    ) c on true
    where sl.kind = ${kind}
    ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}`;
}

/**
 * Member scope from posting_summaries (the cached totals of the postings, written with them): one row per
 * summary key with the same columns the reports group on (subject_id, period, store, country, release, track)
 * and amount, lines (distinct statement lines: the account's first posting on each) and track_lines
 * (distinct line and song). The same figures as summing the member's postings, without reading them.
 */
function memberSummaryRows(memberId: number, kind: SalesKind, subject: SalesSubject, filters: SalesFilters): SQL {
  const where: SQL[] = [];
  if (filters.from) where.push(sql`ps.month >= ${`${filters.from}-01`}::date`);
  if (filters.to) where.push(sql`ps.month < ${nextMonthStart(filters.to)}::date`);
  if (filters.store) where.push(sql`ps.store = ${filters.store}`);
  if (filters.country) where.push(sql`ps.territory = ${filters.country}`);
  if (subject !== null) where.push(sql`coalesce(s.artist_id, 0) = ${subject}`);
  return sql`select coalesce(s.artist_id, 0) as subject_id, to_char(ps.month, 'YYYY-MM') as period, ps.store, ps.territory as country,
      coalesce(r.title, ps.release_title) as release, coalesce(s.title, ps.track_title) as track,
      ps.amount_micros as amount, ps.lines, ps.track_lines
    from ledger_accounts a
    join posting_summaries ps on ps.account_id = a.id and ps.source = ${kind} and ps.import_id <> 0
    left join songs s on s.id = ps.song_id
    left join releases r on r.id = ps.release_id
    where a.kind = 'earnings' and a.user_id = ${memberId} and a.currency = 'USD'
    ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}`;
}

/**
 * Admin scope from admin_sales_rollups (admin-sales-rollups.server.ts): the same columns as adminRows, a row per
 * import, month, store, territory and match rather than per line; `lines` counts the lines of each (a line is in one row).
 */
function adminRollupRows(kind: SalesKind, subject: SalesSubject, filters: SalesFilters): SQL {
  const where: SQL[] = [sql`ar.kind = ${kind}`];
  if (filters.from) where.push(sql`ar.month >= ${`${filters.from}-01`}::date`);
  if (filters.to) where.push(sql`ar.month < ${nextMonthStart(filters.to)}::date`);
  if (filters.store) where.push(sql`ar.store = ${filters.store}`);
  if (filters.country) where.push(sql`ar.territory = ${filters.country}`);
  if (subject !== null) where.push(sql`ar.subject_id = ${subject}`);
  return sql`select ar.subject_id, to_char(ar.month, 'YYYY-MM') as period, ar.store, ar.territory as country,
      coalesce(r.title, ar.release_title) as release, coalesce(s.title, ar.track_title) as track,
      ar.lines, ar.amount_micros as amount, ar.commission_micros as commission
    from admin_sales_rollups ar
    left join songs s on s.id = ar.song_id and ar.song_id <> 0
    left join releases r on r.id = ar.release_id and ar.release_id <> 0
    where ${sql.join(where, sql` and `)}`;
}

/** Which rows of posting_rollups (app/db/schema/core.ts) a member figure reads: store and territory rows, or the rest. */
type RollupDim = "" | "store" | "territory";

/**
 * The same columns as memberSummaryRows, from posting_rollups: a member's whole history in a few rows per month
 * and artist page (dim '': per import, song and release; 'store' / 'territory': per that value). Used when no
 * store or country filter is set (the rollups have summed them away); with one, memberSummaryRows.
 */
function memberRows(memberId: number, kind: SalesKind, subject: SalesSubject, filters: SalesFilters, dim: RollupDim): SQL {
  if (filters.store || filters.country) return memberSummaryRows(memberId, kind, subject, filters);
  const where: SQL[] = [sql`pr.dim = ${dim}`];
  if (dim === "") where.push(sql`pr.import_id <> 0`);
  if (filters.from) where.push(sql`pr.month >= ${`${filters.from}-01`}::date`);
  if (filters.to) where.push(sql`pr.month < ${nextMonthStart(filters.to)}::date`);
  if (subject !== null) where.push(sql`pr.artist_id = ${subject}`);
  return sql`select pr.artist_id as subject_id, to_char(pr.month, 'YYYY-MM') as period,
      ${dim === "store" ? sql`pr.dim_value` : sql`null::text`} as store, ${dim === "territory" ? sql`pr.dim_value` : sql`null::text`} as country,
      coalesce(r.title, pr.release_title) as release, coalesce(s.title, pr.track_title) as track,
      pr.amount_micros as amount, pr.lines, pr.track_lines
    from posting_rollups pr
    left join songs s on s.id = pr.song_id and pr.song_id <> 0
    left join releases r on r.id = pr.release_id and pr.release_id <> 0
    where pr.account_id = (select a.id from ledger_accounts a where a.kind = 'earnings' and a.user_id = ${memberId} and a.currency = 'USD')
      and pr.source = ${kind} and ${sql.join(where, sql` and `)}`;
}

/** The rows a figure grouped by `group` reads (store and country breakdowns: their own rollup rows). */
const dimOf = (group: SalesGroup | null): RollupDim => (group === "store" ? "store" : group === "country" ? "territory" : "");

async function rowsOf<T>(query: SQL): Promise<T[]> {
  const result = (await db().execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/* ------------------------------------------------------------------ lists (totals per artist or member) */

export interface SalesTotalRow {
  /** The artist page (or, admin PRO, the member); 0 when none. */
  id: number;
  name: string;
  lines: number;
  /** Member: their earnings; admin: the statement lines' amounts. */
  amount: string;
  commission: string;
}

/** Totals per artist page (member, admin digital/licence) or per member (admin PRO), largest first. One statement. */
export async function salesTotals(scope: SalesScope, kind: SalesKind, filters: SalesFilters): Promise<SalesTotalRow[]> {
  if (scope.type === "admin") await ensureAdminSalesRollups(kind);
  else return cachedMemberReport(scope.memberId, `sales-totals:${kind}:${filterKey(filters)}`, () => readSalesTotals(scope, kind, filters));
  return readSalesTotals(scope, kind, filters);
}

/** The filters as a cache name (member-report-cache.server.ts). */
const filterKey = (filters: SalesFilters) => JSON.stringify([filters.from, filters.to, filters.store, filters.country]);

async function readSalesTotals(scope: SalesScope, kind: SalesKind, filters: SalesFilters): Promise<SalesTotalRow[]> {
  const names = scope.type === "admin" && kind === "pro" ? sql`left join users u on u.id = t.subject_id` : sql`left join profiles pr on pr.id = t.subject_id`;
  const name = scope.type === "admin" && kind === "pro" ? sql`trim(u.name || ' ' || u.last_name)` : sql`pr.name`;
  const grouped =
    scope.type === "member"
      ? sql`select subject_id, sum(lines)::int as lines, sum(amount)::text as amount, '0' as commission
          from (${memberRows(scope.memberId, kind, null, filters, "")}) b
          group by subject_id`
      : sql`select subject_id, sum(lines)::int as lines, sum(amount)::text as amount, sum(commission)::text as commission
          from (${adminRollupRows(kind, null, filters)}) b
          group by subject_id`;
  const rows = await rowsOf<{ id: number; name: string | null; lines: number; amount: string; commission: string }>(sql`
    select t.subject_id::int as id, ${name} as name, t.lines, t.amount, t.commission
    from (${grouped}) t ${names}
    order by t.amount::numeric desc, t.subject_id`);
  return rows.map((row) => ({ ...row, name: row.name ?? "" }));
}

/* ------------------------------------------------------------------ a detail page's breakdowns */

export interface SalesGroupRow {
  key: string;
  lines: number;
  amount: string;
  commission: string;
}

export interface SalesBreakdown {
  total: { lines: number; amount: string; commission: string };
  groups: Record<SalesGroup, SalesGroupRow[]>;
}

const GROUP_ORDER: Record<SalesGroup, "key" | "amount"> = { period: "key", store: "amount", country: "amount", release: "amount", track: "amount" };

/** The total and every breakdown (period, store, country, release, track) of one subject, in one statement (grouping sets). */
export async function salesBreakdown(
  scope: SalesScope,
  kind: SalesKind,
  subject: number,
  filters: SalesFilters,
  options: { rollupsFresh?: boolean } = {},
): Promise<SalesBreakdown> {
  if (scope.type === "admin" && !options.rollupsFresh) await ensureAdminSalesRollups(kind);
  if (scope.type === "member")
    return cachedMemberReport(scope.memberId, `sales-breakdown:${kind}:${subject}:${filterKey(filters)}`, () =>
      readSalesBreakdown(scope, kind, subject, filters),
    );
  return readSalesBreakdown(scope, kind, subject, filters);
}

async function readSalesBreakdown(scope: SalesScope, kind: SalesKind, subject: number, filters: SalesFilters): Promise<SalesBreakdown> {
  const dim = sql`case when grouping(period) = 0 then 'period' when grouping(store) = 0 then 'store' when grouping(country) = 0 then 'country'
             when grouping(release) = 0 then 'release' when grouping(track) = 0 then 'track' else 'total' end as dim,
           coalesce(period, store, country, release, track) as key`;
  const rows = await rowsOf<{ dim: SalesGroup | "total"; key: string | null; lines: number; amount: string; commission: string }>(
    scope.type === "member"
      ? // From the rollups (or summaries): a line counts once per track in the track breakdown, once elsewhere.
        sql`
    select case when grouping(period) = 0 then 'period' when grouping(release) = 0 then 'release' when grouping(track) = 0 then 'track' else 'total' end as dim,
           coalesce(period, release, track) as key,
           coalesce(case when grouping(track) = 0 then sum(track_lines) else sum(lines) end, 0)::int as lines,
           sum(amount)::text as amount, '0' as commission
    from (${memberRows(scope.memberId, kind, subject, filters, "")}) b
    group by grouping sets ((period), (release), (track), ())
    union all
    select 'store', store, sum(lines)::int, sum(amount)::text, '0' from (${memberRows(scope.memberId, kind, subject, filters, "store")}) b group by store
    union all
    select 'country', country, sum(lines)::int, sum(amount)::text, '0' from (${memberRows(scope.memberId, kind, subject, filters, "territory")}) b group by country`
      : sql`
    select ${dim}, coalesce(sum(lines), 0)::int as lines, sum(amount)::text as amount, sum(commission)::text as commission
    from (${adminRollupRows(kind, subject, filters)}) b
    group by grouping sets ((period), (store), (country), (release), (track), ())`,
  );
  const groups = Object.fromEntries(SALES_GROUPS.map((g) => [g, [] as SalesGroupRow[]])) as Record<SalesGroup, SalesGroupRow[]>;
  let total = { lines: 0, amount: "0", commission: "0" };
  for (const row of rows) {
    const value = { lines: row.lines, amount: row.amount ?? "0", commission: row.commission ?? "0" };
    if (row.dim === "total") total = value;
    else groups[row.dim].push({ key: row.key ?? "", ...value });
  }
  for (const group of SALES_GROUPS) {
    groups[group].sort((a, b) => {
      if (GROUP_ORDER[group] === "key") return a.key.localeCompare(b.key);
      const diff = BigInt(b.amount) - BigInt(a.amount);
      return diff === 0n ? a.key.localeCompare(b.key) : diff > 0n ? 1 : -1;
    });
  }
  return { total, groups };
}

/* ------------------------------------------------------------------ the lines behind a figure */

export interface SalesLineRow {
  lineId: number;
  importId: number;
  lineNo: number;
  period: string;
  store: string;
  country: string;
  release: string;
  track: string;
  quantity: number | null;
  /** The statement line's whole amount. */
  lineAmount: string;
  /** Member: their part of it (on that track); admin: the line's amount. */
  amount: string;
  commission: string;
}

const groupColumn: Record<SalesGroup, SQL> = {
  period: sql.raw("b.period"),
  store: sql.raw("b.store"),
  country: sql.raw("b.country"),
  release: sql.raw("b.release"),
  track: sql.raw("b.track"),
};

function linesSelect(kind: SalesKind, subject: number, query: Pick<SalesQuery, keyof SalesFilters | "group" | "key">, extraWhere?: SQL): SQL {
  const where: SQL[] = [];
  if (query.key !== null) where.push(sql`${groupColumn[query.group]} = ${query.key}`);
  if (extraWhere) where.push(extraWhere);
  return sql`
    select b.line_id::text as "lineId", b.import_id as "importId", b.line_no as "lineNo", b.period, b.store, b.country, b.release, b.track,
           b.quantity, b.line_amount::text as "lineAmount", sum(b.amount)::text as amount, sum(b.commission)::text as commission,
           min(b.sale_period_start) as sort_start
    from (${adminRows(kind, subject, query)}) b
    ${where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    group by b.line_id, b.import_id, b.line_no, b.period, b.store, b.country, b.release, b.track, b.quantity, b.line_amount`;
}

type RawLine = Omit<SalesLineRow, "lineId"> & { lineId: string };
const toLine = ({ lineId, ...row }: RawLine & { sort_start?: unknown; total?: unknown; song_id?: unknown }): SalesLineRow => {
  const { sort_start: _s, total: _t, song_id: _song, ...rest } = row;
  return { lineId: Number(lineId), ...rest };
};

/**
 * A member's lines in line order, one row per line and song, read from the postings by the index on
 * (account, source, line, song) so that a page reads about as many postings as it shows, not the member's
 * whole history: the grouping streams in index order and the filters apply as the rows go by.
 */
function memberLinesSelect(
  memberId: number,
  kind: SalesKind,
  subject: number,
  query: Pick<SalesQuery, keyof SalesFilters | "group" | "key">,
  after?: { lineId: string; songId: number },
): SQL {
  const track = sql`coalesce(s.title, sl.track_title, '')`;
  const release = sql`coalesce(r.title, sl.release_title, '')`;
  const keyExpr: Record<SalesGroup, SQL> = {
    period: sql`to_char(sl.sale_period_start, 'YYYY-MM')`,
    store: sql`sl.source`,
    country: sql`coalesce(sl.territory, '')`,
    release,
    track,
  };
  const where: SQL[] = [sql`coalesce(s.artist_id, 0) = ${subject}`];
  if (query.from) where.push(sql`sl.sale_period_start >= ${`${query.from}-01`}::date`);
  if (query.to) where.push(sql`sl.sale_period_start < ${nextMonthStart(query.to)}::date`);
  if (query.store) where.push(sql`sl.source = ${query.store}`);
  if (query.country) where.push(sql`sl.territory = ${query.country}`);
  if (query.key !== null) where.push(sql`${keyExpr[query.group]} = ${query.key}`);
  if (after) {
    // (line, song) after the cursor, in index order: songs ascending, a posting without a song last.
    where.push(sql`p.statement_line_id >= ${after.lineId}::bigint`);
    where.push(
      after.songId === 0
        ? sql`p.statement_line_id > ${after.lineId}::bigint`
        : sql`(p.statement_line_id > ${after.lineId}::bigint or p.song_id > ${after.songId} or p.song_id is null)`,
    );
  }
  // One query level (no grouped subquery), so that with a LIMIT the planner walks the index in order and
  // stops after the page instead of sorting the member's whole history.
  return sql`
    select p.statement_line_id::text as "lineId", sl.import_id as "importId", sl.line_no as "lineNo",
           to_char(sl.sale_period_start, 'YYYY-MM') as period, sl.source as store, coalesce(sl.territory, '') as country,
           ${release} as release, ${track} as track, sl.quantity, sl.amount_micros::text as "lineAmount",
           sum(p.amount_micros)::text as amount, '0' as commission, coalesce(p.song_id, 0)::int as song_id
    from postings p
    join statement_lines sl on sl.id = p.statement_line_id
    left join songs s on s.id = p.song_id
    left join releases r on r.id = sl.release_id
    where p.account_id = (select a.id from ledger_accounts a where a.kind = 'earnings' and a.user_id = ${memberId} and a.currency = 'USD')
      and p.source = ${kind} and ${sql.join(where, sql` and `)}
    group by p.statement_line_id, p.song_id, sl.id, s.id, r.id
    order by p.statement_line_id, p.song_id`;
}

/** One page of the lines behind the subject's figures (or one group's), with the count, in one statement (admin: rollups brought up to date first). */
export async function salesLinesPage(scope: SalesScope, kind: SalesKind, subject: number, query: SalesQuery): Promise<{ rows: SalesLineRow[]; total: number }> {
  if (scope.type === "member") {
    // The count from the summaries (one row per line and song), beside the page read in line order.
    const keyColumn: Record<SalesGroup, string> = { period: "period", store: "store", country: "country", release: "release", track: "track" };
    const rows = await rowsOf<RawLine & { total: number; song_id?: unknown }>(sql`
      select l.*, (select coalesce(sum(b.track_lines), 0)::int from (${memberRows(scope.memberId, kind, subject, query, dimOf(query.key !== null ? query.group : null))}) b
          ${query.key !== null ? sql`where ${sql.raw(`b.${keyColumn[query.group]}`)} = ${query.key}` : sql``}) as total
      from (${memberLinesSelect(scope.memberId, kind, subject, query)}
        limit ${LINES_PAGE_SIZE} offset ${(query.page - 1) * LINES_PAGE_SIZE}) l`);
    return { rows: rows.map(toLine), total: rows[0]?.total ?? 0 };
  }
  // The count from the rollups (a line is in one of their rows), beside the page read from the subject's lines.
  const groupKey: Record<SalesGroup, string> = { period: "period", store: "store", country: "country", release: "release", track: "track" };
  const rows = await rowsOf<RawLine & { total: number }>(sql`
    select l.*, (select coalesce(sum(b.lines), 0)::int from (${adminRollupRows(kind, subject, query)}) b
        ${query.key !== null ? sql`where ${sql.raw(`b.${groupKey[query.group]}`)} = ${query.key}` : sql``}) as total
    from (${linesSelect(kind, subject, query)}) l
    order by l.sort_start, l."importId", l."lineNo", l.track
    limit ${LINES_PAGE_SIZE} offset ${(query.page - 1) * LINES_PAGE_SIZE}`);
  return { rows: rows.map(toLine), total: rows[0]?.total ?? 0 };
}

/**
 * Every line behind the figures, in batches of `batch` rows by keyset (line id, track), so an export of
 * any size holds one batch in memory at a time and no statement stays open between batches.
 */
export async function* iterateSalesLines(
  scope: SalesScope,
  kind: SalesKind,
  subject: number,
  query: Pick<SalesQuery, keyof SalesFilters | "group" | "key">,
  batch = 2000,
): AsyncGenerator<SalesLineRow> {
  if (scope.type === "member") {
    let after: { lineId: string; songId: number } | undefined;
    for (;;) {
      const rows: Array<RawLine & { song_id: number }> = await rowsOf(sql`${memberLinesSelect(scope.memberId, kind, subject, query, after)} limit ${batch}`);
      for (const row of rows) yield toLine(row);
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      after = { lineId: last.lineId, songId: last.song_id };
    }
  }
  let after: { id: string; track: string } | null = null;
  for (;;) {
    const cursor: SQL | undefined = after ? sql`(b.line_id, b.track) > (${after.id}::bigint, ${after.track})` : undefined;
    const rows: RawLine[] = await rowsOf<RawLine>(sql`
      select l.* from (${linesSelect(kind, subject, query, cursor)}) l
      order by l."lineId"::bigint, l.track limit ${batch}`);
    for (const row of rows) yield toLine(row);
    if (rows.length < batch) return;
    const last: RawLine = rows[rows.length - 1]!;
    after = { id: last.lineId, track: last.track };
  }
}

/* ------------------------------------------------------------------ names */

/** The artist page's (or, admin PRO, the member's) name; null when there is none. 0 names the catch-all. */
export async function salesSubjectName(scope: SalesScope, kind: SalesKind, subject: number): Promise<string | null> {
  if (subject === 0) return scope.type === "admin" ? "Unmatched (suspense)" : "Not in the catalogue";
  const query =
    scope.type === "admin" && kind === "pro"
      ? sql`select trim(name || ' ' || last_name) as name from users where id = ${subject}`
      : sql`select name from profiles where id = ${subject} and type = 'artist'`;
  const [row] = await rowsOf<{ name: string }>(query);
  return row?.name ?? null;
}

/** Sums micro-unit strings exactly. */
export function sumMicros(values: Iterable<string>): string {
  let total = 0n;
  for (const value of values) total += BigInt(value);
  return total.toString();
}

/* ------------------------------------------------------------------ the pages' loaders */

export type SalesArea = "member" | "admin";

/** Where a sales page lives: member pages say "detail", admin pages "details". */
export function salesPaths(area: SalesArea, kind: SalesKind, memberId: number | null) {
  const list = area === "member" ? `/member/${memberId}/sales/${kind}` : `/admin/sales/${kind}`;
  const detail = (id: number) => (area === "member" ? `${list}/detail/artist/${id}` : `${list}/details/${kind === "pro" ? "member" : "artist"}/${id}`);
  return { list, listExport: `${list}/export.csv`, detail, detailExport: (id: number) => `${detail(id)}/export.csv` };
}

/** The subject id in a detail path: a positive id, or 0 for the catch-all (not in the catalogue / unmatched). */
export function parseSubjectId(value: string | undefined): number | null {
  if (value === "0") return 0;
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

export function salesScopeOf(area: SalesArea, memberId: number | null): SalesScope {
  return area === "member" ? { type: "member", memberId: memberId! } : { type: "admin" };
}

export interface SalesListData {
  area: SalesArea;
  kind: SalesKind;
  memberId: number | null;
  query: SalesQuery;
  /** One page of the rows (LIST_PAGE_SIZE), largest first; `count` is the number of rows in all. */
  rows: Array<SalesTotalRow & { href: string }>;
  count: number;
  pageSize: number;
  total: { lines: number; amount: string; commission: string };
  exportHref: string;
}

/** Artists (or members) shown per page of a sales list. */
export const LIST_PAGE_SIZE = 50;

export async function salesListData(area: SalesArea, kind: SalesKind, memberId: number | null, url: URL): Promise<SalesListData> {
  const query = parseSalesQuery(url.searchParams);
  const rows = await salesTotals(salesScopeOf(area, memberId), kind, query);
  const paths = salesPaths(area, kind, memberId);
  const keep = filterSearch(query);
  return {
    area,
    kind,
    memberId,
    query,
    // The totals are one grouped statement (a row per artist or member); the page shows a slice of it.
    rows: rows.slice((query.page - 1) * LIST_PAGE_SIZE, query.page * LIST_PAGE_SIZE).map((row) => ({ ...row, href: `${paths.detail(row.id)}${keep}` })),
    count: rows.length,
    pageSize: LIST_PAGE_SIZE,
    total: { lines: rows.reduce((n, r) => n + r.lines, 0), amount: sumMicros(rows.map((r) => r.amount)), commission: sumMicros(rows.map((r) => r.commission)) },
    exportHref: `${paths.listExport}${keep}`,
  };
}

/** The filters as a query string ("?from=...&store=..."), for links that keep them. */
export function filterSearch(filters: SalesFilters, extra: Record<string, string | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ from: filters.from, to: filters.to, store: filters.store, country: filters.country, ...extra })) {
    if (value !== null && value !== undefined) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export interface SalesDetailData {
  area: SalesArea;
  kind: SalesKind;
  memberId: number | null;
  subject: { id: number; name: string };
  query: SalesQuery;
  breakdown: SalesBreakdown;
  lines: { rows: SalesLineRow[]; total: number; pageSize: number };
  paths: { list: string; self: string; export: string };
}

/** A detail page: the subject's name, every breakdown and one page of lines (three statements, run together). */
export async function salesDetailData(
  area: SalesArea,
  kind: SalesKind,
  memberId: number | null,
  subjectParam: string | undefined,
  url: URL,
): Promise<SalesDetailData | null> {
  const subject = parseSubjectId(subjectParam);
  if (subject === null) return null;
  const query = parseSalesQuery(url.searchParams);
  const scope = salesScopeOf(area, memberId);
  // The admin figures' rollups brought up to date once, before the breakdown and the lines' count read them together.
  if (scope.type === "admin") await ensureAdminSalesRollups(kind);
  const [name, breakdown, lines] = await Promise.all([
    salesSubjectName(scope, kind, subject),
    salesBreakdown(scope, kind, subject, query, { rollupsFresh: true }),
    salesLinesPage(scope, kind, subject, query),
  ]);
  if (name === null) return null;
  const paths = salesPaths(area, kind, memberId);
  return {
    area,
    kind,
    memberId,
    subject: { id: subject, name },
    query,
    breakdown,
    lines: { ...lines, pageSize: LINES_PAGE_SIZE },
    paths: { list: paths.list, self: paths.detail(subject), export: paths.detailExport(subject) },
  };
}

/* ------------------------------------------------------------------ guarded loaders for the route modules */

/** A member's own figures (another member's id: requireMemberAreaAccess's 404); admins may open any member's. */
export async function memberSalesListLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  return salesListData("member", kind, memberId, new URL(request.url));
}

export async function memberSalesDetailLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  const data = await salesDetailData("member", kind, memberId, params.id, new URL(request.url));
  if (!data) throw notFound();
  return data;
}

export async function adminSalesListLoader({ request, context }: RouteArgs, kind: SalesKind) {
  requireAdminUser(request, context);
  return salesListData("admin", kind, null, new URL(request.url));
}

export async function adminSalesDetailLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  requireAdminUser(request, context);
  const data = await salesDetailData("admin", kind, null, params.id, new URL(request.url));
  if (!data) throw notFound();
  return data;
}
