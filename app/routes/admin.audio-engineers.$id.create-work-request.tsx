import { pageTitle } from "~/components/page-title";
import { CreateWorkRequestPage } from "~/modules/marketplace/work-requests/pages/create-work-request-page";
import { createWorkRequestAction, createWorkRequestLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/admin.audio-engineers.$id.create-work-request";

export const handle = {
  routeName: "admin-audio-engineers-create-work-request",
};

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.provider.name, "Request work");

export const loader = (args: Route.LoaderArgs) => createWorkRequestLoader(args, "admin", "audio_engineer");
export const action = (args: Route.ActionArgs) => createWorkRequestAction(args, "admin", "audio_engineer");

export default function AudioEngineerCreateWorkRequestRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <CreateWorkRequestPage data={loaderData} reply={actionData} />;
}
