import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { addToSummaries } from "~/modules/ledger/summaries.server";

/**
 * Grows a completed import to `target` lines, fast, for the tests of what the ledger costs at size: its lines
 * are copied in SQL (INSERT ... SELECT over generate_series) with their postings, in the import's own journal
 * entry, each copy on another store and country; the summaries and the import's figures follow. Allocation
 * depends only on a line's amount, match and period, so every entry still balances and the import still
 * shares out exactly its lines' total (bench/seed-ledger.ts grows the bench's ledger the same way).
 */
export async function growImport(importId: number, target: number): Promise<void> {
  await db().transaction(async (tx) => {
    const run = (query: ReturnType<typeof sql>) => tx.execute(query);
    const one = async <T>(query: ReturnType<typeof sql>) => ((await run(query)) as unknown as { rows: T[] }).rows[0]!;
    const { n: template, max_line: maxLine } = await one<{ n: number; max_line: number }>(
      sql`select count(*)::int as n, max(line_no)::int as max_line from statement_lines where import_id = ${importId}`,
    );
    const extra = target - template;
    if (extra <= 0) return;
    const copies = Math.ceil(extra / template);
    await run(sql`create temp table grow_template on commit drop as
      select sl.*, (row_number() over (order by sl.id) - 1)::int as idx from statement_lines sl where sl.import_id = ${importId}`);
    const { last } = await one<{ last: string }>(
      sql`select setval(pg_get_serial_sequence('statement_lines', 'id'), nextval(pg_get_serial_sequence('statement_lines', 'id')) + ${extra - 1})::text as last`,
    );
    const first = BigInt(last) - BigInt(extra) + 1n;
    await run(sql`
      insert into statement_lines (id, import_id, line_no, kind, statement_id, sale_period_start, sale_period_end, source, territory, artist,
        release_title, track_title, isrc, upc, iswc, ipi, quantity, original_amount_micros, original_currency, exchange_rate, amount_micros,
        song_id, release_id, member_id, matched_by)
      overriding system value
      select ${first.toString()}::bigint + (c - 1) * ${template} + t.idx, t.import_id, ${maxLine} + (c - 1) * ${template} + t.idx + 1, t.kind, t.statement_id,
        t.sale_period_start, t.sale_period_end, 'Store ' || ((t.idx * 7 + c * 3) % 40), 'C' || ((t.idx * 11 + c * 13) % 60), t.artist, t.release_title,
        t.track_title, t.isrc, t.upc, t.iswc, t.ipi, t.quantity, t.original_amount_micros, t.original_currency, t.exchange_rate, t.amount_micros,
        t.song_id, t.release_id, t.member_id, t.matched_by
      from generate_series(1, ${copies}) c cross join grow_template t
      where (c - 1) * ${template} + t.idx < ${extra}`);
    await run(sql`
      insert into postings (entry_id, account_id, amount_micros, currency, statement_line_id, source, split_version_id, song_id, recoup_micros)
      select p.entry_id, p.account_id, p.amount_micros, p.currency, ${first.toString()}::bigint + (c - 1) * ${template} + t.idx, p.source, p.split_version_id, p.song_id, p.recoup_micros
      from generate_series(1, ${copies}) c cross join grow_template t
      join postings p on p.statement_line_id = t.id
      where (c - 1) * ${template} + t.idx < ${extra}`);
    await addToSummaries(
      tx,
      sql`p.statement_line_id >= ${first.toString()}::bigint and p.statement_line_id < ${(first + BigInt(extra)).toString()}::bigint`,
      1,
      true,
    );
    await run(sql`
      update sales_imports si set lines = x.lines, matched = x.matched, unmatched = x.lines - x.matched, total_micros = x.total, suspense_micros = x.suspense
      from (select count(*)::int as lines, count(*) filter (where matched_by is not null)::int as matched, sum(amount_micros) as total,
              coalesce(sum(amount_micros) filter (where matched_by is null), 0) as suspense
            from statement_lines where import_id = ${importId}) x
      where si.id = ${importId}`);
  });
}
