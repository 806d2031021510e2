import { pageTitle } from "~/components/page-title";
import { SalesListPage } from "~/modules/ledger/reports/sales-pages";
import { memberSalesListLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/member.$memberId.sales.license._index";

export const handle = { routeName: "member-sales-license" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "License Royalties");

export const loader = (args: Route.LoaderArgs) => memberSalesListLoader(args, "license");

export default function SalesListRoute({ loaderData }: Route.ComponentProps) {
  return <SalesListPage loaderData={loaderData} />;
}
