import { pageTitle } from "~/components/page-title";
import { SalesDetailPage } from "~/modules/ledger/reports/sales-pages";
import { adminSalesDetailLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/admin.sales.license.details.artist.$id";

export const handle = { routeName: "admin-sales-license-details-artist" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.subject.name, "License Royalties");

export const loader = (args: Route.LoaderArgs) => adminSalesDetailLoader(args, "license");

export default function SalesDetailRoute({ loaderData }: Route.ComponentProps) {
  return <SalesDetailPage loaderData={loaderData} />;
}
