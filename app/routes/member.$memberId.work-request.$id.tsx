import { pageTitle } from "~/components/page-title";
import { WorkRequestPage } from "~/modules/marketplace/work-requests/pages/work-request-page";
import { workRequestAction, workRequestLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/member.$memberId.work-request.$id";

export const handle = { routeName: "member-work-request" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData ? `Work request #${loaderData.request.id}` : "Not Found");

export const loader = (args: Route.LoaderArgs) => workRequestLoader(args, "member");
export const action = (args: Route.ActionArgs) => workRequestAction(args);

export default function MemberWorkRequestRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, ...page } = loaderData;
  return <WorkRequestPage data={page} messages={messages} reply={actionData} />;
}
