import { pageTitle } from "~/components/page-title";
import { JobPage } from "~/modules/post-production/job-pages";
import { adminJobAction, adminJobLoader } from "~/modules/post-production/job-routes.server";
import type { Route } from "./+types/admin.post-production-job.$id";

export const handle = { routeName: "admin-post-production-job" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Job #${loaderData.job.id}` : undefined, "Post Production Job");

export const loader = (args: Route.LoaderArgs) => adminJobLoader(args);

export const action = (args: Route.ActionArgs) => adminJobAction(args);

export default function AdminPostProductionJobRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <JobPage loaderData={loaderData} actionData={actionData} />;
}
