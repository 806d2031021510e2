import { Readable } from "node:stream";
import { parseId, requireAdminUser } from "~/modules/accounts/guards.server";
import { findDelivery } from "~/modules/catalog/delivery/delivery.server";
import { notFound } from "~/modules/http/route-errors.server";
import { storage } from "~/modules/storage/storage.server";
import type { Route } from "./+types/admin.release-profile.$id.delivery.$deliveryId";

/**
 * GET /admin/release-profile/{id}/delivery/{deliveryId}: an administrator downloads a release's delivery
 * package (the zip of delivery.server.ts, read from storage). A package of another release, or an unknown one,
 * is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdminUser(request, context);
  const releaseId = parseId(params.id);
  const deliveryId = parseId(params.deliveryId);
  if (releaseId === null || deliveryId === null) throw notFound();
  const found = await findDelivery(releaseId, deliveryId);
  if (!found) throw notFound();
  const body = Readable.toWeb(await storage().read(found.key)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(found.delivery.packageBytes),
      "Content-Disposition": `attachment; filename="${found.delivery.messageId}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-SHA256": found.delivery.packageSha256,
    },
  });
}
