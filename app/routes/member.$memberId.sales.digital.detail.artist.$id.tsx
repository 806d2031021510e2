import { pageTitle } from "~/components/page-title";
import { SalesDetailPage } from "~/modules/ledger/reports/sales-pages";
import { memberSalesDetailLoader } from "~/modules/ledger/reports/sales-reports.server";
import type { Route } from "./+types/member.$memberId.sales.digital.detail.artist.$id";

export const handle = { routeName: "member-sales-digital-detail-artist" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.subject.name, "Digital Sales");

export const loader = (args: Route.LoaderArgs) => memberSalesDetailLoader(args, "digital");

export default function SalesDetailRoute({ loaderData }: Route.ComponentProps) {
  return <SalesDetailPage loaderData={loaderData} />;
}
