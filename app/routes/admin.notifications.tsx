import { redirect } from "react-router";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { handleNotificationAction } from "~/modules/notifications/notification-actions.server";
import { deleteAdminNotification, deleteAllAdminNotifications } from "~/modules/notifications/notifications.server";
import type { Route } from "./+types/admin.notifications";

export const handle = { routeName: "admin-notifications" };

/** The admin bell posts here: the administrators' shared list. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdminUser(request, context);
  return handleNotificationAction(request, {
    memberId: user.id,
    deleteOne: deleteAdminNotification,
    deleteAll: deleteAllAdminNotifications,
  });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return redirect("/admin/dashboard");
}
