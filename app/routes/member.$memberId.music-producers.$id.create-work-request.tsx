import { pageTitle } from "~/components/page-title";
import { CreateWorkRequestPage } from "~/modules/marketplace/work-requests/pages/create-work-request-page";
import { createWorkRequestAction, createWorkRequestLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/member.$memberId.music-producers.$id.create-work-request";

export const handle = {
  routeName: "member-music-producers-create-work-request",
};

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.provider.name, "Request work");

export const loader = (args: Route.LoaderArgs) => createWorkRequestLoader(args, "member", "music_producer");
export const action = (args: Route.ActionArgs) => createWorkRequestAction(args, "member", "music_producer");

export default function MusicProducerCreateWorkRequestRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <CreateWorkRequestPage data={loaderData} reply={actionData} />;
}
