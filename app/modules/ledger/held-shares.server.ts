import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { postings, type IncomeSource } from "~/db/schema";
import { Accounts, findAccountId } from "./accounts.server";
import { postEntry, type PostingInput } from "./journal.server";

/** Serialises ledger writers that read balances imports may be changing (the import job takes it too). */
export const LEDGER_IMPORT_LOCK = 727_010;

export async function lockLedgerImports(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LEDGER_IMPORT_LOCK})`);
}

/**
 * A pending split party answered (docs/money.md "Allocation"): the money held for them moves to their earnings
 * when they accept, or to the artist page's owner when they decline, in one entry that keeps each
 * posting's source, split version and song so every figure still traces to its statement lines.
 * Runs inside the answer's transaction, after the import lock, so no import posts to the held account
 * between the read and the move.
 */
export async function releaseHeldShare(
  tx: Db,
  input: { splitPartyId: string; toUserId: number; answer: "accepted" | "declined"; actorId: number | null },
): Promise<number | null> {
  await lockLedgerImports(tx);
  const heldAccount = await findAccountId(tx, Accounts.held(input.splitPartyId));
  if (heldAccount === null) return null;
  const groups = await tx
    .select({
      lineId: postings.statementLineId,
      source: postings.source,
      splitVersionId: postings.splitVersionId,
      songId: postings.songId,
      amount: sql<string>`sum(${postings.amountMicros})::text`,
      recoup: sql<string>`sum(${postings.recoupMicros})::text`,
    })
    .from(postings)
    .where(and(eq(postings.accountId, heldAccount)))
    .groupBy(postings.statementLineId, postings.source, postings.splitVersionId, postings.songId);
  const moves: PostingInput[] = [];
  for (const group of groups) {
    const amount = BigInt(group.amount);
    if (amount === 0n) continue;
    const common = { statementLineId: group.lineId, source: group.source as IncomeSource | null, splitVersionId: group.splitVersionId, songId: group.songId };
    moves.push({ ...common, account: Accounts.held(input.splitPartyId), amountMicros: -amount, recoupMicros: -BigInt(group.recoup) });
    moves.push({ ...common, account: Accounts.earnings(input.toUserId), amountMicros: amount, recoupMicros: BigInt(group.recoup) });
  }
  return postEntry(tx, {
    kind: input.answer === "accepted" ? "held_release" : "held_return",
    memo: input.answer === "accepted" ? "Held split share released to the party who accepted" : "Held split share returned to the owner after a decline",
    createdBy: input.actorId,
    postings: moves,
  });
}
