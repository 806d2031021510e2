import { storedFileResponse } from "~/modules/storage/stored-file-response.server";
import { hasValidSignature, INVALID_SIGNATURE } from "~/modules/security/signed-url.server";
import { isStorageKey } from "~/modules/storage/storage.server";
import type { Route } from "./+types/storage.signed.$";

/**
 * GET /storage/signed/<key>?expires=…&name=…&type=…&signature=…: a stored file behind a signed, short-lived URL
 * (the folder driver's `signedUrl`, docs/decisions/033-object-storage.md; with S3 the store serves these itself).
 * The signature, made by the service that checked who may read the file, is the only check: no session.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  if (!hasValidSignature(request.url)) return plain(INVALID_SIGNATURE, 403);
  if (!isStorageKey(key)) return plain("Not Found", 404);
  const query = new URL(request.url).searchParams;
  return storedFileResponse(request, key, {
    contentType: query.get("type") ?? "application/octet-stream",
    download: query.get("name") ?? undefined,
    cacheControl: "private, no-store",
    onMissing: () => plain("Not Found", 404),
  });
}

function plain(message: string, status: number) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
