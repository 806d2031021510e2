import { parseId, requireAgreedUser } from "~/modules/accounts/guards.server";
import { storedFileResponse } from "~/modules/http/file-response.server";
import { notFound } from "~/modules/http/route-errors.server";
import { deliverableFilePath, deliverableForDownload } from "~/modules/marketplace/projects/deliverable-files.server";
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
  const file = deliverable ? deliverableFilePath(deliverable.filePath) : null;
  if (!deliverable || !file) throw notFound();
  return storedFileResponse(request, file, { contentType: deliverable.mime, download: deliverable.fileName });
}
