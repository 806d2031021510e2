import { pageTitle } from "~/components/page-title";
import { AdminJobsPage } from "~/modules/post-production/job-pages";
import { adminJobsLoader } from "~/modules/post-production/job-routes.server";
import type { Route } from "./+types/admin.post-production-jobs";

export const handle = { routeName: "admin-post-production-jobs" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Post Production Jobs");

export const loader = (args: Route.LoaderArgs) => adminJobsLoader(args);

export default function AdminPostProductionJobsRoute({ loaderData }: Route.ComponentProps) {
  return <AdminJobsPage loaderData={loaderData} />;
}
