import { apiError, requireApiMember } from "~/modules/api/api.server";
import { socketIdOf } from "~/modules/notifications/broadcaster.server";
import { deleteAllMemberNotifications, deleteMemberNotification } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/api.members.$id.notifications.$notificationId";

/** DELETE /api/members/{id}/notifications/{notificationId|all}. */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") throw apiError(405, "Method not allowed.");
  const { user, memberId } = await requireApiMember(context, params.id);
  if (memberId !== user.id) throw apiError(404, "Not found.");
  const options = { socketId: socketIdOf(request) };
  if (params.notificationId === "all") {
    return Response.json({ deleted: await deleteAllMemberNotifications(user.id, options) });
  }
  const deleted = await deleteMemberNotification(user.id, params.notificationId, options);
  if (!deleted) throw apiError(404, "Not found.");
  return Response.json({ deleted: 1 });
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
