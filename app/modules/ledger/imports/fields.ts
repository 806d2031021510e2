/**
 * Cell readers shared by the statement layouts. Each one either returns a normalised value or throws a
 * StatementFormatError that names the line, the column (as the file spells it) and the bad value, so an
 * administrator can fix the file. Amounts go through money.ts, never through a JavaScript number.
 */
import { formatMicros, MAX_LEDGER_MICROS, MoneyParseError, parseDecimalToMicros, parseExchangeRate } from "../money";
import { StatementFormatError } from "./statement-line";

/** One data row, read by normalised header name (see normaliseHeader). */
export interface SourceRow {
  /** The trimmed cell, or "" when the column is absent or the cell is empty. */
  get(header: string): string;
  /** Whether the file has this column. */
  has(header: string): boolean;
  /** The file's own spelling of a header, for messages (falls back to the normalised name). */
  label(header: string): string;
}

/** "\uFEFF  Earnings  (USD) " -> "earnings (usd)": headers are matched case-insensitively, trimmed, BOM stripped. */
export function normaliseHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, "")
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();
}

export interface Period {
  start: string;
  end: string;
}

function fail(lineNo: number, column: string, message: string): never {
  throw new StatementFormatError(`Line ${lineNo}: ${message}`, { lineNo, column });
}

/** The first of the headers the file has (layouts that renamed a column across versions). */
export function pickHeader(row: SourceRow, headers: readonly string[]): string | null {
  return headers.find((header) => row.has(header)) ?? null;
}

export function optionalText(row: SourceRow, header: string): string | null {
  const value = row.get(header);
  return value === "" ? null : value;
}

export function requiredText(row: SourceRow, header: string, lineNo: number): string {
  const value = row.get(header);
  if (value === "") fail(lineNo, header, `${row.label(header)} is empty.`);
  return value;
}

export function amountMicros(row: SourceRow, header: string, lineNo: number): bigint {
  const value = row.get(header);
  if (value === "") fail(lineNo, header, `${row.label(header)} is empty; enter the amount, such as 12.50 or 0.`);
  let micros: bigint;
  try {
    micros = parseDecimalToMicros(value);
  } catch (error) {
    if (error instanceof MoneyParseError) fail(lineNo, header, `${row.label(header)} “${value}” is not a decimal such as 12.50.`);
    throw error;
  }
  // The ledger keeps micro-units in bigint columns: a larger amount would fail the import's insert.
  if (micros > MAX_LEDGER_MICROS || micros < -MAX_LEDGER_MICROS) {
    fail(lineNo, header, `${row.label(header)} “${value}” is larger than the ledger can hold (at most ${formatMicros(MAX_LEDGER_MICROS)} either way).`);
  }
  return micros;
}

/** A 3-letter code, uppercased. An empty cell means the fallback (our own CSV defaults to USD). */
export function currencyCode(row: SourceRow, header: string, lineNo: number, fallback: string | null = "USD"): string {
  const value = row.get(header);
  if (value === "USD") return value;
  if (value === "" && fallback) return fallback;
  if (!/^[A-Za-z]{3}$/.test(value)) fail(lineNo, header, `${row.label(header)} “${value}” is not a three-letter currency code such as USD.`);
  return value.toUpperCase();
}

export function exchangeRate(row: SourceRow, header: string, lineNo: number): string | null {
  const value = row.get(header);
  if (value === "") return null;
  try {
    return parseExchangeRate(value);
  } catch (error) {
    if (error instanceof MoneyParseError) fail(lineNo, header, `${row.label(header)} “${value}” is not a positive exchange rate such as 1.0832.`);
    throw error;
  }
}

/** Only ASCII digits (and at least one). */
function isDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * A small memo for cell readers: statements repeat the same few codes and periods on thousands of lines.
 * Only successful readings are kept; it forgets everything when it grows past its size.
 */
class Memo<T> {
  private readonly values = new Map<string, T>();
  constructor(private readonly size: number) {}
  get(key: string): T | undefined {
    return this.values.get(key);
  }
  set(key: string, value: T): T {
    if (this.values.size >= this.size) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}

const MAX_QUANTITY = 2_147_483_647;

/** A whole number of plays or units ("1200", "1,200", "12.0", "-1" for a return); empty is null. */
export function quantity(row: SourceRow, header: string, lineNo: number): number | null {
  const value = row.get(header);
  if (value === "") return null;
  if (value.length <= 9 && isDigits(value)) return Number.parseInt(value, 10);
  // Thousands separators are unambiguous in a whole count, unlike in an amount.
  const match = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.0+)?$/.exec(value);
  const count = match ? Number(`${match[1]}${match[2].replaceAll(",", "")}`) : Number.NaN;
  if (!Number.isSafeInteger(count)) fail(lineNo, header, `${row.label(header)} “${value}” is not a whole number of units such as 12.`);
  // statement_lines.quantity is an integer column.
  if (count > MAX_QUANTITY || count < -MAX_QUANTITY)
    fail(lineNo, header, `${row.label(header)} “${value}” is more units than a line can hold (at most ${MAX_QUANTITY.toLocaleString("en-US")}).`);
  return count === 0 ? 0 : count; // no -0
}

const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

const isrcMemo = new Memo<string | null>(10_000);

/** "us-bl1-26-00001" -> "USBL12600001". Hyphens, spaces and case are ignored; the result must be an ISRC. */
export function normaliseIsrc(value: string): string | null {
  const known = isrcMemo.get(value);
  if (known !== undefined) return known;
  const compact = value.replace(/[\s-]/g, "").toUpperCase();
  return isrcMemo.set(value, ISRC.test(compact) ? compact : null);
}

export function isrcCell(row: SourceRow, header: string, lineNo: number): string | null {
  const value = row.get(header);
  if (value === "") return null;
  const isrc = normaliseIsrc(value);
  if (!isrc) fail(lineNo, header, `${row.label(header)} “${value}” is not an ISRC such as US-BL1-26-00001.`);
  return isrc;
}

/** "00602557" -> "602557". Spaces and hyphens are ignored; anything else is not a UPC/EAN. All zeros is none. */
export function normaliseUpc(value: string): string | null {
  const compact = value.replace(/[\s-]/g, "");
  if (!/^\d+$/.test(compact)) return null;
  return compact.replace(/^0+/, "");
}

export function upcCell(row: SourceRow, header: string, lineNo: number): string | null {
  const value = row.get(header);
  if (value === "") return null;
  const upc = normaliseUpc(value);
  if (upc === null) fail(lineNo, header, `${row.label(header)} “${value}” is not a UPC (digits only, such as 00602557123456).`);
  return upc === "" ? null : upc;
}

/** "T-345.246.800-1" -> "T3452468001". */
export function normaliseIswc(value: string): string | null {
  const compact = value.replace(/[\s.-]/g, "").toUpperCase();
  return /^T\d{10}$/.test(compact) ? compact : null;
}

export function iswcCell(row: SourceRow, header: string, lineNo: number): string | null {
  const value = row.get(header);
  if (value === "") return null;
  const iswc = normaliseIswc(value);
  if (!iswc) fail(lineNo, header, `${row.label(header)} “${value}” is not an ISWC such as T-345.246.800-1.`);
  return iswc;
}

/**
 * IPI/CAE name numbers as the 11-digit IPI name number: spaces, dots and hyphens ignored, and a shorter
 * number padded with leading zeros (a 9-digit CAE number is the IPI name number without its "00"; BMI and
 * spreadsheets drop leading zeros), so "523456789", "00523456789" and "005 234 567 89" are one party.
 * Apply the same to a member's IPI before matching.
 */
export function normaliseIpi(value: string): string | null {
  const compact = value.replace(/[\s.-]/g, "");
  if (!/^\d{1,11}$/.test(compact) || /^0+$/.test(compact)) return null;
  return compact.padStart(11, "0");
}

export function ipiCell(row: SourceRow, header: string, lineNo: number): string | null {
  const value = row.get(header);
  if (value === "") return null;
  const ipi = normaliseIpi(value);
  if (!ipi) fail(lineNo, header, `${row.label(header)} “${value}” is not an IPI/CAE number (up to 11 digits, such as 00523456789).`);
  return ipi;
}

// ---- dates ---------------------------------------------------------------------------------------

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDay(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1 || day > lastDayOfMonth(year, month)) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

function monthPeriod(year: number, month: number): Period | null {
  const start = isoDay(year, month, 1);
  return start ? { start, end: isoDay(year, month, lastDayOfMonth(year, month))! } : null;
}

function quarterPeriod(year: number, quarter: number): Period | null {
  if (quarter < 1 || quarter > 4) return null;
  const first = monthPeriod(year, quarter * 3 - 2);
  const last = monthPeriod(year, quarter * 3);
  return first && last ? { start: first.start, end: last.end } : null;
}

// An optional time after a date ("10/15/2023 12:00:00 AM", "2026-03-01T00:00:00Z"): the day is what counts.
const TIME_SUFFIX = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*[AaPp][Mm])?(?:Z|[+-]\d{2}:?\d{2})?)?`;
const ISO_DAY = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})${TIME_SUFFIX}$`);
const US_DAY = new RegExp(String.raw`^(\d{1,2})[/-](\d{1,2})[/-](\d{4})${TIME_SUFFIX}$`);
const MONTH = /^(\d{4})-(\d{2})$/;

/** "2026-03-31" (ISO, as our own CSV requires). With `us`, also "3/31/2026" and "03-31-2026", month first. */
export function parseDay(value: string, options: { us?: boolean } = {}): string | null {
  const iso = ISO_DAY.exec(value);
  if (iso) return isoDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (options.us) {
    const us = US_DAY.exec(value);
    if (us) return isoDay(Number(us[3]), Number(us[1]), Number(us[2]));
  }
  return null;
}

/** "2026-03" -> the whole of March 2026. */
export function parseMonth(value: string): Period | null {
  const month = MONTH.exec(value);
  return month ? monthPeriod(Number(month[1]), Number(month[2])) : null;
}

/** A quarter as the PROs write it: "20261" (BMI, year then quarter), "1Q2026", "2026Q1", "2026-Q1". */
export function parseQuarter(value: string): Period | null {
  const compact = value.replace(/\s/g, "").toUpperCase();
  let match = /^(\d{4})-?Q?([1-4])$/.exec(compact);
  if (match) return quarterPeriod(Number(match[1]), Number(match[2]));
  match = /^Q?([1-4])Q?-?(\d{4})$/.exec(compact);
  if (match && /Q/.test(compact)) return quarterPeriod(Number(match[2]), Number(match[1]));
  return null;
}

const DAY_OR_MONTH_HINT = "a date such as 2026-03-31 or a month such as 2026-03";

/**
 * A sale period from a start cell and an optional end cell, each a day or a month: a month start means its
 * first day, a month end its last day; an empty end means the start's own day or month.
 */
const periodMemo = new Memo<Period>(1_000);

export function periodFromCells(row: SourceRow, startHeader: string, endHeader: string | null, lineNo: number, options: { us?: boolean } = {}): Period {
  const startValue = requiredText(row, startHeader, lineNo);
  const endCell = endHeader ? row.get(endHeader) : "";
  const memoKey = `${options.us ? "us" : ""}|${startValue}|${endCell}`;
  const known = periodMemo.get(memoKey);
  if (known) return known;
  return periodMemo.set(memoKey, readPeriod(row, startHeader, endHeader, lineNo, options, startValue));
}

function readPeriod(row: SourceRow, startHeader: string, endHeader: string | null, lineNo: number, options: { us?: boolean }, startValue: string): Period {
  const startMonth = parseMonth(startValue);
  const start = startMonth?.start ?? parseDay(startValue, options);
  if (!start) fail(lineNo, startHeader, `${row.label(startHeader)} “${startValue}” is not ${DAY_OR_MONTH_HINT}.`);

  const endValue = endHeader ? row.get(endHeader) : "";
  let end: string | null;
  if (endValue === "") {
    end = startMonth?.end ?? start;
  } else {
    end = parseMonth(endValue)?.end ?? parseDay(endValue, options);
    if (!end) fail(lineNo, endHeader!, `${row.label(endHeader!)} “${endValue}” is not ${DAY_OR_MONTH_HINT}.`);
  }
  if (end < start) {
    fail(lineNo, endHeader ?? startHeader, `the sale period ends (${end}) before it starts (${start}).`);
  }
  return { start, end };
}

/** A single day cell read as a one-day period (CD Baby's "Sales Date"). */
export function dayPeriod(row: SourceRow, header: string, lineNo: number, options: { us?: boolean } = {}): Period {
  const value = requiredText(row, header, lineNo);
  const day = parseDay(value, options);
  if (!day) fail(lineNo, header, `${row.label(header)} “${value}” is not a date such as 2026-03-31 or 3/31/2026.`);
  return { start: day, end: day };
}

/** A month cell, written as a month ("2026-03") or as any day in it ("2026-03-01"): the whole month. */
export function monthOfCell(row: SourceRow, header: string, lineNo: number, options: { us?: boolean } = {}): Period {
  const value = requiredText(row, header, lineNo);
  const month = parseMonth(value);
  if (month) return month;
  const day = parseDay(value, options);
  if (!day) fail(lineNo, header, `${row.label(header)} “${value}” is not ${DAY_OR_MONTH_HINT}.`);
  return monthPeriod(Number(day.slice(0, 4)), Number(day.slice(5, 7)))!;
}

export function quarterOfCell(row: SourceRow, header: string, lineNo: number): Period {
  const value = requiredText(row, header, lineNo);
  const quarter = parseQuarter(value);
  if (!quarter) fail(lineNo, header, `${row.label(header)} “${value}” is not a quarter such as 20261 or 1Q2026.`);
  return quarter;
}

export { fail as failRow };
