import { sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import type { EscrowFundingMethod, Project } from "~/db/schema";
import { Accounts, type AccountKey } from "~/modules/ledger/accounts.server";
import { postEntry } from "~/modules/ledger/journal.server";
import { centsToMicros, formatCents } from "~/modules/ledger/money";
import { availableCents, lockMemberPayouts } from "~/modules/payouts/payouts.server";
import { feeCents } from "./marketplace-rules";
import { MarketplaceError } from "./marketplace-errors";

/**
 * Escrow in the ledger (docs/money.md, decisions 021 and 023): the money a client pays for work is held in an escrow
 * account of its own until it is released to the one who did the work or refunded. Projects and post-production
 * jobs both hold escrow this way; each names its account, amount, fee and parties (an `EscrowHolder`).
 *
 * - funding: the money comes from the marketplace receipts account (a bank transfer an administrator confirmed,
 *   or a paid Stripe Checkout Session) or from the client's own earnings (`balance`: spending, like a payout,
 *   so it carries no income source); escrow +amount;
 * - settlement, once: escrow −funded; the payee's earnings +(released − fee) with source `marketplace`;
 *   platform commission +fee; the refund goes back the way the money came (the client's earnings for
 *   `balance`, marketplace receipts otherwise).
 *
 * So per holder: funded = released + fee + refunded, and the escrow account is back to zero once settled.
 * Amounts are whole cents, posted in micro-units.
 */

export interface EscrowHolder {
  /** The escrow account (one per project or job). */
  account: AccountKey;
  /** "Project #12", "Post-production job #3": for memos. */
  label: string;
  amountCents: number;
  feeBps: number;
  fundedMicros: bigint;
  fundingMethod: EscrowFundingMethod | null;
  /** Who pays (and gets a refund). */
  clientId: number;
  /** Who is paid on release. */
  payeeId: number;
}

/** A post-production job's escrow account (decision 023); projects use `Accounts.escrow`. */
export const jobEscrowAccount = (jobId: number): AccountKey => ({ kind: "escrow", subKind: `post-production:${jobId}` });

export function projectEscrow(
  p: Pick<Project, "id" | "amountCents" | "feeBps" | "fundedMicros" | "fundingMethod" | "clientId" | "providerOwnerId">,
): EscrowHolder {
  return {
    account: Accounts.escrow(p.id),
    label: `Project #${p.id}`,
    amountCents: p.amountCents,
    feeBps: p.feeBps,
    fundedMicros: p.fundedMicros,
    fundingMethod: p.fundingMethod,
    clientId: p.clientId,
    payeeId: p.providerOwnerId,
  };
}

/** Where money paid in by `method` comes from, and where its refund goes back to. */
function clientSide(holder: Pick<EscrowHolder, "clientId">, method: EscrowFundingMethod): { account: AccountKey; source: "marketplace" | null } {
  // Spending from one's balance is not income lost, and a refund of it is not income earned: no source (as payouts).
  return method === "balance"
    ? { account: Accounts.earnings(holder.clientId), source: null }
    : { account: Accounts.marketplaceReceipts(), source: "marketplace" };
}

export async function postFunding(
  tx: Db,
  holder: EscrowHolder,
  method: EscrowFundingMethod,
  actorId: number,
  reference: string,
): Promise<{ entryId: number; fundedMicros: bigint }> {
  const amount = centsToMicros(BigInt(holder.amountCents));
  const from = clientSide(holder, method);
  const entryId = await postEntry(tx, {
    kind: "marketplace_funding",
    memo: `${holder.label} funded (${reference})`,
    createdBy: actorId,
    postings: [
      { account: from.account, amountMicros: -amount, source: from.source },
      { account: holder.account, amountMicros: amount, source: "marketplace" },
    ],
  });
  return { entryId: entryId!, fundedMicros: amount };
}

/**
 * Before paying `amountCents` from the client's balance: takes the member's payout lock (the one a payout request
 * takes, decision 018) for the rest of `tx`, then checks the available balance covers it. Payout requests and
 * payments from the balance of one member are so serialised, and each sees what the one before it took: the
 * balance is never overdrawn. Refused with 400 (a message for the whole form) otherwise.
 */
export async function lockBalanceFor(tx: Db, clientId: number, amountCents: number): Promise<void> {
  await lockMemberPayouts(tx, clientId);
  const available = await availableCents(clientId, tx);
  if (BigInt(amountCents) > available) {
    throw new MarketplaceError(
      400,
      `Your available balance is ${formatCents(available)}: not enough to pay ${formatCents(BigInt(amountCents))}. Pay another way, or when more income arrives.`,
    );
  }
}

export interface Settlement {
  entryId: number;
  /** What the payee earned (after the fee), the fee, and what went back to the client, in micro-units. */
  releasedMicros: bigint;
  feeMicros: bigint;
  refundedMicros: bigint;
}

/** Works out a settlement that releases `releaseCents` of the amount (the fee taken from it) and refunds the rest. */
export function settlementParts(amountCents: number, feeBps: number, releaseCents: number) {
  const amount = BigInt(amountCents);
  const release = BigInt(releaseCents);
  if (release < 0n || release > amount) throw new Error(`A settlement releases between 0 and ${amount} cents (got ${release}).`);
  const fee = feeCents(release, feeBps);
  return { releasedMicros: centsToMicros(release - fee), feeMicros: centsToMicros(fee), refundedMicros: centsToMicros(amount - release) };
}

/** Empties the holder's escrow: `releaseCents` to the payee (less the fee), the rest back to the client. */
export async function postSettlement(tx: Db, holder: EscrowHolder, releaseCents: number, actorId: number, memo: string): Promise<Settlement> {
  const parts = settlementParts(holder.amountCents, holder.feeBps, releaseCents);
  if (parts.releasedMicros + parts.feeMicros + parts.refundedMicros !== holder.fundedMicros) {
    throw new Error(`${holder.label}: the settlement does not add up to what was funded.`);
  }
  const back = clientSide(holder, holder.fundingMethod ?? "manual");
  const entryId = await postEntry(tx, {
    kind: parts.refundedMicros === 0n ? "marketplace_release" : parts.releasedMicros + parts.feeMicros === 0n ? "marketplace_refund" : "marketplace_split",
    memo,
    createdBy: actorId,
    postings: [
      { account: holder.account, amountMicros: -holder.fundedMicros, source: "marketplace" },
      { account: Accounts.earnings(holder.payeeId), amountMicros: parts.releasedMicros, source: "marketplace" },
      { account: Accounts.commission(), amountMicros: parts.feeMicros, source: "marketplace" },
      { account: back.account, amountMicros: parts.refundedMicros, source: back.source },
    ],
  });
  return { entryId: entryId!, ...parts };
}

/** An escrow account's balance (what is still held), in micro-units, from the postings. One statement. */
export async function escrowAccountBalanceMicros(account: AccountKey, executor: Db = db()): Promise<bigint> {
  const result = await executor.execute(sql`
    select coalesce(sum(p.amount_micros), 0)::text as balance
    from ledger_accounts a join postings p on p.account_id = a.id
    where a.kind = 'escrow' and a.sub_kind = ${account.subKind ?? ""} and a.currency = 'USD'`);
  return BigInt((result as unknown as { rows: Array<{ balance: string }> }).rows[0]!.balance);
}

/** A project's escrow balance, in micro-units. One statement. */
export function escrowBalanceMicros(projectId: number, executor: Db = db()): Promise<bigint> {
  return escrowAccountBalanceMicros(Accounts.escrow(projectId), executor);
}
