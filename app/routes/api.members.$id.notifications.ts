import { apiError, requireApiMember } from "~/modules/api/api.server";
import { memberNotifications } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/api.members.$id.notifications";

/** GET /api/members/{id}/notifications: `{ data, meta.total }`, one's own only. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, memberId } = await requireApiMember(context, params.id);
  if (memberId !== user.id) throw apiError(404, "Not found.");
  return Response.json(await memberNotifications(user.id));
}
