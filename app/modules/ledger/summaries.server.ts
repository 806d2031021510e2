import { sql, type SQL } from "drizzle-orm";
import { pgArrayLiteral, type BulkWriter } from "~/db/bulk-transaction.server";
import type { Db } from "~/db/client.server";

/**
 * posting_summaries (app/db/schema/core.ts), the pages' cached totals of the postings: written in the same transaction as
 * the postings they sum. The import aggregates in memory and copies its rows in once at its end (its keys are
 * all new: they carry its id); postEntry and rekeyLine add from the postings in SQL, where every write adds:
 * `on conflict do update set amount = amount + excluded.amount`.
 */
export interface SummaryKey {
  accountId: number;
  source: string | null;
  importId: number | null;
  /** "YYYY-MM-01" */
  month: string;
  store: string | null;
  territory: string | null;
  songId: number | null;
  releaseId: number | null;
  releaseTitle: string | null;
  trackTitle: string | null;
}

interface SummaryRow {
  key: SummaryKey;
  amount: bigint;
  postings: number;
  lines: number;
  trackLines: number;
}

/** The first day of the month of a "YYYY-MM-DD" date. */
export const monthOf = (date: string) => `${date.slice(0, 7)}-01`;

/** The part of a summary key that a statement line gives all its postings (prepared once per line). */
export interface SummaryLinePart {
  importId: number | null;
  month: string;
  store: string | null;
  territory: string | null;
  releaseId: number | null;
  /** Kept only where no release names the group (see add). */
  releaseTitle: string | null;
  trackTitle: string | null;
  /** The identity of the fields above but the track title, as a string (see SummaryAccumulator.linePart). */
  id: string;
}

const SEP = "\u0001";

/** Adds postings up in memory, per summary key (an import's postings: every line of it is new). */
export class SummaryAccumulator {
  private rows = new Map<string, SummaryRow>();

  /** The line's part of its postings' keys: titles are kept only where no release / song names the group. */
  linePart(part: Omit<SummaryLinePart, "id">): SummaryLinePart {
    const releaseTitle = part.releaseId ? null : part.releaseTitle;
    return {
      ...part,
      releaseTitle,
      // Without the track title, which only postings without a song keep (see addPosting).
      id: `${part.importId ?? 0}${SEP}${part.month}${SEP}${part.store ?? ""}${SEP}${part.territory ?? ""}${SEP}${part.releaseId ?? 0}${SEP}${releaseTitle ?? ""}`,
    };
  }

  /** One posting of a line (see linePart): its account, source and song complete the key. */
  addPosting(
    line: SummaryLinePart,
    accountId: number,
    source: string | null,
    songId: number | null,
    amount: bigint,
    firstOnLine: boolean,
    firstOnLineAndSong: boolean,
  ): void {
    // The track title is part of the key only when no song names the group.
    const id = songId
      ? `${accountId}${SEP}${source ?? ""}${SEP}${songId}${SEP}${line.id}`
      : `${accountId}${SEP}${source ?? ""}${SEP}0${SEP}${line.id}${SEP}${line.trackTitle ?? ""}`;
    let row = this.rows.get(id);
    if (!row) {
      row = {
        key: {
          accountId,
          source,
          importId: line.importId,
          month: line.month,
          store: line.store,
          territory: line.territory,
          songId,
          releaseId: line.releaseId,
          releaseTitle: line.releaseTitle,
          trackTitle: songId ? null : line.trackTitle,
        },
        amount: 0n,
        postings: 0,
        lines: 0,
        trackLines: 0,
      };
      this.rows.set(id, row);
    }
    row.amount += amount;
    row.postings += 1;
    if (firstOnLine) row.lines += 1;
    if (firstOnLineAndSong) row.trackLines += 1;
  }

  get size(): number {
    return this.rows.size;
  }

  /**
   * Writes the totals of one import's postings to posting_summaries in bulk (COPY on PostgreSQL). Every key
   * carries the import's id, so no row has it yet: they are new rows, not additions (a second write of the
   * same import fails on the primary key and rolls the import back). The rollups' trigger runs as for any insert.
   */
  async writeNewImport(bulk: BulkWriter): Promise<void> {
    const out = bulk.rows("posting_summaries", SUMMARY_COLUMNS);
    for (const { key, amount, postings, lines, trackLines } of this.rows.values()) {
      if (key.importId === null) throw new Error("writeNewImport: a summary row without its import");
      out
        .plain(key.accountId)
        .text(key.source ?? "")
        .plain(key.importId)
        .plain(key.month)
        .text(key.store ?? "")
        .text(key.territory ?? "")
        .plain(key.songId ?? 0)
        .plain(key.releaseId ?? 0)
        .text(key.releaseTitle ?? "")
        .text(key.trackTitle ?? "")
        .plain(amount)
        .plain(postings)
        .plain(lines)
        .plain(trackLines)
        .end();
    }
    await bulk.write(out);
  }
}

const SUMMARY_COLUMNS = [
  "account_id",
  "source",
  "import_id",
  "month",
  "store",
  "territory",
  "song_id",
  "release_id",
  "release_title",
  "track_title",
  "amount_micros",
  "postings",
  "lines",
  "track_lines",
] as const;
const COLUMNS = sql.raw(SUMMARY_COLUMNS.join(", "));
const ON_CONFLICT = sql.raw(`on conflict on constraint posting_summaries_pk do update set
  amount_micros = posting_summaries.amount_micros + excluded.amount_micros,
  postings = posting_summaries.postings + excluded.postings,
  lines = posting_summaries.lines + excluded.lines,
  track_lines = posting_summaries.track_lines + excluded.track_lines`);

/**
 * The summary rows of the postings `where` selects (alias p), computed from the postings themselves: their
 * line's month, store, territory, release and titles read in one query. A posting counts as its account's
 * first on its line (and song) when no posting of lower id on the same account and line (and song) exists.
 * Used by postEntry (one entry's postings), the migration's backfill and the bench seed.
 */
export function summaryRowsOf(where: SQL, sign: 1 | -1 = 1, linesAreNew = false): SQL {
  const m = sql.raw(String(sign));
  // Postings on lines no other posting is on (bulk copies): the first of each account on a line by a window.
  if (linesAreNew) {
    return sql`
    select p.account_id, coalesce(p.source, '') as source, coalesce(sl.import_id, 0) as import_id,
      coalesce(date_trunc('month', sl.sale_period_start)::date, date_trunc('month', je.created_at at time zone 'UTC')::date) as month,
      coalesce(sl.source, '') as store, coalesce(sl.territory, '') as territory, coalesce(p.song_id, 0) as song_id,
      coalesce(sl.release_id, 0) as release_id,
      case when sl.release_id is null then coalesce(sl.release_title, '') else '' end as release_title,
      case when p.song_id is null then coalesce(sl.track_title, '') else '' end as track_title,
      ${m} * sum(p.amount_micros) as amount_micros, ${m} * count(*)::int as postings,
      ${m} * (count(*) filter (where p.statement_line_id is not null and p.rn_line = 1))::int as lines,
      ${m} * (count(*) filter (where p.statement_line_id is not null and p.rn_song = 1))::int as track_lines
    from (
      select p.*, row_number() over (partition by p.account_id, p.statement_line_id order by p.id) as rn_line,
        row_number() over (partition by p.account_id, p.statement_line_id, p.song_id order by p.id) as rn_song
      from postings p where ${where}
    ) p
    join journal_entries je on je.id = p.entry_id
    left join statement_lines sl on sl.id = p.statement_line_id
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;
  }
  return sql`
    select p.account_id, coalesce(p.source, '') as source, coalesce(sl.import_id, 0) as import_id,
      coalesce(date_trunc('month', sl.sale_period_start)::date, date_trunc('month', je.created_at at time zone 'UTC')::date) as month,
      coalesce(sl.source, '') as store, coalesce(sl.territory, '') as territory, coalesce(p.song_id, 0) as song_id,
      coalesce(sl.release_id, 0) as release_id,
      case when sl.release_id is null then coalesce(sl.release_title, '') else '' end as release_title,
      case when p.song_id is null then coalesce(sl.track_title, '') else '' end as track_title,
      ${m} * sum(p.amount_micros) as amount_micros, ${m} * count(*)::int as postings,
      ${m} * (count(*) filter (where p.statement_line_id is not null and not exists (
        select 1 from postings q where q.account_id = p.account_id and q.statement_line_id = p.statement_line_id and q.id < p.id)))::int as lines,
      ${m} * (count(*) filter (where p.statement_line_id is not null and not exists (
        select 1 from postings q where q.account_id = p.account_id and q.statement_line_id = p.statement_line_id
          and q.song_id is not distinct from p.song_id and q.id < p.id)))::int as track_lines
    from postings p
    join journal_entries je on je.id = p.entry_id
    left join statement_lines sl on sl.id = p.statement_line_id
    where ${where}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;
}

/** One posting of an entry, as postEntry writes it (its account resolved). */
export interface EntryPosting {
  accountId: number;
  source: string | null;
  songId: number | null;
  statementLineId: number | null;
  amountMicros: bigint;
  /** The entry's id (postEntry's postings carry it): the members it touches are recorded for the report cache. */
  entryId?: number;
}

interface LineKeyPart {
  importId: number;
  month: string;
  store: string;
  territory: string;
  releaseId: number;
  releaseTitle: string;
  trackTitle: string;
}

/**
 * Adds one entry's postings to posting_summaries: the rows `summaryRowsOf` would compute, worked out here from
 * what the caller holds, so no statement joins the postings to the lines. Called by postEntry before it writes
 * the postings. The lines named (a match out of suspense, a held share's move) are read by their ids, and
 * whether an account has a posting on them already (which decides whether this one counts the line) by the
 * postings' line index: at most three statements, each planned on a primary key or an index whatever the size
 * of the ledger (docs/money.md "Cost does not grow with history"; decision 028). `writtenAsEntry`: the postings
 * are written already, as this entry (set-based writers), so its own postings are not "earlier".
 */
export async function addEntryToSummaries(tx: Db, createdAt: Date | string, entryPostings: readonly EntryPosting[], writtenAsEntry?: number): Promise<void> {
  const lineIds = [...new Set(entryPostings.flatMap((p) => (p.statementLineId === null ? [] : [p.statementLineId])))];
  const lines = new Map<number, LineKeyPart>();
  /** "account|line" and "account|line|song" that an earlier posting counted already. */
  const counted = new Set<string>();
  if (lineIds.length > 0) {
    const ids = pgArrayLiteral(lineIds);
    const found = (await tx.execute(sql`
      select id, import_id, sale_period_start::text as start, source, territory, release_id, release_title, track_title
      from statement_lines where id = any(${ids}::bigint[])`)) as unknown as {
      rows: Array<{
        id: string | number;
        import_id: number;
        start: string;
        source: string;
        territory: string | null;
        release_id: number | null;
        release_title: string | null;
        track_title: string | null;
      }>;
    };
    for (const l of found.rows) {
      lines.set(Number(l.id), {
        importId: l.import_id,
        month: monthOf(l.start),
        store: l.source ?? "",
        territory: l.territory ?? "",
        releaseId: l.release_id ?? 0,
        releaseTitle: l.release_id === null ? (l.release_title ?? "") : "",
        trackTitle: l.track_title ?? "",
      });
    }
    const accounts = pgArrayLiteral([...new Set(entryPostings.map((p) => p.accountId))]);
    const earlier = (await tx.execute(sql`
      select account_id, statement_line_id, song_id from postings
      where statement_line_id = any(${ids}::bigint[]) and account_id = any(${accounts}::int[]) ${writtenAsEntry === undefined ? sql`` : sql`and entry_id <> ${writtenAsEntry}`}
      group by account_id, statement_line_id, song_id`)) as unknown as {
      rows: Array<{ account_id: number; statement_line_id: string | number; song_id: number | null }>;
    };
    for (const e of earlier.rows) {
      counted.add(`${e.account_id}|${e.statement_line_id}`);
      counted.add(`${e.account_id}|${e.statement_line_id}|${e.song_id ?? ""}`);
    }
  }
  // The entry's month in UTC (a Date, or the "YYYY-MM-01" the database worked out).
  const entryMonth = typeof createdAt === "string" ? createdAt : `${createdAt.toISOString().slice(0, 7)}-01`;
  const rows = new Map<string, { key: unknown[]; amount: bigint; postings: number; lines: number; trackLines: number }>();
  for (const p of entryPostings) {
    const line = p.statementLineId === null ? undefined : lines.get(p.statementLineId);
    if (p.statementLineId !== null && !line) throw new Error(`Statement line ${p.statementLineId} does not exist.`);
    const key = [
      p.accountId,
      p.source ?? "",
      line?.importId ?? 0,
      line?.month ?? entryMonth,
      line?.store ?? "",
      line?.territory ?? "",
      p.songId ?? 0,
      line?.releaseId ?? 0,
      line?.releaseTitle ?? "",
      p.songId === null ? (line?.trackTitle ?? "") : "",
    ];
    const id = JSON.stringify(key);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { key, amount: 0n, postings: 0, lines: 0, trackLines: 0 }));
    row.amount += p.amountMicros;
    row.postings += 1;
    if (p.statementLineId !== null) {
      const onLine = `${p.accountId}|${p.statementLineId}`;
      const onSong = `${onLine}|${p.songId ?? ""}`;
      if (!counted.has(onLine)) row.lines += 1;
      if (!counted.has(onSong)) row.trackLines += 1;
      counted.add(onLine);
      counted.add(onSong);
    }
  }
  if (rows.size === 0) return;
  const all = [...rows.values()];
  const column = (i: number) => pgArrayLiteral(all.map((r) => r.key[i] as string | number));
  const entryId = writtenAsEntry ?? entryPostings[0]?.entryId;
  await tx.execute(sql`
    ${entryId === undefined ? sql`` : sql`with touched as (${memberChanges(entryId, [...new Set(entryPostings.map((p) => p.accountId))])})`}
    insert into posting_summaries (${COLUMNS})
    select * from unnest(${column(0)}::int[], ${column(1)}::text[], ${column(2)}::int[], ${column(3)}::date[], ${column(4)}::text[], ${column(5)}::text[],
      ${column(6)}::int[], ${column(7)}::int[], ${column(8)}::text[], ${column(9)}::text[], ${pgArrayLiteral(all.map((r) => r.amount))}::bigint[],
      ${pgArrayLiteral(all.map((r) => r.postings))}::int[], ${pgArrayLiteral(all.map((r) => r.lines))}::int[], ${pgArrayLiteral(all.map((r) => r.trackLines))}::int[])
    ${ON_CONFLICT}`);
}

/**
 * Records that the entry touched the members who own its accounts, or whose split party holds one of its held
 * accounts (linked to them, or addressed to their verified email, as the income report counts held money): the per-member
 * report cache's key (reports/member-report-cache.server.ts). A data-modifying CTE of the summaries' insert, so no
 * statement is added to an entry; insert-only, so two entries for one member never wait on each other's row.
 */
function memberChanges(entryId: number, accountIds: number[]): SQL {
  const ids = pgArrayLiteral(accountIds);
  return sql`
    insert into member_ledger_changes (user_id, entry_id)
    select distinct m.user_id, ${entryId}::bigint from (
      select a.user_id from ledger_accounts a where a.id = any(${ids}::int[]) and a.user_id is not null
      union all
      select coalesce(sp.user_id, u.id) from ledger_accounts a join split_parties sp on sp.id = a.split_party_id
        left join users u on sp.user_id is null and lower(u.email) = lower(sp.email) and u.email_verified_at is not null
      where a.id = any(${ids}::int[]) and a.split_party_id is not null
    ) m where m.user_id is not null
    on conflict do nothing`;
}

/** Adds the postings `where` selects (alias p) to posting_summaries (or, sign -1, takes them out), in one statement. */
export async function addToSummaries(tx: Db, where: SQL, sign: 1 | -1 = 1, linesAreNew = false): Promise<void> {
  await tx.execute(sql`insert into posting_summaries (${COLUMNS}) ${summaryRowsOf(where, sign, linesAreNew)} ${ON_CONFLICT}`);
}

/**
 * Changes statement lines' match (song, release) while keeping the summaries equal to the postings: the lines'
 * postings are taken out of them, the lines are updated, and they are added back under their new keys. Three
 * statements whatever the number of lines (`lineIds`: an array literal of their ids), each reading the postings
 * by their line index.
 */
export async function rekeyLines(tx: Db, lineIds: string, update: () => Promise<unknown>): Promise<void> {
  const onLines = sql`p.statement_line_id = any(${lineIds}::bigint[])`;
  await addToSummaries(tx, onLines, -1);
  await update();
  await addToSummaries(tx, onLines, 1);
  await tx.execute(
    sql`delete from posting_summaries where postings = 0 and account_id in (select account_id from postings where statement_line_id = any(${lineIds}::bigint[]))`,
  );
}
