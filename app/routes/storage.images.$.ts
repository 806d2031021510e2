import { imageKey } from "~/modules/images/images.server";
import { storedFileResponse } from "~/modules/storage/stored-file-response.server";
import type { Route } from "./+types/storage.images.$";

/**
 * GET /storage/images/<kind>/<id>/<variant>.webp: the stored image variants (images.server.ts), from storage.
 * Only exact paths of our files are served (known kind and variant, a 32-hex id: no traversal, no
 * listing). A stored file never changes (a new upload gets a new id), so browsers may keep it forever.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = imageKey(params["*"] ?? "");
  if (!key) return notFound();
  return storedFileResponse(request, key, { contentType: "image/webp", cacheControl: "public, max-age=31536000, immutable", onMissing: notFound });
}

function notFound() {
  return new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
