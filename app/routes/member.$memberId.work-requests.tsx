import { pageTitle } from "~/components/page-title";
import { MemberWorkRequestsPage } from "~/modules/marketplace/work-requests/pages/member-work-requests-page";
import { memberListLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/member.$memberId.work-requests";

export const handle = { routeName: "member-work-requests" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Work Requests");

export const loader = (args: Route.LoaderArgs) => memberListLoader(args);

export default function MemberWorkRequestsRoute({ loaderData }: Route.ComponentProps) {
  return <MemberWorkRequestsPage data={loaderData} />;
}
