import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { audioContentType, audioKey } from "~/modules/catalog/songs/audio.server";
import { notFound } from "~/modules/http/route-errors.server";
import { storedFileResponse } from "~/modules/storage/stored-file-response.server";
import { sourceAudioForDownload } from "~/modules/post-production/job-deliveries.server";
import type { Route } from "./+types/storage.post-production.source.$jobId";

/**
 * GET /storage/post-production/source/{jobId}: the song's current audio, for the engineer of an open job to
 * work from (and its owner, administrators), as a download (with byte ranges, for the page's player); anyone else
 * gets a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.jobId);
  const source = id === null ? null : await sourceAudioForDownload(user, id);
  const key = source ? audioKey(source.audioPath) : null;
  if (!source || !key) throw notFound();
  return storedFileResponse(request, key, { contentType: audioContentType(source.format), download: `${source.title}.${source.format}` });
}
