import type { Db } from "~/db/client.server";
import { sql } from "drizzle-orm";
import { pgArrayLiteral, type BulkWriter } from "~/db/bulk-transaction.server";
import { journalEntries, type IncomeSource } from "~/db/schema";
import { accountKeyString, resolveAccounts, type AccountKey } from "./accounts.server";
import { addEntryToSummaries } from "./summaries.server";

/**
 * Writing to the ledger (docs/money.md "Double entry"): an entry of two or more postings that sum to zero,
 * appended, never updated. Statement imports write their one large entry in bulk (imports/); everything
 * else (matching from suspense, held shares released, payouts) goes through `postEntry`.
 */
export interface PostingInput {
  account: AccountKey;
  amountMicros: bigint;
  statementLineId?: number | null;
  source?: IncomeSource | null;
  splitVersionId?: number | null;
  songId?: number | null;
  recoupMicros?: bigint;
}

export interface EntryInput {
  /** What happened: statement_import, suspense_match, held_release, held_return, payout_... */
  kind: string;
  memo: string;
  importId?: number | null;
  reversesEntryId?: number | null;
  createdBy?: number | null;
  postings: PostingInput[];
}

export class UnbalancedEntryError extends Error {
  constructor(sum: bigint) {
    super(`A journal entry must sum to zero; this one sums to ${sum} micro-units.`);
    this.name = "UnbalancedEntryError";
  }
}

/** Throws unless the postings sum to exactly zero. */
export function assertBalanced(amounts: Iterable<bigint>): void {
  let sum = 0n;
  for (const amount of amounts) sum += amount;
  if (sum !== 0n) throw new UnbalancedEntryError(sum);
}

/** From this many postings an entry given a bulk writer goes in by COPY (a match of a code of thousands of lines). */
const COPY_FROM_POSTINGS = 2000;
const POSTING_COLUMNS = ["entry_id", "account_id", "amount_micros", "statement_line_id", "source", "split_version_id", "song_id", "recoup_micros"] as const;

/**
 * What the postings' foreign keys would have checked, once for a whole entry written by COPY without them
 * (decision 017 "Foreign keys checked once"): every account, line, song and split version named exists, and is
 * locked FOR KEY SHARE until the commit, as each foreign-key check locks it.
 */
async function checkPostingReferences(
  tx: Db,
  rows: ReadonlyArray<{ accountId: number; statementLineId: number | null; songId: number | null; splitVersionId: number | null }>,
) {
  const parents: Array<[table: string, type: string, ids: Set<number>]> = [
    ["ledger_accounts", "int", new Set(rows.map((r) => r.accountId))],
    ["statement_lines", "bigint", new Set(rows.flatMap((r) => (r.statementLineId === null ? [] : [r.statementLineId])))],
    ["songs", "int", new Set(rows.flatMap((r) => (r.songId === null ? [] : [r.songId])))],
    ["split_versions", "int", new Set(rows.flatMap((r) => (r.splitVersionId === null ? [] : [r.splitVersionId])))],
  ];
  for (const [table, type, ids] of parents) {
    if (ids.size === 0) continue;
    const found = (await tx.execute(
      sql`select count(*)::int as n from (select 1 from ${sql.identifier(table)} where id = any(${pgArrayLiteral([...ids])}::${sql.raw(type)}[]) for key share) locked`,
    )) as unknown as { rows: Array<{ n: number }> };
    if (found.rows[0]!.n !== ids.size) throw new Error(`A journal entry refers to ${ids.size - found.rows[0]!.n} ${table} rows that do not exist.`);
  }
}

/**
 * Appends one balanced entry (inside the caller's transaction). Zero postings are dropped; returns the entry id,
 * or null when nothing is left to post. With `bulk` (the caller's transaction is a bulk one) a large entry's
 * postings go in by COPY, their references checked once in a set rather than by a trigger per row.
 */
export async function postEntry(tx: Db, entry: EntryInput, options: { bulk?: BulkWriter } = {}): Promise<number | null> {
  const lines = entry.postings.filter((p) => p.amountMicros !== 0n);
  assertBalanced(lines.map((p) => p.amountMicros));
  if (lines.length === 0) return null;
  const accounts = await resolveAccounts(
    tx,
    lines.map((p) => p.account),
  );
  const [row] = await tx
    .insert(journalEntries)
    .values({
      kind: entry.kind,
      memo: entry.memo,
      importId: entry.importId ?? null,
      reversesEntryId: entry.reversesEntryId ?? null,
      createdBy: entry.createdBy ?? null,
    })
    .returning({ id: journalEntries.id, createdAt: journalEntries.createdAt });
  const rows = lines.map((p) => ({
    entryId: row!.id,
    accountId: accounts.get(accountKeyString(p.account))!,
    amountMicros: p.amountMicros,
    statementLineId: p.statementLineId ?? null,
    source: p.source ?? null,
    splitVersionId: p.splitVersionId ?? null,
    songId: p.songId ?? null,
    recoupMicros: p.recoupMicros ?? 0n,
  }));
  // The pages' running totals, in the same transaction, from the postings in hand (summaries.server.ts): read
  // before the postings are written, so "an earlier posting on the line" means an earlier entry's.
  await addEntryToSummaries(tx, row!.createdAt, rows);
  if (options.bulk && rows.length >= COPY_FROM_POSTINGS) {
    const out = options.bulk.rows("postings", POSTING_COLUMNS);
    for (const r of rows) {
      out
        .plain(r.entryId)
        .plain(r.accountId)
        .plain(r.amountMicros)
        .plain(r.statementLineId)
        .plain(r.source)
        .plain(r.splitVersionId)
        .plain(r.songId)
        .plain(r.recoupMicros)
        .end();
    }
    await options.bulk.write(out, { uncheckedReferences: true });
    if (options.bulk.referencesUnchecked) await checkPostingReferences(tx, rows);
    return row!.id;
  }
  // One statement of one text whatever the number of postings (a match of a code moves every line with it):
  // the columns as arrays, not a VALUES list of eight parameters a posting.
  const column = <T extends string | number | bigint | null>(pick: (r: (typeof rows)[number]) => T) => pgArrayLiteral(rows.map(pick));
  await tx.execute(sql`
    insert into postings (entry_id, account_id, amount_micros, statement_line_id, source, split_version_id, song_id, recoup_micros)
    select ${row!.id}::bigint, p.* from unnest(${column((r) => r.accountId)}::int[], ${column((r) => r.amountMicros)}::bigint[], ${column((r) => r.statementLineId)}::bigint[],
      ${column((r) => r.source)}::text[], ${column((r) => r.splitVersionId)}::int[], ${column((r) => r.songId)}::int[], ${column((r) => r.recoupMicros)}::bigint[]) p`);
  return row!.id;
}
