import { pageTitle } from "~/components/page-title";
import { SalesImportPage } from "~/modules/ledger/imports/sales-import-pages";
import { salesImportAction, salesImportLoader } from "~/modules/ledger/imports/sales-import-routes.server";
import type { Route } from "./+types/admin.upload-sales.$id";

export const handle = { routeName: "admin-sales-import" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data ? `Import #${data.salesImport.id}` : "Sales import");

export const loader = (args: Route.LoaderArgs) => salesImportLoader(args);
export const action = (args: Route.ActionArgs) => salesImportAction(args);

export default function SalesImportRoute({ loaderData }: Route.ComponentProps) {
  return <SalesImportPage loaderData={loaderData} />;
}
