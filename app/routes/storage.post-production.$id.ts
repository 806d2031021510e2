import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import { deliveryForDownload } from "~/modules/post-production/post-production.server";
import type { Route } from "./+types/storage.post-production.$id";

/**
 * GET /storage/post-production/{id}: a post-production job's delivered file, for the job's owner, its engineer
 * and administrators, as a download; anyone else gets a 404, as for a missing id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.id);
  const found = id === null ? null : await deliveryForDownload(user, id);
  if (!found) throw notFound();
  let handle: FileHandle;
  try {
    handle = await fs.open(found.file, "r");
  } catch {
    throw notFound();
  }
  const { size } = await handle.stat();
  const name = found.delivery.fileName;
  const headers = new Headers({
    "Content-Type": found.delivery.mime,
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (request.method === "HEAD") {
    await handle.close();
    return new Response(null, { headers });
  }
  return new Response(Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>, { headers });
}
