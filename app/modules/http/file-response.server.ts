import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { notFound } from "./route-errors.server";

/**
 * A stored file as an HTTP answer (GET or HEAD), with byte ranges, so an audio player can seek and start
 * playing without fetching the whole file (RFC 9110 §14: one `bytes=start-end` or suffix range; an unsatisfiable
 * one answers 416). `download` names the file as an attachment: a link saves it, while an <audio> element, which
 * ignores Content-Disposition, still plays the same address. A file missing on disk answers the area's 404.
 */
export async function storedFileResponse(
  request: Request,
  file: string,
  options: { contentType: string; download?: string; cacheControl?: string },
): Promise<Response> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    throw notFound();
  }
  const { size } = await handle.stat();
  const headers = new Headers({
    "Content-Type": options.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": options.cacheControl ?? "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (options.download !== undefined) {
    const name = options.download;
    headers.set("Content-Disposition", `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`);
  }
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
    if (start > end || start >= size) {
      await handle.close();
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    }
    status = 206;
    headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  }
  headers.set("Content-Length", String(Math.max(0, end - start + 1)));
  if (request.method === "HEAD" || size === 0) {
    await handle.close();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(handle.createReadStream({ start, end })) as ReadableStream<Uint8Array>, { status, headers });
}
