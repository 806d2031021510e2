import fs, { type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { requireAgreedUser } from "~/modules/accounts/guards.server";
import { audioFilePath } from "~/modules/catalog/songs/audio.server";
import { requireMemberSong } from "~/modules/catalog/songs/song-access.server";
import { notFound } from "~/modules/http/route-errors.server";
import type { Route } from "./+types/storage.audio.$songId";

/**
 * GET /storage/audio/{songId}: a song's master, for the players of those who may edit it (and admins);
 * anyone else gets a 404. Byte ranges are served, so a player can seek without downloading it all.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const { song } = await requireMemberSong(user, params.songId);
  const file = audioFilePath(song.audioPath);
  if (!file || !song.audioFormat) throw notFound();
  let handle: FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch {
    throw notFound();
  }
  const { size } = await handle.stat();
  const headers = new Headers({
    "Content-Type": song.audioFormat === "flac" ? "audio/flac" : "audio/wav",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, no-cache",
  });
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
  headers.set("Content-Length", String(end - start + 1));
  if (request.method === "HEAD") {
    await handle.close();
    return new Response(null, { status, headers });
  }
  const body = Readable.toWeb(handle.createReadStream({ start, end })) as ReadableStream<Uint8Array>;
  return new Response(body, { status, headers });
}
