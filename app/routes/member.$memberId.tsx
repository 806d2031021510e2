import type { ShouldRevalidateFunction } from "react-router";
import { Outlet, useRouteLoaderData } from "react-router";
import { AreaShell } from "~/components/area-shell";
import { memberMenu } from "~/components/menus/member-menu";
import { RouteErrorPage } from "~/components/error-page";
import type { AreaTitle } from "~/components/page-title";
import { pageTitle } from "~/components/page-title";
import { reuseUnlessChanged } from "~/components/revalidation";
import { SiteHeader } from "~/components/site-header";
import { env } from "~/env.server";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { readConfig } from "~/modules/config/config.server";
import { APP_VERSION, realtimeClientConfig } from "~/modules/config/public-config.server";
import { memberNotifications } from "~/modules/notifications/notifications.server";
import { NotificationBell } from "~/components/notification-bell";
import { ConnectionIndicator, RealtimeProvider } from "~/components/realtime/realtime";
import { RevalidateOn } from "~/components/realtime/revalidate-on";
import { WhatsNew } from "~/components/whats-new";
import { whatsNewFor } from "~/modules/versions/versions.server";
import { loadMemberAreaUser } from "~/modules/members/member-area.server";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/member.$memberId";
import { notFound } from "~/modules/http/route-errors.server";

export const handle = { area: "member", routeName: "member" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { loggedUser, memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  const [memberArea, config, notifications, whatsNew] = await Promise.all([
    loadMemberAreaUser(context, memberId),
    readConfig(),
    // The bell and What's new are the logged-in user's own, whoever's area is open.
    memberNotifications(loggedUser.id),
    whatsNewFor(loggedUser.id),
  ]);
  if (!memberArea) throw notFound();
  return {
    loggedUser,
    memberArea,
    config,
    notifications,
    whatsNew,
    realtime: realtimeClientConfig(),
    version: APP_VERSION,
    appName: env().APP_NAME,
    areaTitle: { prefix: memberArea.fullname } satisfies AreaTitle,
  };
}

// Per-member data is reused while the member id is unchanged and nothing was submitted.
export const shouldRevalidate: ShouldRevalidateFunction = (args) => reuseUnlessChanged(args, "memberId");

export default function MemberLayout({ loaderData }: Route.ComponentProps) {
  const { loggedUser, memberArea } = loaderData;
  return (
    <RealtimeProvider config={loaderData.realtime}>
      {/* The user's own channel: a new or deleted notification reloads the bell and the page's data. */}
      <RevalidateOn channel={`member-notifications.${loggedUser.id}`} event=".member.notifications" />
      {/* Inside the member area a newly published version is fetched and shown live. */}
      <WhatsNew whatsNew={loaderData.whatsNew} live />
      <AreaShell
        appName={loaderData.appName}
        area="member"
        user={loggedUser}
        homePath={loggedUser.acct_type === 2 && loggedUser.id !== memberArea.id ? "/admin/dashboard" : `/member/${memberArea.id}/dashboard`}
        menu={memberMenu({
          memberId: memberArea.id,
          profiles: memberArea.profiles,
          postProductionJobsCount: loggedUser.id === memberArea.id ? loggedUser.post_production_jobs_count : 0,
        })}
        version={loaderData.version}
        notifications={
          <div className="flex items-center">
            <ConnectionIndicator />
            <NotificationBell list={loaderData.notifications} actionPath={`/member/${memberArea.id}/notifications`} label="Notifications" />
          </div>
        }
      >
        {loggedUser.id !== memberArea.id ? (
          <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            You are viewing the member area of {memberArea.fullname} as an administrator.
          </p>
        ) : null}
        <Outlet />
      </AreaShell>
    </RealtimeProvider>
  );
}

export const meta: Route.MetaFunction = ({ matches, error }) => (error ? pageTitle(matches, "Not Found") : []);

/** member-not-found: someone else's member id (or none) shows Not Found and nothing of that member. */
export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader appName={root?.appName ?? "Backline"} user={root?.user ?? null} />
      <main className="flex-1">
        <RouteErrorPage homeHref={root?.user?.dashboardPath ?? "/"} homeLabel="Back to your dashboard" />
      </main>
    </div>
  );
}
