import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { adminSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/admin.sales.license._index";

export const handle = { routeName: "admin-sales-license" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "License Royalties");

export const loader = (args: Route.LoaderArgs) => adminSalesListLoader(args, "license");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
