/**
 * Payout arithmetic, pure (decision 018): the method fee, the tax withholding, the net and the next pay date,
 * in whole cents (bigint). Payouts move whole cents (docs/money.md), so every part is rounded to a cent once, here,
 * half-to-even like the rest of the ledger, and net = amount - fee - withholding exactly.
 */
import type { PayoutMethod, TaxForm } from "~/db/schema";

export type PaySchedule = { frequency: "weekly"; weekday: number } | { frequency: "monthly"; day: number };

export interface MethodFee {
  fixedCents: bigint;
  /** A percentage of the amount, in basis points. */
  bps: number;
}

export interface PayoutConfig {
  minPayoutCents: bigint;
  fees: Record<PayoutMethod, MethodFee>;
  schedule: PaySchedule;
}

/** What a member's tax status is made of: their tax residence and the declaration in force, if any. */
export interface TaxStatus {
  /** ISO 3166-1 alpha-2, from the payout account; null when the member has not said. */
  country: string | null;
  /** The declaration in force (its form and the country it certifies), or null. */
  declaration: { form: TaxForm; country: string } | null;
}

export const DEFAULT_MIN_PAYOUT_CENTS = 1_000n;
/** Friday, every week. */
export const DEFAULT_PAY_SCHEDULE: PaySchedule = { frequency: "weekly", weekday: 5 };
/** Manual bank transfers cost the member nothing; Stripe Connect passes on Stripe's payout fee (0.25% + $0.25). */
export const DEFAULT_METHOD_FEES: Record<PayoutMethod, MethodFee> = {
  manual: { fixedCents: 0n, bps: 0 },
  stripe: { fixedCents: 25n, bps: 25 },
};
export const DEFAULT_PAYOUT_CONFIG: PayoutConfig = { minPayoutCents: DEFAULT_MIN_PAYOUT_CENTS, fees: DEFAULT_METHOD_FEES, schedule: DEFAULT_PAY_SCHEDULE };

/** US backup withholding without a W-9; 30% for a foreign person without a W-8 (IRS Chapter 3). */
export const US_BACKUP_WITHHOLDING_BPS = 2_400;
export const NON_US_WITHHOLDING_BPS = 3_000;

/**
 * The withholding rate for a tax status, in basis points:
 * - a declaration in force that matches the residence (a W-9 for a US resident, a W-8 for anyone else): 0;
 * - otherwise a US resident: 24%; anyone else, or a member whose residence is not known: 30%.
 * The residence is the payout account's country, else the declaration's.
 */
export function withholdingBps(status: TaxStatus): number {
  const country = status.country ?? status.declaration?.country ?? null;
  const isUs = country === "US";
  const declaration = status.declaration;
  if (declaration && declaration.country === country) {
    if (isUs && declaration.form === "w9") return 0;
    if (!isUs && country !== null && declaration.form === "w8") return 0;
  }
  return isUs ? US_BACKUP_WITHHOLDING_BPS : NON_US_WITHHOLDING_BPS;
}

/** n * bps / 10,000 rounded half-to-even, for n >= 0. */
export function bpsOfCents(cents: bigint, bps: number): bigint {
  if (cents < 0n) throw new RangeError("bpsOfCents takes a non-negative amount.");
  const exact = cents * BigInt(bps);
  const quotient = exact / 10_000n;
  const twice = (exact % 10_000n) * 2n;
  if (twice > 10_000n || (twice === 10_000n && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

export function methodFeeCents(amountCents: bigint, fee: MethodFee): bigint {
  return fee.fixedCents + bpsOfCents(amountCents, fee.bps);
}

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The first pay day strictly after `now`'s UTC day: a request made on a Friday is paid the next Friday, so
 * the administrators always have the pay day's queue whole before they pay it.
 */
export function nextPayDate(schedule: PaySchedule, now: Date): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (schedule.frequency === "weekly") {
    const weekday = new Date(today).getUTCDay();
    const ahead = (schedule.weekday - weekday + 7) % 7 || 7;
    return isoDay(new Date(today + ahead * DAY_MS));
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const thisMonth = Date.UTC(year, month, schedule.day);
  return isoDay(new Date(thisMonth > today ? thisMonth : Date.UTC(year, month + 1, schedule.day)));
}

export interface PayoutSimulation {
  amountCents: bigint;
  method: PayoutMethod;
  feeCents: bigint;
  withholdingBps: number;
  withholdingCents: bigint;
  /** amount - fee - withholding; zero or less means nothing would be paid. */
  netCents: bigint;
  nextPayDate: string;
}

/**
 * What a payout of `amountCents` by `method` pays (the order the member reads it in): the amount, the
 * method's fee, the withholding (on the amount, the payment the tax rules look at), the net, and the next
 * pay date. The fee and withholding never exceed the amount together: the net is at least zero.
 */
export function simulatePayout(amountCents: bigint, method: PayoutMethod, taxStatus: TaxStatus, config: PayoutConfig, now: Date): PayoutSimulation {
  if (amountCents < 0n) throw new RangeError("A payout amount is not negative.");
  const rate = withholdingBps(taxStatus);
  const feeCents = minBig(methodFeeCents(amountCents, config.fees[method]), amountCents);
  const withholdingCents = minBig(bpsOfCents(amountCents, rate), amountCents - feeCents);
  return {
    amountCents,
    method,
    feeCents,
    withholdingBps: rate,
    withholdingCents,
    netCents: amountCents - feeCents - withholdingCents,
    nextPayDate: nextPayDate(config.schedule, now),
  };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/* ------------------------------------------------------------------ reading the config values */

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const intOf = (v: unknown): number | null => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : typeof v === "number" ? v : null);

/** `pay_schedule`: {"frequency":"weekly","weekday":0-6 (0 Sunday)} or {"frequency":"monthly","day":1-28}. */
export function parsePaySchedule(value: unknown): PaySchedule {
  if (value && typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (v.frequency === "weekly" && isInt(intOf(v.weekday), 0, 6)) return { frequency: "weekly", weekday: intOf(v.weekday)! };
    if (v.frequency === "monthly" && isInt(intOf(v.day), 1, 28)) return { frequency: "monthly", day: intOf(v.day)! };
  }
  return DEFAULT_PAY_SCHEDULE;
}

/** `min_payout_cents`: a whole number of cents, at least 1. */
export function parseMinPayoutCents(value: unknown): bigint {
  const n = intOf(value);
  return isInt(n, 1, 100_000_000) ? BigInt(n) : DEFAULT_MIN_PAYOUT_CENTS;
}

/** `payout_fees`: {"manual":{"fixed_cents":0,"bps":0},"stripe":{"fixed_cents":25,"bps":25}}; a method left out keeps its default. */
export function parseMethodFees(value: unknown): Record<PayoutMethod, MethodFee> {
  const fees = { ...DEFAULT_METHOD_FEES };
  if (value && typeof value === "object") {
    for (const method of Object.keys(fees) as PayoutMethod[]) {
      const v = (value as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
      const fixed = intOf(v?.fixed_cents);
      const bps = intOf(v?.bps);
      if (isInt(fixed, 0, 100_000) && isInt(bps, 0, 10_000)) fees[method] = { fixedCents: BigInt(fixed), bps };
    }
  }
  return fees;
}
