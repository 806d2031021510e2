import { pageTitle } from "~/components/page-title";
import { AdminWorkRequestsPage } from "~/modules/marketplace/work-requests/pages/admin-work-requests-page";
import { adminListLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/admin.work-requests";

export const handle = { routeName: "admin-work-requests" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Work Requests");

export const loader = (args: Route.LoaderArgs) => adminListLoader(args);

export default function AdminWorkRequestsRoute({ loaderData }: Route.ComponentProps) {
  return <AdminWorkRequestsPage data={loaderData} />;
}
