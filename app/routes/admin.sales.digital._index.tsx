import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { adminSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/admin.sales.digital._index";

export const handle = { routeName: "admin-sales-digital" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Digital Sales");

export const loader = (args: Route.LoaderArgs) => adminSalesListLoader(args, "digital");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
