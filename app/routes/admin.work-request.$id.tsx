import { pageTitle } from "~/components/page-title";
import { WorkRequestPage } from "~/modules/marketplace/work-requests/pages/work-request-page";
import { workRequestLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/admin.work-request.$id";

export const handle = { routeName: "admin-work-request" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData ? `Work request #${loaderData.request.id}` : "Not Found");

export const loader = (args: Route.LoaderArgs) => workRequestLoader(args, "admin");

export default function AdminWorkRequestRoute({ loaderData }: Route.ComponentProps) {
  const { messages, ...page } = loaderData;
  return <WorkRequestPage data={page} messages={messages} reply={undefined} />;
}
