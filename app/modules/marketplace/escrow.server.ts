import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import type { Project } from "~/db/schema";
import { Accounts } from "~/modules/ledger/accounts.server";
import { postEntry } from "~/modules/ledger/journal.server";
import { centsToMicros } from "~/modules/ledger/money";
import { feeCents } from "./marketplace-rules";

/**
 * The marketplace's money in the ledger (docs/money.md, decision 021). Each project has its own escrow account
 * (`escrow`, sub-kind `project:{id}`):
 *
 * - funding (an administrator confirms the client's money arrived): marketplace receipts −amount, escrow +amount;
 * - settlement, once: escrow −funded; the provider's earnings +(released − fee) with source `marketplace`;
 *   platform commission +fee; marketplace receipts +refund (the money goes back to the client).
 *
 * So per project: funded = released + fee + refunded, and the escrow account is back to zero once settled.
 * Amounts are whole cents, posted in micro-units.
 */

export async function postFunding(tx: Db, project: Pick<Project, "id" | "amountCents">, actorId: number, reference: string): Promise<{ entryId: number; fundedMicros: bigint }> {
  const amount = centsToMicros(BigInt(project.amountCents));
  const entryId = await postEntry(tx, {
    kind: "marketplace_funding",
    memo: `Project #${project.id} funded (${reference})`,
    createdBy: actorId,
    postings: [
      { account: Accounts.marketplaceReceipts(), amountMicros: -amount, source: "marketplace" },
      { account: Accounts.escrow(project.id), amountMicros: amount, source: "marketplace" },
    ],
  });
  return { entryId: entryId!, fundedMicros: amount };
}

export interface Settlement {
  entryId: number;
  /** What the provider earned (after the fee), the fee, and what went back to the client, in micro-units. */
  releasedMicros: bigint;
  feeMicros: bigint;
  refundedMicros: bigint;
}

/** Works out a settlement that releases `releaseCents` of the project's amount (the fee taken from it) and refunds the rest. */
export function settlementParts(amountCents: number, feeBps: number, releaseCents: number) {
  const amount = BigInt(amountCents);
  const release = BigInt(releaseCents);
  if (release < 0n || release > amount) throw new Error(`A settlement releases between 0 and ${amount} cents (got ${release}).`);
  const fee = feeCents(release, feeBps);
  return { releasedMicros: centsToMicros(release - fee), feeMicros: centsToMicros(fee), refundedMicros: centsToMicros(amount - release) };
}

/** Empties the project's escrow: `releaseCents` to the provider (less the fee), the rest back to the client. */
export async function postSettlement(
  tx: Db,
  project: Pick<Project, "id" | "amountCents" | "feeBps" | "fundedMicros" | "providerOwnerId">,
  releaseCents: number,
  actorId: number,
  memo: string,
): Promise<Settlement> {
  const parts = settlementParts(project.amountCents, project.feeBps, releaseCents);
  if (parts.releasedMicros + parts.feeMicros + parts.refundedMicros !== project.fundedMicros) {
    throw new Error(`Project #${project.id}: the settlement does not add up to what was funded.`);
  }
  const entryId = await postEntry(tx, {
    kind: parts.refundedMicros === 0n ? "marketplace_release" : parts.releasedMicros + parts.feeMicros === 0n ? "marketplace_refund" : "marketplace_split",
    memo,
    createdBy: actorId,
    postings: [
      { account: Accounts.escrow(project.id), amountMicros: -project.fundedMicros, source: "marketplace" },
      { account: Accounts.earnings(project.providerOwnerId), amountMicros: parts.releasedMicros, source: "marketplace" },
      { account: Accounts.commission(), amountMicros: parts.feeMicros, source: "marketplace" },
      { account: Accounts.marketplaceReceipts(), amountMicros: parts.refundedMicros, source: "marketplace" },
    ],
  });
  return { entryId: entryId!, ...parts };
}

/** The project's escrow balance (what is still held), in micro-units, from the postings. One statement. */
export async function escrowBalanceMicros(projectId: number, executor: Db = db()): Promise<bigint> {
  const result = await executor.execute(sql`
    select coalesce(sum(p.amount_micros), 0)::text as balance
    from ledger_accounts a join postings p on p.account_id = a.id
    where a.kind = 'escrow' and a.sub_kind = ${`project:${projectId}`} and a.currency = 'USD'`);
  return BigInt((result as unknown as { rows: Array<{ balance: string }> }).rows[0]!.balance);
}
