import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import { deliverableFilePath, deliverableForDownload } from "~/modules/marketplace/projects/deliverable-files.server";
import type { Route } from "./+types/storage.deliverables.$id";

/**
 * GET /storage/deliverables/{id}: a project's delivered file, for the project's client, its provider's owner
 * and administrators, as a download; anyone else gets a 404, as for a missing id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.id);
  const deliverable = id === null ? null : await deliverableForDownload(user, id);
  const file = deliverable ? deliverableFilePath(deliverable.filePath) : null;
  if (!deliverable || !file) throw notFound();
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    throw notFound();
  }
  const { size } = await handle.stat();
  const headers = new Headers({
    "Content-Type": deliverable.mime,
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${deliverable.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(deliverable.fileName)}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  if (request.method === "HEAD") {
    await handle.close();
    return new Response(null, { headers });
  }
  return new Response(Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>, { headers });
}
