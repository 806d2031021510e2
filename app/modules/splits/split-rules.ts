/**
 * Split sheet arithmetic shared by the form (in the browser) and the services: shares are basis points
 * (10,000 = 100 %), shown as percentages with two decimals, always with integer arithmetic.
 */

export const TOTAL_BPS = 10_000;
export const MAX_SPLIT_PARTIES = 20;

/** 5000 -> "50.00%", 3333 -> "33.33%". */
export function formatBps(bps: number): string {
  const sign = bps < 0 ? "-" : "";
  const abs = Math.abs(bps);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}%`;
}

/** Null when the shares total exactly 100 %; otherwise the sentence saying how far off they are. */
export function sharesTotalProblem(shares: readonly number[]): string | null {
  const total = shares.reduce((sum, s) => sum + s, 0);
  if (total === TOTAL_BPS) return null;
  const off = formatBps(Math.abs(TOTAL_BPS - total));
  return `The shares total ${formatBps(total)}: ${off} ${total < TOTAL_BPS ? "short of" : "over"} 100%.`;
}

/** "2026-07-01" -> "2026-06-30": the day before a date (a version runs until the day before the next one starts). */
export function dayBefore(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

export function dayAfter(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * A proposal every party has answered but the owner has not confirmed: it is not in force until confirmed,
 * which members easily miss. The owner's own pending share does not count as waiting (confirming accepts it).
 * Null while a party still has to answer.
 */
export function awaitingConfirmation(parties: ReadonlyArray<{ status: string; isOwner: boolean }>): "accepted" | "answered" | null {
  const others = parties.filter((p) => !p.isOwner);
  if (others.some((p) => p.status === "pending")) return null;
  return others.every((p) => p.status === "accepted") ? "accepted" : "answered";
}
