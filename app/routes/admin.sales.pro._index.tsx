import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { adminSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/admin.sales.pro._index";

export const handle = { routeName: "admin-sales-pro" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "PRO Royalties");

export const loader = (args: Route.LoaderArgs) => adminSalesListLoader(args, "pro");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
