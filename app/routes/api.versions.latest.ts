import { requireApiUser } from "~/modules/api/api.server";
import { whatsNewFor } from "~/modules/versions/versions.server";
import type { Route } from "./+types/api.versions.latest";

/**
 * GET /api/versions/latest: the newest version and whether the signed-in user has
 * seen it, `{ data: { version: { id, name, content }, seen } }`, or `{ data: null }` before the first one.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = await requireApiUser(context);
  return Response.json({ data: await whatsNewFor(user.id) }, { headers: { "Cache-Control": "private, no-store" } });
}
