import type { ShouldRevalidateFunction } from "react-router";
import { Outlet } from "react-router";
import { AreaShell } from "~/components/area-shell";
import { adminMenu } from "~/components/menus/admin-menu";
import type { AreaTitle } from "~/components/page-title";
import { reuseUnlessChanged } from "~/components/revalidation";
import { env } from "~/env.server";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { readConfig } from "~/modules/config/config.server";
import { APP_VERSION, realtimeClientConfig } from "~/modules/config/public-config.server";
import { adminNotifications } from "~/modules/notifications/notifications.server";
import { NotificationBell } from "~/components/notification-bell";
import { ConnectionIndicator, RealtimeProvider } from "~/components/realtime/realtime";
import { RevalidateOn } from "~/components/realtime/revalidate-on";
import { WhatsNew } from "~/components/whats-new";
import { whatsNewFor } from "~/modules/versions/versions.server";
import type { Route } from "./+types/admin";

export const handle = { area: "admin", routeName: "admin" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { loggedUser } = await requireAdminUser(request, context);
  const [config, notifications, whatsNew] = await Promise.all([readConfig(), adminNotifications(), whatsNewFor(loggedUser.id)]);
  return {
    loggedUser,
    config,
    notifications,
    whatsNew,
    realtime: realtimeClientConfig(),
    version: APP_VERSION,
    appName: env().APP_NAME,
    areaTitle: { suffix: "Admin Area" } satisfies AreaTitle,
  };
}

// The logged-in user and the config are fetched once and reused while moving around the area.
export const shouldRevalidate: ShouldRevalidateFunction = (args) => reuseUnlessChanged(args);

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <RealtimeProvider config={loaderData.realtime}>
      {/* Admins follow the shared admin channel; an event reloads the bell and the page's data. */}
      <RevalidateOn channel="admin-notifications" event=".admin.notifications" />
      <WhatsNew whatsNew={loaderData.whatsNew} />
      <AreaShell
        appName={loaderData.appName}
        area="admin"
        user={loaderData.loggedUser}
        homePath="/admin/dashboard"
        menu={adminMenu()}
        version={loaderData.version}
        notifications={
          <div className="flex items-center">
            <ConnectionIndicator />
            <NotificationBell list={loaderData.notifications} actionPath="/admin/notifications" label="Admin notifications" />
          </div>
        }
      >
        <Outlet />
      </AreaShell>
    </RealtimeProvider>
  );
}
