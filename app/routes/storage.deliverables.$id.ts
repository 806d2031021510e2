import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import { deliverableForDownload, deliverableKey } from "~/modules/marketplace/projects/deliverable-files.server";
import { storedFileResponse } from "~/modules/storage/stored-file-response.server";
import type { Route } from "./+types/storage.deliverables.$id";

/**
 * GET /storage/deliverables/{id}: a project's delivered file, for the project's client, its provider's owner
 * and administrators, as a download (with byte ranges, for the page's player); anyone else gets a 404, as for a
 * missing id.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = requireAgreedUser(request, context);
  const id = parseId(params.id);
  const deliverable = id === null ? null : await deliverableForDownload(user, id);
  const key = deliverable ? deliverableKey(deliverable.filePath) : null;
  if (!deliverable || !key) throw notFound();
  return storedFileResponse(request, key, { contentType: deliverable.mime, download: deliverable.fileName });
}
