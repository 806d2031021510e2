import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { imageFilePath } from "~/modules/images/images.server";
import type { Route } from "./+types/storage.images.$";

/**
 * GET /storage/images/<kind>/<id>/<variant>.webp: the stored image variants (images.server.ts).
 * Only exact paths of our files are served (known kind and variant, a 32-hex id: no traversal, no
 * listing). A stored file never changes (a new upload gets a new id), so browsers may keep it forever.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const file = imageFilePath(params["*"] ?? "");
  if (!file) return notFound();

  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    return notFound();
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return notFound();
    }
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers = new Headers({
      "Content-Type": "image/webp",
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: etag,
      "Last-Modified": stat.mtime.toUTCString(),
    });
    if (request.headers.get("if-none-match") === etag) {
      await handle.close();
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Length", String(stat.size));
    if (request.method === "HEAD") {
      await handle.close();
      return new Response(null, { status: 200, headers });
    }
    // The stream closes the handle when it ends or the client goes away.
    const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

function notFound() {
  return new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
