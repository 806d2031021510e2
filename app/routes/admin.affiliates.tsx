import { pageTitle } from "~/components/page-title";
import { AdminAffiliatesPage } from "~/modules/affiliates/affiliate-pages";
import { adminAffiliatesLoader } from "~/modules/affiliates/affiliate-routes.server";
import type { Route } from "./+types/admin.affiliates";

export const handle = { routeName: "admin-affiliates" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Affiliates");

export const loader = (args: Route.LoaderArgs) => adminAffiliatesLoader(args);

export default function AdminAffiliatesRoute({ loaderData }: Route.ComponentProps) {
  return <AdminAffiliatesPage loaderData={loaderData} />;
}
