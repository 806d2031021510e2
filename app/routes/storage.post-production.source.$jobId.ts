import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { audioFilePath } from "~/modules/catalog/songs/audio.server";
import { notFound } from "~/modules/http/route-errors.server";
import { sourceAudioForDownload } from "~/modules/post-production/post-production.server";
import type { Route } from "./+types/storage.post-production.source.$jobId";

/**
 * GET /storage/post-production/source/{jobId}: the song's current audio, for the engineer of an open job to
 * work from (and its owner, administrators), as a download; anyone else gets a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.jobId);
  const source = id === null ? null : await sourceAudioForDownload(user, id);
  const file = source ? audioFilePath(source.audioPath) : null;
  if (!source || !file) throw notFound();
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    throw notFound();
  }
  const { size } = await handle.stat();
  const name = `${source.title}.${source.format}`;
  const headers = new Headers({
    "Content-Type": source.format === "flac" ? "audio/flac" : "audio/wav",
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
