import { requireApiAdmin } from "~/modules/api/api.server";
import { adminNotifications } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/api.notifications-admin";

/** GET /api/notifications-admin: the administrators' list, `{ data, meta.total }`. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return Response.json(await adminNotifications());
}
