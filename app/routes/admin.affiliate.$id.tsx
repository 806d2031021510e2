import { pageTitle } from "~/components/page-title";
import { AdminAffiliatePage } from "~/modules/affiliates/affiliate-pages";
import { adminAffiliateAction, adminAffiliateLoader } from "~/modules/affiliates/affiliate-routes.server";
import type { Route } from "./+types/admin.affiliate.$id";

export const handle = { routeName: "admin-affiliate" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Affiliate #${loaderData.affiliate.id}` : undefined, "Affiliate");

export const loader = (args: Route.LoaderArgs) => adminAffiliateLoader(args);

export const action = (args: Route.ActionArgs) => adminAffiliateAction(args);

export default function AdminAffiliateRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminAffiliatePage loaderData={loaderData} actionData={actionData} />;
}
