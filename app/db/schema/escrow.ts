import { sql } from "drizzle-orm";
import { bigint } from "drizzle-orm/pg-core";

/** Escrow vocabulary shared by projects (core.ts) and post-production jobs (post-production.ts). */

/** Where the client's money is: not yet received, held in escrow, then released, refunded or split between the two. */
export const escrowFundingStatuses = ["unfunded", "funded", "released", "refunded", "split"] as const;
export type EscrowFundingStatus = (typeof escrowFundingStatuses)[number];

/**
 * How escrow was funded (decision 022): `manual` (an administrator confirmed a bank transfer), `stripe` (a paid
 * Checkout Session) or `balance` (the client's own Backline earnings). A refund goes back the way it came: to the
 * client's earnings for `balance`, out through the marketplace receipts account otherwise.
 */
export const escrowFundingMethods = ["manual", "stripe", "balance"] as const;
export type EscrowFundingMethod = (typeof escrowFundingMethods)[number];

/** The escrow's amounts, in micro-units (funded, then released, fee and refunded out of it); fresh builders per table. */
export function escrowAmountColumns() {
  const zero = () => sql`0`;
  return {
    fundedMicros: bigint("funded_micros", { mode: "bigint" }).notNull().default(zero()),
    releasedMicros: bigint("released_micros", { mode: "bigint" }).notNull().default(zero()),
    feeMicros: bigint("fee_micros", { mode: "bigint" }).notNull().default(zero()),
    refundedMicros: bigint("refunded_micros", { mode: "bigint" }).notNull().default(zero()),
  };
}
