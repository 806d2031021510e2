import { parseId } from "~/modules/accounts/guards.server";
import { apiError, requireApiUser } from "~/modules/api/api.server";
import { recordView } from "~/modules/versions/versions.server";
import type { Route } from "./+types/api.versions.$id.view";

/** POST /api/versions/{id}/view: records that the signed-in user saw the version (idempotent). 204, or 404 JSON. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireApiUser(context);
  if (request.method !== "POST") throw apiError(405, "Method not allowed.");
  const versionId = parseId(params.id);
  if (versionId === null || !(await recordView(user.id, versionId))) throw apiError(404, "Not found.");
  return new Response(null, { status: 204 });
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
