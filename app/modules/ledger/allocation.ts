/**
 * Exact division of a statement line's money (micro-units, bigint). Nothing here rounds money away:
 * every function returns parts that sum exactly to what came in (docs/money.md "Allocation").
 *
 * Rules (for the decision record):
 *
 * 1. Largest remainder. A line is split in proportion to integer weights (basis points): every party
 *    gets the floor of its exact share, and the few micro-units left over go one each to the largest
 *    remainders, ties to the earlier party in the split's order (deterministic, so a re-run posts the
 *    same figures). A negative line is split on its magnitude and negated, so a refund is the exact
 *    mirror image of the sale it reverses.
 *
 * 2. Platform commission. commission = line x bps / 10,000, rounded half-to-even on the magnitude with
 *    the sign mirrored; the net is the line minus the commission, so the two sum exactly to the line.
 *
 * 3. Recoup before percentages. A split version may name one party who recovers a flat amount
 *    (an advance, studio costs) out of the net of the lines allocated under that version before the
 *    percentages apply. It is kept as one running figure, "recouped so far", in [0, amount]:
 *    - a positive line first fills what is left to recoup (amount - recouped so far, never below 0)
 *      to the recoup party; the rest is shared by percentage (rule 1);
 *    - a negative line (refund, correction) first reduces the recouped total, down to zero at most,
 *      taking that part back from the recoup party; the rest is shared by percentage (rule 1).
 *    This reads a recoup clause as "the recoup party is owed the first `amount` of the version's net
 *    receipts", evaluated line by line with the one running figure the ledger keeps: money taken back
 *    comes first out of that first slice. Consequences:
 *    - a sale and its full refund cancel exactly for every party, and the recouped total returns to its
 *      start, whenever the recouped total was zero before the sale or the sale went wholly to recoup;
 *    - once the recoup is complete, a later refund reopens it (the recoup party bears the refund first)
 *      and the next income refills it before percentages resume. When the recoup is complete again the
 *      recoup party has recovered exactly `amount` and the percentage parties have shared everything
 *      else, as if the refund had been netted against the sale it reverses;
 *    - no micro-unit is created or lost at any step: the parts always sum exactly to the line.
 *    The recoup party must be one of the split's parties (it may hold 0 bps if it takes only the recoup).
 */

export interface SplitParty {
  key: string;
  /** Basis points; a split's shares sum to exactly 10,000. */
  shareBps: number;
}

export interface RecoupState {
  partyKey: string;
  /** The flat amount to recover, in micro-units (>= 0). */
  amountMicros: bigint;
  /** What earlier lines under this version already took for it (>= 0). */
  recoupedSoFarMicros: bigint;
}

export interface AllocatedPart {
  key: string;
  /** The party's whole part of the line, recoup included. */
  amountMicros: bigint;
  /** How much of amountMicros is recoup (negative when a refund takes recoup back). */
  recoupMicros: bigint;
}

export interface SplitAllocation {
  /** One part per party, in the split's order; they sum exactly to the line. */
  parts: AllocatedPart[];
  /** How much of this line went to recoup (negative for a refund that took recoup back). */
  recoupedMicros: bigint;
}

export const TOTAL_BPS = 10_000;

/** Splits amount in proportion to weights so that the parts sum exactly to amount (rule 1 above). */
export function largestRemainder(amount: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) throw new Error("largestRemainder needs at least one weight.");
  let total = 0n;
  for (const weight of weights) {
    if (weight < 0n) throw new Error(`largestRemainder weights must not be negative (got ${weight}).`);
    total += weight;
  }
  if (total === 0n) throw new Error("largestRemainder weights must not all be zero.");

  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const parts: bigint[] = [];
  const remainders: bigint[] = [];
  let given = 0n;
  for (const weight of weights) {
    const exact = magnitude * weight;
    const floor = exact / total;
    parts.push(floor);
    remainders.push(exact % total);
    given += floor;
  }

  // The leftover is smaller than the number of parts with a non-zero remainder, so a zero weight never
  // receives a unit.
  let leftover = magnitude - given;
  if (leftover > 0n) {
    const order = weights.map((_, index) => index);
    order.sort((a, b) => (remainders[a] === remainders[b] ? a - b : remainders[a] > remainders[b] ? -1 : 1));
    for (const index of order) {
      if (leftover === 0n) break;
      parts[index] += 1n;
      leftover -= 1n;
    }
  }
  return negative ? parts.map((part) => -part) : parts;
}

function assertBps(bps: number, what: string): void {
  if (!Number.isInteger(bps) || bps < 0 || bps > TOTAL_BPS) {
    throw new Error(`${what} must be a whole number of basis points from 0 to 10000 (got ${bps}).`);
  }
}

/** Platform commission on a line, rounded half-to-even, and the net that remains (rule 2 above). */
export function commissionSplit(amount: bigint, commissionBps: number): { commission: bigint; net: bigint } {
  assertBps(commissionBps, "commissionBps");
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const exact = magnitude * BigInt(commissionBps);
  const divisor = BigInt(TOTAL_BPS);
  let commission = exact / divisor;
  const twiceRemainder = (exact % divisor) * 2n;
  if (twiceRemainder > divisor || (twiceRemainder === divisor && commission % 2n === 1n)) commission += 1n;
  if (negative) commission = -commission;
  return { commission, net: amount - commission };
}

/** Throws unless the parties have distinct keys and whole-bps shares summing to exactly 10,000. */
export function assertValidSplit(parties: readonly SplitParty[]): void {
  if (parties.length === 0) throw new Error("A split needs at least one party.");
  const seen = new Set<string>();
  let total = 0;
  for (const party of parties) {
    if (seen.has(party.key)) throw new Error(`A split lists the party “${party.key}” twice.`);
    seen.add(party.key);
    assertBps(party.shareBps, `The share of “${party.key}”`);
    total += party.shareBps;
  }
  if (total !== TOTAL_BPS) throw new Error(`A split's shares must sum to 10000 basis points (got ${total}).`);
}

/**
 * Shares a line's net (after commission) among a split version's parties, recoup first (rule 3 above).
 * The caller carries recoupedSoFarMicros forward: next = recoupedSoFarMicros + result.recoupedMicros.
 */
export function allocateToSplit(netMicros: bigint, parties: readonly SplitParty[], recoup: RecoupState | null): SplitAllocation {
  assertValidSplit(parties);

  let recouped = 0n;
  let recoupIndex = -1;
  if (recoup) {
    recoupIndex = parties.findIndex((party) => party.key === recoup.partyKey);
    if (recoupIndex === -1) throw new Error(`The recoup party “${recoup.partyKey}” is not one of the split's parties.`);
    if (recoup.amountMicros < 0n) throw new Error("A recoup amount must not be negative.");
    if (recoup.recoupedSoFarMicros < 0n) throw new Error("The amount recouped so far must not be negative.");

    if (netMicros > 0n) {
      const outstanding = recoup.amountMicros - recoup.recoupedSoFarMicros;
      recouped = outstanding > 0n ? (netMicros < outstanding ? netMicros : outstanding) : 0n;
    } else if (netMicros < 0n) {
      const takeBack = -netMicros < recoup.recoupedSoFarMicros ? -netMicros : recoup.recoupedSoFarMicros;
      recouped = -takeBack;
    }
  }

  const shared = largestRemainder(
    netMicros - recouped,
    parties.map((party) => BigInt(party.shareBps)),
  );
  const parts = parties.map((party, index) => ({
    key: party.key,
    amountMicros: shared[index] + (index === recoupIndex ? recouped : 0n),
    recoupMicros: index === recoupIndex ? recouped : 0n,
  }));
  return { parts, recoupedMicros: recouped };
}
