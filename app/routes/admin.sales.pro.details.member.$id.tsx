import { pageTitle } from "~/components/page-title";
import { SalesDetailPage } from "~/modules/ledger/reports/sales-pages";
import { adminSalesDetailLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/admin.sales.pro.details.member.$id";

export const handle = { routeName: "admin-sales-pro-details-member" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.subject.name, "PRO Royalties");

export const loader = (args: Route.LoaderArgs) => adminSalesDetailLoader(args, "pro");

export default function SalesDetailRoute({ loaderData }: Route.ComponentProps) {
  return <SalesDetailPage loaderData={loaderData} />;
}
