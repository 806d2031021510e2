import type { Db } from "~/db/client.server";
import { sql } from "drizzle-orm";
import { pgArrayLiteral } from "~/db/bulk-transaction.server";
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

/** Appends one balanced entry (inside the caller's transaction). Zero postings are dropped; returns the entry id, or null when nothing is left to post. */
export async function postEntry(tx: Db, entry: EntryInput): Promise<number | null> {
  const lines = entry.postings.filter((p) => p.amountMicros !== 0n);
  assertBalanced(lines.map((p) => p.amountMicros));
  if (lines.length === 0) return null;
  const accounts = await resolveAccounts(
    tx,
    lines.map((p) => p.account),
  );
  const [row] = await tx
    .insert(journalEntries)
    .values({ kind: entry.kind, memo: entry.memo, importId: entry.importId ?? null, reversesEntryId: entry.reversesEntryId ?? null, createdBy: entry.createdBy ?? null })
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
  // One statement of one text whatever the number of postings (a match of a code moves every line with it):
  // the columns as arrays, not a VALUES list of eight parameters a posting.
  const column = <T extends string | number | bigint | null>(pick: (r: (typeof rows)[number]) => T) => pgArrayLiteral(rows.map(pick));
  await tx.execute(sql`
    insert into postings (entry_id, account_id, amount_micros, statement_line_id, source, split_version_id, song_id, recoup_micros)
    select ${row!.id}::bigint, p.* from unnest(${column((r) => r.accountId)}::int[], ${column((r) => r.amountMicros)}::bigint[], ${column((r) => r.statementLineId)}::bigint[],
      ${column((r) => r.source)}::text[], ${column((r) => r.splitVersionId)}::int[], ${column((r) => r.songId)}::int[], ${column((r) => r.recoupMicros)}::bigint[]) p`);
  return row!.id;
}
