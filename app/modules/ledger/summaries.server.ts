import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * posting_summaries (schema.ts), the pages' cached totals of the postings: written in the same transaction as
 * the postings they sum (the import aggregates in memory and upserts once at its end; postEntry upserts from
 * its own postings in SQL). Every write adds: `on conflict do update set amount = amount + excluded.amount`.
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

/** Adds postings up in memory, per summary key (an import's postings: every line of it is new). */
export class SummaryAccumulator {
  private rows = new Map<string, SummaryRow>();

  add(key: SummaryKey, amount: bigint, firstOnLine: boolean, firstOnLineAndSong: boolean): void {
    // Titles are kept only where no release / song names the group.
    const k: SummaryKey = {
      ...key,
      releaseTitle: key.releaseId ? null : key.releaseTitle,
      trackTitle: key.songId ? null : key.trackTitle,
    };
    const id = [k.accountId, k.source ?? "", k.importId ?? 0, k.month, k.store ?? "", k.territory ?? "", k.songId ?? 0, k.releaseId ?? 0, k.releaseTitle ?? "", k.trackTitle ?? ""].join("\u0001");
    const row = this.rows.get(id) ?? { key: k, amount: 0n, postings: 0, lines: 0, trackLines: 0 };
    row.amount += amount;
    row.postings += 1;
    if (firstOnLine) row.lines += 1;
    if (firstOnLineAndSong) row.trackLines += 1;
    this.rows.set(id, row);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Adds the totals to posting_summaries, in statements of at most 1,000 rows. */
  async write(tx: Db): Promise<void> {
    const rows = [...this.rows.values()];
    for (let i = 0; i < rows.length; i += 1000) {
      const values = rows.slice(i, i + 1000).map(
        ({ key: k, amount, postings, lines, trackLines }) =>
          sql`(${k.accountId}::int, ${k.source ?? ""}, ${k.importId ?? 0}::int, ${k.month}::date, ${k.store ?? ""}, ${k.territory ?? ""}, ${k.songId ?? 0}::int, ${k.releaseId ?? 0}::int, ${k.releaseTitle ?? ""}, ${k.trackTitle ?? ""}, ${amount.toString()}::bigint, ${postings}::int, ${lines}::int, ${trackLines}::int)`,
      );
      await tx.execute(sql`insert into posting_summaries (${COLUMNS}) values ${sql.join(values, sql`, `)} ${ON_CONFLICT}`);
    }
  }
}

const COLUMNS = sql.raw(
  "account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines",
);
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

/** Adds the postings `where` selects (alias p) to posting_summaries (or, sign -1, takes them out), in one statement. */
export async function addToSummaries(tx: Db, where: SQL, sign: 1 | -1 = 1, linesAreNew = false): Promise<void> {
  await tx.execute(sql`insert into posting_summaries (${COLUMNS}) ${summaryRowsOf(where, sign, linesAreNew)} ${ON_CONFLICT}`);
}

/**
 * Changes a statement line's match (song, release) while keeping the summaries equal to the postings: the
 * line's postings are taken out of them, the line is updated, and they are added back under its new keys.
 */
export async function rekeyLine(tx: Db, lineId: number, update: () => Promise<unknown>): Promise<void> {
  const onLine = sql`p.statement_line_id = ${lineId}`;
  await addToSummaries(tx, onLine, -1);
  await update();
  await addToSummaries(tx, onLine, 1);
  await tx.execute(sql`delete from posting_summaries where postings = 0 and account_id in (select account_id from postings where statement_line_id = ${lineId})`);
}
