import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { StatementFormatError } from "./statement-line";

/**
 * The text encoding of a stored statement (decision 017, "Encodings"): UTF-8, UTF-16 with a byte-order mark, or
 * Windows-1252 (what spreadsheet programs on Windows still save as "CSV"). Read as UTF-8, a Windows-1252
 * "Beyoncé" became "Beyonc\uFFFD" without a word. The file is read once through before it is parsed, so that
 * the upload check and the import job, which both read it, decide the same: a file with a BOM is what the BOM
 * says; without one, a file that is valid UTF-8 throughout is UTF-8, any other is Windows-1252 unless it holds a
 * byte Windows-1252 leaves undefined (then it is in some other encoding and refused), and a file whose first
 * bytes alternate with zeros is UTF-16 without its mark (refused: its byte order cannot be known for sure).
 */
export type StatementEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export const ENCODING_LABELS: Record<StatementEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 (little-endian)",
  "utf-16be": "UTF-16 (big-endian)",
  "windows-1252": "Windows-1252",
};

const SAVE_AS_UTF8 = "Save it as CSV UTF-8 (in Excel: File › Save As › “CSV UTF-8”) and upload it again.";
/** Bytes Windows-1252 assigns no character to. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
const CHUNK_BYTES = 1 << 16;

/** Bytes at the end of `buffer` that begin a UTF-8 sequence the next chunk completes (0 to 3). */
function incompleteTail(buffer: Buffer): number {
  for (let back = 1; back <= Math.min(3, buffer.length); back++) {
    const byte = buffer[buffer.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    if (byte < 0xc0) return 0; // ASCII (or a stray continuation): nothing is waiting
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return length > back ? back : 0;
  }
  return 0;
}

/** A first chunk whose even or odd bytes are mostly zero: UTF-16 text without a byte-order mark. */
function looksLikeUtf16(head: Buffer): boolean {
  const sample = head.subarray(0, Math.min(head.length, 512));
  if (sample.length < 4) return false;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2) oddZeros++;
    else evenZeros++;
  }
  const half = sample.length / 2;
  return evenZeros > half * 0.4 || oddZeros > half * 0.4;
}

function countNewlines(buffer: Buffer, end = buffer.length): number {
  let count = 0;
  for (let at = buffer.indexOf(0x0a); at !== -1 && at < end; at = buffer.indexOf(0x0a, at + 1)) count++;
  return count;
}

/** Reads the file through once and says how its text is encoded, or throws StatementFormatError. */
export async function detectStatementEncoding(filePath: string): Promise<StatementEncoding> {
  const stream = createReadStream(filePath, { highWaterMark: CHUNK_BYTES });
  let first = true;
  let utf8 = true;
  let bomUtf8 = false;
  let carry: Buffer = Buffer.alloc(0);
  let linesBefore = 0;
  let undefinedAt: { lineNo: number; byte: number } | null = null;
  try {
    for await (const read of stream) {
      const chunk = read as Buffer;
      if (first) {
        first = false;
        if (chunk[0] === 0xff && chunk[1] === 0xfe) return "utf-16le";
        if (chunk[0] === 0xfe && chunk[1] === 0xff) return "utf-16be";
        bomUtf8 = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
        if (!bomUtf8 && looksLikeUtf16(chunk)) {
          throw new StatementFormatError(`This file looks like UTF-16 text without a byte-order mark, which cannot be read reliably. ${SAVE_AS_UTF8}`, {
            lineNo: 1,
          });
        }
      }
      // Any byte the 1252 table leaves undefined means neither UTF-8 (checked below) nor Windows-1252.
      for (const byte of UNDEFINED_IN_1252) {
        const at = chunk.indexOf(byte);
        if (at !== -1 && !bomUtf8) undefinedAt ??= { lineNo: linesBefore + countNewlines(chunk, at) + 1, byte };
      }
      if (utf8) {
        const joined = carry.length ? Buffer.concat([carry, chunk]) : chunk;
        const tail = incompleteTail(joined);
        if (!isUtf8(joined.subarray(0, joined.length - tail))) {
          if (bomUtf8) {
            const lineNo = linesBefore + 1 + countNewlines(chunk, Math.max(0, firstInvalidUtf8(joined) - carry.length));
            throw new StatementFormatError(`Line ${lineNo}: the file starts with the UTF-8 mark but is not valid UTF-8 text from here on. ${SAVE_AS_UTF8}`, {
              lineNo,
            });
          }
          utf8 = false;
        } else {
          carry = Buffer.from(joined.subarray(joined.length - tail));
        }
      }
      linesBefore += countNewlines(chunk);
    }
  } finally {
    stream.destroy();
  }
  // A file cut in the middle of a UTF-8 sequence is not valid UTF-8 either.
  if (utf8 && carry.length === 0) return "utf-8";
  if (bomUtf8)
    throw new StatementFormatError(`The file ends in the middle of a character: it is not valid UTF-8 text. ${SAVE_AS_UTF8}`, { lineNo: linesBefore + 1 });
  if (undefinedAt) {
    const hex = `0x${undefinedAt.byte.toString(16).toUpperCase()}`;
    throw new StatementFormatError(
      `Line ${undefinedAt.lineNo}: the file is neither UTF-8 nor Windows-1252 text (it holds the byte ${hex}, which Windows-1252 does not use). ${SAVE_AS_UTF8}`,
      { lineNo: undefinedAt.lineNo },
    );
  }
  return "windows-1252";
}

/** The offset of the first byte that breaks UTF-8 in `buffer` (which is known not to be valid UTF-8). */
function firstInvalidUtf8(buffer: Buffer): number {
  let low = 0;
  let high = buffer.length;
  // The longest valid prefix, by halves; a cut inside a character is moved back to its start.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const prefix = buffer.subarray(0, middle);
    if (isUtf8(prefix.subarray(0, prefix.length - incompleteTail(prefix)))) low = middle;
    else high = middle - 1;
  }
  return low - incompleteTail(buffer.subarray(0, low));
}

/**
 * The file's bytes as UTF-8, chunk by chunk, for the statement parser: UTF-8 files pass as they are, the others
 * are decoded (a UTF-16 BOM is dropped; an unpaired surrogate refuses the file).
 */
export async function* utf8Chunks(filePath: string, encoding: StatementEncoding): AsyncGenerator<Buffer, void, undefined> {
  const stream = createReadStream(filePath, { highWaterMark: CHUNK_BYTES });
  try {
    if (encoding === "utf-8") {
      for await (const chunk of stream) yield chunk as Buffer;
      return;
    }
    const decoder = new TextDecoder(encoding, { fatal: encoding !== "windows-1252" });
    try {
      for await (const chunk of stream) {
        const text = decoder.decode(chunk as Buffer, { stream: true });
        if (text) yield Buffer.from(text, "utf8");
      }
      const rest = decoder.decode();
      if (rest) yield Buffer.from(rest, "utf8");
    } catch (error) {
      if (error instanceof TypeError) throw new StatementFormatError(`The file is not valid ${ENCODING_LABELS[encoding]} text. ${SAVE_AS_UTF8}`);
      throw error;
    }
  } finally {
    stream.destroy();
  }
}
