/**
 * The one shape every statement layout is read into (docs/money.md "Statements in"): the importer, matching
 * and allocation never see a distributor's own columns, only these. The line as sent stays in the stored
 * file (sales_imports.file_path), found by its line number (decision 017).
 */

export type StatementKind = "digital" | "pro" | "license";

export const STATEMENT_KINDS: readonly StatementKind[] = ["digital", "pro", "license"];

export interface StatementLine {
  /**
   * The file's own 1-based line number where this row starts (the header row is line 1 when it opens the
   * file; blank lines and line breaks inside quoted cells are counted), as in the error messages.
   */
  lineNo: number;
  kind: StatementKind;
  statementId: string | null;
  /** YYYY-MM-DD (a "YYYY-MM" period becomes its first day). Splits in force on this day apply. */
  salePeriodStart: string;
  /** YYYY-MM-DD (a "YYYY-MM" period becomes its last day). */
  salePeriodEnd: string;
  /** Store (digital), society or performance source (PRO), licensee (license). */
  source: string;
  territory: string | null;
  artist: string | null;
  releaseTitle: string | null;
  /** The track (digital); song_title (license); work title (PRO). */
  trackTitle: string | null;
  /** Uppercased, hyphens removed. */
  isrc: string | null;
  /** Digits only, leading zeros stripped. */
  upc: string | null;
  /** Uppercased, separators removed ("T-345.246.800-1" -> "T3452468001"). */
  iswc: string | null;
  /** PRO: the 11-digit IPI name number (a 9-digit CAE number gains its two leading zeros). */
  ipi: string | null;
  /** Plays / units (integer; negative on a return). */
  quantity: number | null;
  /** The line's amount in its own currency, micro-units, rounded half-to-even once when read. */
  originalAmountMicros: bigint;
  /** 3-letter uppercase. */
  originalCurrency: string;
  /** Home (USD) units per one original unit, as written in the file, when the line carried one. */
  exchangeRate: string | null;
}

/**
 * A statement file the importer refuses: its columns match no accepted layout, or a row is invalid.
 * The message is written for the administrator who uploaded it ("Line 14: ...").
 */
export class StatementFormatError extends Error {
  readonly lineNo: number | null;
  readonly column: string | null;
  constructor(message: string, details: { lineNo?: number | null; column?: string | null } = {}) {
    super(message);
    this.name = "StatementFormatError";
    this.lineNo = details.lineNo ?? null;
    this.column = details.column ?? null;
  }
}
