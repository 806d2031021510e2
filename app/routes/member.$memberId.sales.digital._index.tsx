import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { memberSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/member.$memberId.sales.digital._index";

export const handle = { routeName: "member-sales-digital" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Digital Sales");

export const loader = (args: Route.LoaderArgs) => memberSalesListLoader(args, "digital");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
