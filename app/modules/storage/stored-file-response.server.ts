import { Readable } from "node:stream";
import { notFound } from "~/modules/http/route-errors.server";
import { storage, StoredFileMissingError } from "./storage.server";
import { attachmentDisposition } from "./storage-core";

/**
 * A stored file (by storage key, docs/decisions/033-object-storage.md) as an HTTP answer (GET or HEAD), with byte
 * ranges, so an audio player can seek and start playing without fetching the whole file (RFC 9110 §14: one
 * `bytes=start-end` or suffix range; an unsatisfiable one answers 416): only the range is read from storage.
 * `download` names the file as an attachment: a link saves it, while an <audio> element, which ignores
 * Content-Disposition, still plays the same address. With the ETag a browser revalidates (304) instead of
 * downloading again. A missing file answers the area's 404, or `onMissing`'s answer.
 */
export async function storedFileResponse(
  request: Request,
  key: string,
  options: { contentType: string; download?: string; cacheControl?: string; onMissing?: () => Response },
): Promise<Response> {
  const missing = () => {
    if (options.onMissing) return options.onMissing();
    throw notFound();
  };
  const store = storage();
  const info = await store.stat(key);
  if (!info) return missing();
  const { size } = info;
  const headers = new Headers({
    "Content-Type": options.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": options.cacheControl ?? "private, no-store",
    "X-Content-Type-Options": "nosniff",
    ETag: info.etag,
    "Last-Modified": info.lastModified.toUTCString(),
  });
  if (options.download !== undefined) headers.set("Content-Disposition", attachmentDisposition(options.download));
  if (request.headers.get("if-none-match") === info.etag) return new Response(null, { status: 304, headers });
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("range") ?? "");
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    } else {
      // A suffix range: the last N bytes.
      start = Math.max(0, size - Number(range[2]));
    }
    if (start > end || start >= size) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    status = 206;
    headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  }
  headers.set("Content-Length", String(Math.max(0, end - start + 1)));
  if (request.method === "HEAD" || size === 0) return new Response(null, { status, headers });
  let body: Readable;
  try {
    body = await store.read(key, status === 206 ? { start, end } : undefined);
  } catch (error) {
    // Deleted between the two calls.
    if (error instanceof StoredFileMissingError) return missing();
    throw error;
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers });
}
