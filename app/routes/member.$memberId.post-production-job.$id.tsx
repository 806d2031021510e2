import { pageTitle } from "~/components/page-title";
import { JobPage } from "~/modules/post-production/job-pages";
import { memberJobAction, memberJobLoader } from "~/modules/post-production/job-routes.server";
import type { Route } from "./+types/member.$memberId.post-production-job.$id";

export const handle = { routeName: "member-post-production-job" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Job #${loaderData.job.id}` : undefined, "Post Production Job");

export const loader = (args: Route.LoaderArgs) => memberJobLoader(args);

export const action = (args: Route.ActionArgs) => memberJobAction(args);

export default function MemberPostProductionJobRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <JobPage loaderData={loaderData} actionData={actionData} />;
}
