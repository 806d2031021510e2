import { pageTitle } from "~/components/page-title";
import { EstimatePage } from "~/modules/marketplace/work-requests/pages/estimate-page";
import { estimatePageLoader } from "~/modules/marketplace/work-requests/work-request-routes.server";
import type { Route } from "./+types/admin.work-request.estimate.$id";

/** `{id}` is the work request's id: the page holds every version of its estimate (decision 021). */
export const handle = { routeName: "admin-work-request-estimate" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Estimate for work request #${loaderData.request.id}` : "Not Found");

export const loader = (args: Route.LoaderArgs) => estimatePageLoader(args, "admin");

export default function AdminEstimateRoute({ loaderData }: Route.ComponentProps) {
  return <EstimatePage data={loaderData} reply={undefined} />;
}
