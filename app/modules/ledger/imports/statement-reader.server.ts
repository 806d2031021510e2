import { convertToHomeMicros, formatMicros, MAX_LEDGER_MICROS, MoneyParseError } from "../money";
import { openStatement, StatementFormatError, type Layout, type StatementKind, type StatementLine } from "./parse-statement";
import { detectStatementEncoding, utf8Chunks, type StatementEncoding } from "./statement-encoding.server";

/**
 * A stored statement file read line by line in home currency (docs/money.md "One home currency, USD"): a line
 * in another currency is converted by its own rate, else by the rate the administrator entered at upload;
 * without either the statement is refused naming the currency. Used twice: to check a file before it is
 * accepted (nothing stored), and by the import job that posts it.
 */
export const HOME_CURRENCY = "USD";
/** A statement with more data lines than this is refused (a few times the largest real statements). */
export const MAX_STATEMENT_LINES = 5_000_000;

export interface HomeLine extends StatementLine {
  /** USD micro-units after the exchange rate. */
  amountMicros: bigint;
  /** The rate applied (the line's own, or the upload's), null for USD lines. */
  appliedRate: string | null;
}

export interface StatementSummary {
  layout: Layout;
  lines: number;
  totalMicros: bigint;
  /** The statement id the lines carry (the first one given), or null. */
  statementId: string | null;
  /** How the file's text was encoded (statement-encoding.server.ts). */
  encoding: StatementEncoding;
}

/**
 * Reads the file through, converting each line to home currency, and hands the lines on a chunk of the file
 * at a time (`onLines` is awaited before more is read). Throws StatementFormatError at the first bad line.
 */
export async function readStatementFile(
  kind: StatementKind,
  filePath: string,
  uploadRate: string | null,
  onLines: (lines: HomeLine[], layout: Layout) => void | Promise<void>,
): Promise<StatementSummary> {
  const encoding = await detectStatementEncoding(filePath);
  const opened = await openStatement(kind, utf8Chunks(filePath, encoding), { maxLines: MAX_STATEMENT_LINES });
  let lines = 0;
  let totalMicros = 0n;
  // The sum of the lines' sizes bounds every sum the import posts (per account, per song): it must fit the ledger's bigint.
  let magnitudeMicros = 0n;
  let statementId: string | null = null;
  let currencyOnUploadRate: string | null = null;
  try {
    for await (const batch of opened.batches) {
      for (const statementLine of batch) {
        // The line itself becomes the home line (no copy: this runs once per statement line).
        const line = statementLine as HomeLine;
        let appliedRate: string | null = null;
        let amountMicros = line.originalAmountMicros;
        if (line.originalCurrency !== HOME_CURRENCY) {
          appliedRate = line.exchangeRate ?? uploadRate;
          if (!appliedRate) {
            throw new StatementFormatError(
              `Line ${line.lineNo} is in ${line.originalCurrency} and carries no exchange rate: enter the rate from ${line.originalCurrency} to ${HOME_CURRENCY} for this statement.`,
              { lineNo: line.lineNo, column: "exchange_rate" },
            );
          }
          if (!line.exchangeRate) {
            if (currencyOnUploadRate && currencyOnUploadRate !== line.originalCurrency) {
              throw new StatementFormatError(
                `Lines in ${currencyOnUploadRate} and in ${line.originalCurrency} carry no exchange rate, and one rate converts only one currency. Ask the sender for a statement with rates on its lines.`,
                { lineNo: line.lineNo, column: "exchange_rate" },
              );
            }
            currencyOnUploadRate = line.originalCurrency;
          }
          try {
            amountMicros = convertToHomeMicros(line.originalAmountMicros, appliedRate);
          } catch (error) {
            if (error instanceof MoneyParseError)
              throw new StatementFormatError(`Line ${line.lineNo}: the exchange rate “${appliedRate}” is not a positive number.`, { lineNo: line.lineNo });
            throw error;
          }
        }
        magnitudeMicros += amountMicros < 0n ? -amountMicros : amountMicros;
        if (magnitudeMicros > MAX_LEDGER_MICROS) {
          throw new StatementFormatError(
            `Line ${line.lineNo}: with this line the statement's amounts add up to more than the ledger can hold (${formatMicros(MAX_LEDGER_MICROS)} ${HOME_CURRENCY}). Check the amount and the exchange rate, or split the statement.`,
            { lineNo: line.lineNo },
          );
        }
        line.amountMicros = amountMicros;
        line.appliedRate = appliedRate;
        lines += 1;
        totalMicros += amountMicros;
        statementId ??= line.statementId;
      }
      const handled = onLines(batch as HomeLine[], opened.layout);
      if (handled) await handled;
    }
  } finally {
    opened.close();
  }
  if (lines === 0) throw new StatementFormatError("The file has a header row but no lines.");
  return { layout: opened.layout, lines, totalMicros, statementId, encoding };
}
