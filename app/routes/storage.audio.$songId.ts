import { requireAgreedUser } from "~/modules/accounts/guards.server";
import { audioFilePath } from "~/modules/catalog/songs/audio.server";
import { requireMemberSong } from "~/modules/catalog/songs/song-access.server";
import { storedFileResponse } from "~/modules/http/file-response.server";
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
  return storedFileResponse(request, file, { contentType: song.audioFormat === "flac" ? "audio/flac" : "audio/wav", cacheControl: "private, no-cache" });
}
