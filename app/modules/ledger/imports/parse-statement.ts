/**
 * Streams a statement file into StatementLines (docs/money.md "Statements in": streamed, never read whole).
 *
 * The first non-blank line is looked at on its own to choose the delimiter (tab-separated DistroKid and
 * CD Baby files, comma-separated CSV otherwise), then the bytes flow through csv-parse with back-pressure,
 * one chunk of the file at a time (the rows of a chunk are handed on together: `batches`, or one by one:
 * `lines`). The header row picks the layout (layouts.ts); each data row is validated and mapped,
 * and the first bad row stops the import with a message naming its line and column, so an import is all
 * or nothing. Line numbers are the file's own (the header row is line 1 when it is the first line), as an
 * administrator sees them in a text editor or a spreadsheet.
 */
import type { Readable } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { normaliseHeader, type SourceRow } from "./fields";
import { detectLayout, type Layout } from "./layouts";
import { StatementFormatError, type StatementKind, type StatementLine } from "./statement-line";

export { StatementFormatError, type StatementKind, type StatementLine } from "./statement-line";
export { LAYOUTS, type Layout } from "./layouts";

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
  /**
   * The same lines, a chunk of the file at a time (each array is the rows of one chunk read; never empty).
   * Read either `lines` or `batches`, once. The same early-stop and error behaviour as `lines`.
   */
  batches: AsyncGenerator<StatementLine[], void, undefined>;
  /** Releases the input without reading further (when the lines will not be read to the end). */
  close(): void;
}

type StatementInput = NodeJS.ReadableStream | Readable | AsyncIterable<Buffer>;

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

/** A NUL character (a zero byte) in a cell: no text column stores one, and a text file has none. */
function nulError(lineNo: number, where: string, column: string | null): StatementFormatError {
  return new StatementFormatError(
    `Line ${lineNo}: the ${where} holds a NUL character (a zero byte), which a statement cannot contain: the file may be damaged or saved in another encoding. Remove it and upload the file again.`,
    { lineNo, column },
  );
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
    const reason =
      error.code === "CSV_MAX_RECORD_SIZE" ? `a row is longer than ${MAX_RECORD_BYTES} bytes, usually an opening quote that is never closed` : error.message;
    return new StatementFormatError(`Line ${lineNo}: the file cannot be read as ${format} (${reason}).`, { lineNo });
  }
  return error;
}

/**
 * csv-parse's parser core, which its stream wraps (`parser.api`): fed a chunk, it calls `push` for each
 * record and leaves in `info.lines` the line that record ends on. Fed directly, the rows of a chunk come
 * out in one synchronous call, without one stream read and one info object per row.
 */
interface CsvParserCore {
  parse(chunk: Buffer | undefined, end: boolean, push: (record: string[]) => void, close: () => void): Error | undefined;
  info: { lines: number };
}

function parserCore(options: Options): CsvParserCore {
  const core = (parse(options) as unknown as { api?: CsvParserCore }).api;
  if (!core || typeof core.parse !== "function") throw new Error("csv-parse no longer exposes its parser core (parser.api); see parse-statement.ts.");
  return core;
}

/** One data row, read by normalised header name (a class, so that a row costs no closures). */
class CellRow implements SourceRow {
  constructor(
    private readonly cells: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
    private readonly labels: ReadonlyMap<string, string>,
  ) {}

  get(name: string): string {
    const i = this.index.get(name);
    if (i === undefined) return "";
    const cell = this.cells[i];
    return cell === undefined ? "" : cell.trim();
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  label(name: string): string {
    return this.labels.get(name) ?? name;
  }
}

/**
 * Opens a statement: reads just enough to find the delimiter and the header row, picks the layout
 * (or throws StatementFormatError listing the accepted ones), and hands back the lines to stream.
 */
export async function openStatement(kind: StatementKind, input: StatementInput, options: StatementOptions = {}): Promise<OpenedStatement> {
  const source = (input as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const { head, ended, firstLine } = await readFirstLine(source);
  const delimiter = sniffDelimiter(firstLine.replace(/^\uFEFF/, ""));

  // PostgreSQL's text cannot hold NUL: a chunk with a zero byte makes every row from then on checked for one.
  let nulSeen = head.some((chunk) => chunk.includes(0));
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* head;
      if (ended) return;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        const chunk = toBuffer(next.value);
        if (!nulSeen && chunk.includes(0)) nulSeen = true;
        yield chunk;
      }
    } finally {
      // Stopping early destroys a Node readable through its iterator; a no-op once it has ended.
      await source.return?.();
    }
  }

  const chunks = bytes();
  const core = parserCore({
    delimiter,
    bom: true,
    // Distributors' titles contain stray quotes ("Song (12" Mix)") and rows may drop trailing empties.
    relax_quotes: true,
    relax_column_count: true,
    // Blank lines are kept so that line numbers match the file; they are skipped below.
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
  });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    // Stopping early destroys a Node readable through its iterator.
    chunks.return(undefined).catch(() => {});
    const destroyable = input as { destroy?: () => void; destroyed?: boolean };
    if (typeof destroyable.destroy === "function" && !destroyable.destroyed) destroyable.destroy();
  };

  // The records of the chunks read so far and not yet handed on, with the line each ends on.
  let records: string[][] = [];
  let ends: number[] = [];
  let finished = false;
  let deferred: unknown = null;
  // Every line belongs to a record (blank lines included), so a record starts on the line after the last one ended.
  let lastLine = 0;
  const push = (record: string[]) => {
    records.push(record);
    ends.push(core.info.lines);
  };
  const noop = () => {};

  /** Parses chunks until some records come out; false at the end of the file. A read error comes after the rows before it. */
  async function fill(): Promise<boolean> {
    records = [];
    ends = [];
    while (records.length === 0) {
      if (deferred !== null) throw deferred;
      if (finished) return false;
      const next = await chunks.next();
      let error: Error | undefined;
      if (next.done) {
        finished = true;
        error = core.parse(undefined, true, push, noop);
      } else {
        error = core.parse(next.value, false, push, noop);
      }
      if (error !== undefined) {
        finished = true;
        deferred = readError(error, (ends.at(-1) ?? lastLine) + 1, delimiter);
      }
    }
    return true;
  }

  let headers: string[] = [];
  let layout: Layout;
  let at = 0;
  try {
    find: for (;;) {
      if (!(await fill())) throw new StatementFormatError("The file is empty: it has no header row.");
      for (at = 0; at < records.length;) {
        const record = records[at]!;
        lastLine = ends[at]!;
        at++;
        if (!isBlank(record)) {
          headers = record.map((cell) => cell.replace(/^\uFEFF/, "").trim());
          const nul = nulSeen ? headers.findIndex((header) => header.includes("\u0000")) : -1;
          if (nul !== -1) throw nulError(lastLine, `header row's column ${nul + 1}`, null);
          break find;
        }
      }
    }
    layout = detectLayout(kind, headers);
  } catch (error) {
    close();
    throw error;
  }

  // Column lookup by normalised name; the first of duplicated headers wins.
  const index = new Map<string, number>();
  const labels = new Map<string, string>();
  headers.forEach((header, i) => {
    const name = normaliseHeader(header);
    if (!index.has(name)) {
      index.set(name, i);
      labels.set(name, header);
    }
  });
  const columns = headers.length;
  const mapRow = layout.mapRow.bind(layout);

  async function* readBatches(): AsyncGenerator<StatementLine[], void, undefined> {
    let dataLines = 0;
    try {
      for (;;) {
        if (at >= records.length) {
          if (!(await fill())) return;
          at = 0;
        }
        const batch: StatementLine[] = [];
        for (; at < records.length; at++) {
          const cells = records[at]!;
          const lineNo = lastLine + 1;
          lastLine = ends[at]!;
          if (isBlank(cells)) continue;
          dataLines++;
          if (options.maxLines !== undefined && dataLines > options.maxLines) {
            throw new StatementFormatError(`This file has more than ${options.maxLines} lines; split it into smaller files.`, { lineNo });
          }
          if (cells.length > columns && !isBlank(cells.slice(columns))) {
            throw new StatementFormatError(
              `Line ${lineNo}: it has ${cells.length} cells but the header row has ${columns} columns (a stray ${delimiter === "\t" ? "tab" : "comma"}, or a cell that should be quoted?).`,
              { lineNo },
            );
          }
          if (nulSeen) {
            const nul = cells.findIndex((cell) => cell.includes("\u0000"));
            if (nul !== -1) throw nulError(lineNo, headers[nul] ? `${headers[nul]} cell` : `cell in column ${nul + 1}`, headers[nul] ?? null);
          }
          batch.push(mapRow(new CellRow(cells, index, labels), lineNo));
        }
        if (batch.length > 0) yield batch;
      }
    } finally {
      close();
    }
  }

  async function* readLines(source: AsyncGenerator<StatementLine[], void, undefined>): AsyncGenerator<StatementLine, void, undefined> {
    try {
      for await (const batch of source) yield* batch;
    } finally {
      close();
    }
  }

  // return() on a generator that has not started skips its finally; release the input all the same.
  function releasing<T>(generator: AsyncGenerator<T, void, undefined>): AsyncGenerator<T, void, undefined> {
    const returnGenerator = generator.return.bind(generator);
    generator.return = (value) => {
      close();
      return returnGenerator(value);
    };
    return generator;
  }
  const batches = releasing(readBatches());
  const lines = releasing(readLines(batches));

  return { layout, headers, delimiter, lines, batches, close };
}

/** The lines of a statement, streamed (openStatement without the layout). */
export async function* parseStatement(kind: StatementKind, input: StatementInput, options?: StatementOptions): AsyncGenerator<StatementLine, void, undefined> {
  const opened = await openStatement(kind, input, options);
  yield* opened.lines;
}
