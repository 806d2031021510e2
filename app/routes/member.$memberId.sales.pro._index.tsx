import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { memberSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/member.$memberId.sales.pro._index";

export const handle = { routeName: "member-sales-pro" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "PRO Royalties");

export const loader = (args: Route.LoaderArgs) => memberSalesListLoader(args, "pro");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
