import { pageTitle } from "~/components/page-title";
import { JobInvitePage } from "~/modules/post-production/job-invite-page";
import { jobInviteAction, jobInviteLoader } from "~/modules/post-production/job-invite.server";
import type { Route } from "./+types/post-production-jobs.create-account";

export const handle = { routeName: "post-production-jobs-create-account" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Post Production Job");

export const loader = ({ request, context }: Route.LoaderArgs) => jobInviteLoader(request, context);

export const action = ({ request, context }: Route.ActionArgs) => jobInviteAction(request, context);

export default function PostProductionJobInviteRoute({ loaderData }: Route.ComponentProps) {
  return <JobInvitePage data={loaderData} />;
}
