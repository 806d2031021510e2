import { pageTitle } from "~/components/page-title";
import { SalesDetailPage } from "~/modules/ledger/reports/sales-pages";
import { memberSalesDetailLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/member.$memberId.sales.license.detail.artist.$id";

export const handle = { routeName: "member-sales-license-detail-artist" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.subject.name, "License Royalties");

export const loader = (args: Route.LoaderArgs) => memberSalesDetailLoader(args, "license");

export default function SalesDetailRoute({ loaderData }: Route.ComponentProps) {
  return <SalesDetailPage loaderData={loaderData} />;
}
