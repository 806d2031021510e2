import { pageTitle } from "~/components/page-title";
import { CreateWorkRequestPage } from "~/modules/marketplace/work-requests/pages/create-work-request-page";
import { createWorkRequestAction, createWorkRequestLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/member.$memberId.studios.$id.create-work-request";

export const handle = { routeName: "member-studios-create-work-request" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.provider.name, "Request work");

export const loader = (args: Route.LoaderArgs) => createWorkRequestLoader(args, "member", "studio");
export const action = (args: Route.ActionArgs) => createWorkRequestAction(args, "member", "studio");

export default function StudioCreateWorkRequestRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <CreateWorkRequestPage data={loaderData} reply={actionData} />;
}
