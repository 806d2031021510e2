import { pageTitle } from "~/components/page-title";
import { MemberJobsPage } from "~/modules/post-production/job-pages";
import { memberJobsAction, memberJobsLoader } from "~/modules/post-production/job-routes.server";
import type { Route } from "./+types/member.$memberId.post-production-jobs";

export const handle = { routeName: "member-post-production-jobs" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Post Production Jobs");

export const loader = (args: Route.LoaderArgs) => memberJobsLoader(args);

export const action = (args: Route.ActionArgs) => memberJobsAction(args);

export default function MemberPostProductionJobsRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <MemberJobsPage loaderData={loaderData} actionData={actionData} />;
}
