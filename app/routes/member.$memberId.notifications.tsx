import { redirect } from "react-router";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { handleNotificationAction } from "~/modules/notifications/notification-actions.server";
import { deleteAllMemberNotifications, deleteMemberNotification } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/member.$memberId.notifications";

export const handle = { routeName: "member-notifications" };

/** The member's bell posts here. Only one's own notifications: the user's id, whoever's area is open. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireMemberAreaAccess(request, context, params.memberId);
  return handleNotificationAction(request, {
    memberId: user.id,
    deleteOne: (id, options) => deleteMemberNotification(user.id, id, options),
    deleteAll: (options) => deleteAllMemberNotifications(user.id, options),
  });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return redirect(`/member/${memberId}/dashboard`);
}
