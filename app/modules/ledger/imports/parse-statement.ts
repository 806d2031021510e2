/**
 * Streams a statement file into StatementLines (MONEY.md "Statements in": streamed, never read whole).
 *
 * The first non-blank line is looked at on its own to choose the delimiter (tab-separated DistroKid and
 * CD Baby files, comma-separated CSV otherwise), then the bytes flow through csv-parse with back-pressure,
 * one row at a time. The header row picks the layout (layouts.ts); each data row is validated and mapped,
 * and the first bad row stops the import with a message naming its line and column, so an import is all
 * or nothing. Line numbers are the file's own (the header row is line 1 when it is the first line), as an
 * administrator sees them in a text editor or a spreadsheet.
 */
import { Readable, pipeline } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { normaliseHeader, type SourceRow } from "./fields";
import { detectLayout, type Layout } from "./layouts";
import { StatementFormatError, type StatementKind, type StatementLine } from "./statement-line";

export { StatementFormatError, type StatementKind, type StatementLine } from "./statement-line";
export { LAYOUTS, detectLayout, type Layout, type LayoutId } from "./layouts";

export interface StatementOptions {
  /** Refuse files with more data lines than this (blank lines not counted). */
  maxLines?: number;
}

export interface OpenedStatement {
  layout: Layout;
  /** The header row as read (BOM stripped). */
  headers: string[];
  /** The delimiter found on the first line. */
  delimiter: "," | "\t";
  /**
   * The data lines, in file order; iterate once. Stopping early (break, or return() even before the first
   * line) releases the input. Throws StatementFormatError at the first bad line.
   */
  lines: AsyncGenerator<StatementLine, void, undefined>;
  /** Releases the input without reading further (when the lines will not be read to the end). */
  close(): void;
}

type StatementInput = NodeJS.ReadableStream | Readable;

// The header row of any accepted layout is far shorter; this only bounds the look-ahead for a newline.
const SNIFF_LIMIT_BYTES = 1 << 20;
// A stray opening quote would otherwise gather the rest of the file into one cell, in memory.
const MAX_RECORD_BYTES = 1 << 20;
const NEWLINE = 0x0a;

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("A statement stream must yield strings or bytes.");
}

/** Tab when the first line has more tabs than commas (outside quotes), else comma. */
export function sniffDelimiter(firstLine: string): "," | "\t" {
  let tabs = 0;
  let commas = 0;
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === "\t") tabs++;
    else if (!quoted && char === ",") commas++;
  }
  return tabs > commas ? "\t" : ",";
}

/** The first line with something on it (blank lines before the header are skipped), or null if none is complete yet. */
function firstNonBlankLine(text: string, complete: boolean): string | null {
  const lines = text.split("\n");
  const candidates = complete ? lines : lines.slice(0, -1);
  return candidates.find((line) => line.replace(/^\uFEFF/, "").trim() !== "") ?? null;
}

/**
 * Reads chunks until the first non-blank line is complete (or the look-ahead limit, or the end), without
 * consuming more. The chunks read are handed back to be parsed.
 */
async function readFirstLine(source: AsyncIterator<unknown>): Promise<{ head: Buffer[]; ended: boolean; firstLine: string }> {
  const head: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await source.next();
    if (next.done) break;
    const chunk = toBuffer(next.value);
    head.push(chunk);
    size += chunk.length;
    if (chunk.includes(NEWLINE) || size >= SNIFF_LIMIT_BYTES) {
      const text = Buffer.concat(head).toString("utf8");
      const firstLine = firstNonBlankLine(text, size >= SNIFF_LIMIT_BYTES);
      if (firstLine !== null) return { head, ended: false, firstLine };
      if (size >= SNIFF_LIMIT_BYTES) return { head, ended: false, firstLine: "" };
    }
  }
  return { head, ended: true, firstLine: firstNonBlankLine(Buffer.concat(head).toString("utf8"), true) ?? "" };
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === "");
}

function readError(error: unknown, fallbackLineNo: number, delimiter: "," | "\t"): unknown {
  if (error instanceof CsvError) {
    const format = delimiter === "\t" ? "tab-separated text" : "CSV";
    // csv-parse counts the lines it has read; an unclosed quote is reported where the file ends.
    const counted = (error as CsvError & { lines?: unknown }).lines;
    const lineNo = typeof counted === "number" && counted > 0 ? counted : fallbackLineNo;
    const reason = error.code === "CSV_MAX_RECORD_SIZE"
      ? `a row is longer than ${MAX_RECORD_BYTES} bytes, usually an opening quote that is never closed`
      : error.message;
    return new StatementFormatError(`Line ${lineNo}: the file cannot be read as ${format} (${reason}).`, { lineNo });
  }
  return error;
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Opens a statement: reads just enough to find the delimiter and the header row, picks the layout
 * (or throws StatementFormatError listing the accepted ones), and hands back the lines to stream.
 */
export async function openStatement(kind: StatementKind, input: StatementInput, options: StatementOptions = {}): Promise<OpenedStatement> {
  const source = (input as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const { head, ended, firstLine } = await readFirstLine(source);
  const delimiter = sniffDelimiter(firstLine.replace(/^\uFEFF/, ""));

  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* head;
      if (ended) return;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        yield toBuffer(next.value);
      }
    } finally {
      // Stopping early destroys a Node readable through its iterator; a no-op once it has ended.
      await source.return?.();
    }
  }

  const feeder = Readable.from(bytes(), { objectMode: false });
  const parser = parse({
    delimiter,
    bom: true,
    // Distributors' titles contain stray quotes ("Song (12" Mix)") and rows may drop trailing empties.
    relax_quotes: true,
    relax_column_count: true,
    // Blank lines are kept so that line numbers match the file; they are skipped below.
    skip_empty_lines: false,
    // Each record comes with the line it ends on, so that messages name the file's own line numbers.
    info: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  pipeline(feeder, parser, () => {
    // Errors surface through the parser's iterator below.
  });
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>;
  // Every line belongs to a record (blank lines included), so a record starts on the line after the last one ended.
  let lastLine = 0;
  const close = () => {
    feeder.destroy();
    parser.destroy();
  };

  let headers: string[];
  let layout: Layout;
  try {
    for (;;) {
      let next: IteratorResult<ParsedRecord>;
      try {
        next = await records.next();
      } catch (error) {
        throw readError(error, lastLine + 1, delimiter);
      }
      if (next.done) throw new StatementFormatError("The file is empty: it has no header row.");
      lastLine = next.value.info.lines;
      if (!isBlank(next.value.record)) {
        headers = next.value.record.map((cell) => cell.replace(/^\uFEFF/, "").trim());
        break;
      }
    }
    layout = detectLayout(kind, headers);
  } catch (error) {
    close();
    throw error;
  }

  // Column lookup by normalised name; the first of duplicated headers wins, and raw keeps both.
  const index = new Map<string, number>();
  const labels = new Map<string, string>();
  const rawKeys: string[] = [];
  headers.forEach((header, i) => {
    const name = normaliseHeader(header);
    if (!index.has(name)) {
      index.set(name, i);
      labels.set(name, header);
    }
    let key = header;
    for (let n = 2; rawKeys.includes(key); n++) key = `${header} (${n})`;
    rawKeys.push(key);
  });

  async function* readLines(): AsyncGenerator<StatementLine, void, undefined> {
    let dataLines = 0;
    try {
      for (;;) {
        let next: IteratorResult<ParsedRecord>;
        try {
          next = await records.next();
        } catch (error) {
          throw readError(error, lastLine + 1, delimiter);
        }
        if (next.done) return;
        const lineNo = lastLine + 1;
        lastLine = next.value.info.lines;
        const cells = next.value.record;
        if (isBlank(cells)) continue;
        dataLines++;
        if (options.maxLines !== undefined && dataLines > options.maxLines) {
          throw new StatementFormatError(`This file has more than ${options.maxLines} lines; split it into smaller files.`, { lineNo });
        }
        if (cells.length > headers.length && !isBlank(cells.slice(headers.length))) {
          throw new StatementFormatError(
            `Line ${lineNo}: it has ${cells.length} cells but the header row has ${headers.length} columns (a stray ${delimiter === "\t" ? "tab" : "comma"}, or a cell that should be quoted?).`,
            { lineNo },
          );
        }
        const raw: Record<string, string> = {};
        rawKeys.forEach((key, i) => {
          raw[key] = cells[i] ?? "";
        });
        const row: SourceRow = {
          get: (name) => {
            const i = index.get(name);
            return i === undefined ? "" : (cells[i] ?? "").trim();
          },
          has: (name) => index.has(name),
          label: (name) => labels.get(name) ?? name,
          raw,
        };
        yield layout.mapRow(row, lineNo);
      }
    } finally {
      close();
    }
  }

  const lines = readLines();
  // return() on a generator that has not started skips its finally; release the input all the same.
  const returnLines = lines.return.bind(lines);
  lines.return = (value) => {
    close();
    return returnLines(value);
  };

  return { layout, headers, delimiter, lines, close };
}

/** The lines of a statement, streamed (openStatement without the layout). */
export async function* parseStatement(
  kind: StatementKind,
  input: StatementInput,
  options?: StatementOptions,
): AsyncGenerator<StatementLine, void, undefined> {
  const opened = await openStatement(kind, input, options);
  yield* opened.lines;
}
