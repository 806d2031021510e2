import { apiError, requireApiAdmin } from "~/modules/api/api.server";
import { socketIdOf } from "~/modules/notifications/broadcaster.server";
import { deleteAdminNotification, deleteAllAdminNotifications } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/api.notifications-admin.$notificationId";

/** DELETE /api/notifications-admin/{notificationId|all}. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") throw apiError(405, "Method not allowed.");
  await requireApiAdmin(context);
  const options = { socketId: socketIdOf(request) };
  if (params.notificationId === "all") return Response.json({ deleted: await deleteAllAdminNotifications(options) });
  const deleted = await deleteAdminNotification(params.notificationId, options);
  if (!deleted) throw apiError(404, "Not found.");
  return Response.json({ deleted: 1 });
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
