import { pageTitle } from "~/components/page-title";
import { UploadSalesPage } from "~/modules/ledger/imports/sales-import-pages";
import { uploadSalesAction, uploadSalesLoader } from "~/modules/ledger/imports/sales-import-routes.server";
import type { Route } from "./+types/admin.upload-sales._index";

export const handle = { routeName: "admin-upload-sales" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Upload sales");

export const loader = (args: Route.LoaderArgs) => uploadSalesLoader(args);
export const action = (args: Route.ActionArgs) => uploadSalesAction(args);

export default function UploadSalesRoute({ loaderData }: Route.ComponentProps) {
  return <UploadSalesPage loaderData={loaderData} />;
}
