import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";

/**
 * A multipart body with one large file, streamed to a temporary file while it arrives (busboy), so no
 * upload ever sits in memory: an album's audio masters, a sales statement of a million lines. The small
 * fields are collected; the file's size and SHA-256 are measured on the way to disk.
 */
export interface StreamedUpload {
  fields: Record<string, string>;
  /** The temporary file; null when no file was sent. The caller moves or removes it. */
  file: { tmpPath: string; filename: string; bytes: number; sha256: string } | null;
}

export interface StreamedUploadOptions {
  /** The form field that carries the file; other file fields are skipped. */
  fileField: string;
  maxBytes: number;
  /** Where the temporary file is written (created when missing). */
  tmpDir: string;
  /** Messages for the person uploading. */
  messages: { noFile: string; unreadable: string; tooLarge: string };
}

export class StreamedUploadError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "StreamedUploadError";
  }
}

export async function receiveStreamedUpload(request: Request, options: StreamedUploadOptions): Promise<StreamedUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data") || !request.body) throw new StreamedUploadError(options.messages.noFile);
  await fs.mkdir(options.tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  let file: StreamedUpload["file"] = null;
  let tmpPath: string | null = null;
  let tooLarge = false;
  const writes: Promise<void>[] = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { files: 1, fileSize: options.maxBytes, fields: 20, fieldSize: 4096 } });
  } catch {
    throw new StreamedUploadError(options.messages.unreadable);
  }
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== options.fileField || !info.filename) {
      stream.resume();
      return;
    }
    const target = path.join(options.tmpDir, randomBytes(16).toString("hex"));
    tmpPath = target;
    let bytes = 0;
    const hash = createHash("sha256");
    stream.on("limit", () => {
      tooLarge = true;
    });
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    writes.push(
      pipeline(stream, measure, createWriteStream(target)).then(() => {
        file = { tmpPath: target, filename: info.filename ?? options.fileField, bytes, sha256: hash.digest("hex") };
      }),
    );
  });
  const discard = async () => {
    if (tmpPath) await fs.rm(tmpPath, { force: true });
  };
  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
    await Promise.all(writes);
  } catch {
    await discard();
    throw new StreamedUploadError(options.messages.unreadable);
  }
  if (tooLarge) {
    await discard();
    throw new StreamedUploadError(options.messages.tooLarge, 413);
  }
  return { fields, file };
}
