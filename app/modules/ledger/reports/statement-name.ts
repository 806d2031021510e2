import type { StatementKind } from "../imports/statement-line";

/**
 * How a member sees a statement: by where the money came from and the months it covers ("DistroKid · March
 * 2026"), as a distributor's dashboard names its reports, never by the name of the file an administrator
 * uploaded. The statement's own reference (its statement id), when the file carries one, goes beside it.
 */
export interface StatementNaming {
  kind: StatementKind | null;
  /** The import's recognised layout (layouts.ts ids). */
  layout: string | null;
  statementId: string | null;
  /** The first and last sale month ("YYYY-MM") of the member's lines in it. */
  firstMonth: string | null;
  lastMonth: string | null;
}

/** The statement's source: the service that issued a known layout, else the kind of income. */
const LAYOUT_SOURCES: Record<string, string> = { distrokid: "DistroKid", tunecore: "TuneCore", cdbaby: "CD Baby", bmi: "BMI", ascap: "ASCAP" };
const KIND_SOURCES: Record<StatementKind, string> = { digital: "Digital sales", pro: "Performance royalties", license: "Licensing" };

const monthFormat = (withYear: boolean) =>
  new Intl.DateTimeFormat("en-US", withYear ? { month: "long", year: "numeric", timeZone: "UTC" } : { month: "short", timeZone: "UTC" });
const shortWithYear = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

function monthDate(month: string): Date | null {
  const match = /^(\d{4})-(\d{2})/.exec(month);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

/** "March 2026"; "Jan – Mar 2026" within a year; "Nov 2025 – Feb 2026" across one. */
export function periodName(first: string | null, last: string | null): string | null {
  const from = first ? monthDate(first) : null;
  const to = last ? monthDate(last) : from;
  if (!from || !to) return null;
  if (from.getTime() === to.getTime()) return monthFormat(true).format(from);
  if (from.getUTCFullYear() === to.getUTCFullYear()) return `${monthFormat(false).format(from)} – ${shortWithYear.format(to)}`;
  return `${shortWithYear.format(from)} – ${shortWithYear.format(to)}`;
}

export function statementSource(naming: Pick<StatementNaming, "kind" | "layout">): string {
  return (naming.layout && LAYOUT_SOURCES[naming.layout]) ?? (naming.kind ? KIND_SOURCES[naming.kind] : "Statement");
}

/** "DistroKid · March 2026" (or the source alone when no month is known). */
export function statementName(naming: StatementNaming): string {
  const period = periodName(naming.firstMonth, naming.lastMonth);
  const source = statementSource(naming);
  return period ? `${source} · ${period}` : source;
}
