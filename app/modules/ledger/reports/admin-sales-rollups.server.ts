import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";

/**
 * admin_sales_rollups (app/db/schema/admin-sales.ts): the admin sales pages' figures per import, so a list or a
 * detail sums a few rows per month, store, territory and match instead of every statement line ever imported
 * (docs/money.md "Cost does not grow with history"; decision 028).
 *
 * An import's rows are built from its own lines (the import's size, never the ledger's) the first time a page
 * needs them, and rebuilt when its unmatched figures (sales_imports.unmatched, suspense_micros) differ from those
 * they were built with: the only later change to what the admin pages show of a line is a match out of suspense,
 * which gives the line its song, release or member, posts its commission, and updates those figures in the same
 * transaction. Song and release titles are read when the page is, so a renamed song shows its new title.
 */

/** Imports of this kind whose rows are missing or out of date: one statement over the imports (a few a month). */
async function staleImports(executor: Db, kind: string): Promise<number[]> {
  const found = (await executor.execute(sql`
    select i.id from sales_imports i left join admin_sales_rollup_imports b on b.import_id = i.id
    where i.kind = ${kind} and i.status = 'completed'
      and (b.import_id is null or b.unmatched <> i.unmatched or b.suspense_micros <> i.suspense_micros)
    order by i.id`)) as unknown as { rows: Array<{ id: number }> };
  return found.rows.map((r) => r.id);
}

/**
 * (Re)builds one import's rows, in one transaction under a lock of that import's (two pages rebuilding at once take
 * turns; the second finds it done). Read from the import's lines by their import index and the commission posted
 * on them by the postings' line index.
 */
export async function buildAdminSalesRollups(importId: number): Promise<void> {
  await db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin_sales_rollups'), ${importId})`);
    const state = (await tx.execute(sql`
      select i.kind, i.unmatched, i.suspense_micros::text as suspense, b.unmatched as built_unmatched, b.suspense_micros::text as built_suspense
      from sales_imports i left join admin_sales_rollup_imports b on b.import_id = i.id
      where i.id = ${importId} and i.status = 'completed'`)) as unknown as {
      rows: Array<{ kind: string; unmatched: number; suspense: string; built_unmatched: number | null; built_suspense: string | null }>;
    };
    const row = state.rows[0];
    if (!row || (row.built_unmatched === row.unmatched && row.built_suspense === row.suspense)) return;
    await tx.execute(sql`delete from admin_sales_rollups where import_id = ${importId}`);
    const subject = row.kind === "pro" ? sql`coalesce(sl.member_id, 0)` : sql`coalesce(s.artist_id, r.artist_id, 0)`;
    await tx.execute(sql`
      insert into admin_sales_rollups (import_id, kind, subject_id, month, store, territory, song_id, release_id, release_title, track_title, lines, amount_micros, commission_micros)
      select ${importId}, ${row.kind}, ${subject}, date_trunc('month', sl.sale_period_start)::date, sl.source, coalesce(sl.territory, ''),
        coalesce(sl.song_id, 0), coalesce(sl.release_id, 0),
        case when sl.release_id is null then coalesce(sl.release_title, '') else '' end,
        case when sl.song_id is null then coalesce(sl.track_title, '') else '' end,
        count(*)::int, sum(sl.amount_micros), coalesce(sum(c.commission), 0)
      from statement_lines sl
      left join songs s on s.id = sl.song_id
      left join releases r on r.id = sl.release_id
      left join (
        select p.statement_line_id, sum(p.amount_micros) as commission
        from statement_lines l join postings p on p.statement_line_id = l.id
        where l.import_id = ${importId} and p.account_id in (select id from ledger_accounts where kind = 'commission')
        group by p.statement_line_id
      ) c on c.statement_line_id = sl.id
      where sl.import_id = ${importId}
      group by 3, 4, 5, 6, 7, 8, 9, 10`);
    await tx.execute(sql`
      insert into admin_sales_rollup_imports (import_id, unmatched, suspense_micros, built_at) values (${importId}, ${row.unmatched}, ${row.suspense}::bigint, now())
      on conflict (import_id) do update set unmatched = excluded.unmatched, suspense_micros = excluded.suspense_micros, built_at = excluded.built_at`);
  });
}

/** Brings the rows of every import of this kind up to date before a page reads them: one statement when they are. */
export async function ensureAdminSalesRollups(kind: string): Promise<void> {
  for (const importId of await staleImports(db(), kind)) await buildAdminSalesRollups(importId);
}
