import { apiError, requireApiAdmin } from "~/modules/api/api.server";
import { VERSION_CONTENT_MAX } from "~/modules/versions/versions";
import { sanitizeVersionHtml } from "~/modules/versions/versions.server";
import type { Route } from "./+types/api.versions.preview";

/**
 * POST /api/versions/preview (administrators): the admin page's live preview, `{ data: { html } }`,
 * sanitised by the same function that stores a version, so the preview is exactly what users will see.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireApiAdmin(context);
  if (request.method !== "POST") throw apiError(405, "Method not allowed.");
  const form = await request.formData().catch(() => null);
  const content = form?.get("content");
  if (typeof content !== "string") throw apiError(422, "The content field is required.");
  if (content.length > VERSION_CONTENT_MAX * 2) throw apiError(413, "The content is too long to preview.");
  return Response.json({ data: { html: sanitizeVersionHtml(content) } }, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
