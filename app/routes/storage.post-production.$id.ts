import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import { deliveryForDownload } from "~/modules/post-production/job-deliveries.server";
import { storedFileResponse } from "~/modules/storage/stored-file-response.server";
import type { Route } from "./+types/storage.post-production.$id";

/**
 * GET /storage/post-production/{id}: a post-production job's delivered file, for the job's owner, its engineer
 * and administrators, as a download (with byte ranges, for the page's player); anyone else gets a 404, as for a
 * missing id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.id);
  const found = id === null ? null : await deliveryForDownload(user, id);
  if (!found) throw notFound();
  return storedFileResponse(request, found.key, { contentType: found.delivery.mime, download: found.delivery.fileName });
}
