import { requireApiAdmin } from "~/modules/api/api.server";
import { adminNotifications } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/api.notifications-admin";

/** GET /api/notifications-admin: the administrators' list, `{ data, meta.total }`. */
export async function loader({ context }: Route.LoaderArgs) {
  await requireApiAdmin(context);
  return Response.json(await adminNotifications());
}
