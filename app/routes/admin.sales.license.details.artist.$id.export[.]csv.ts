import { adminSalesDetailCsvLoader } from "~/modules/ledger/reports/sales-csv.server";
import type { Route } from "./+types/admin.sales.license.details.artist.$id.export[.]csv";

/** A detail's grouped table, or (`?table=lines`) the lines behind it, as CSV (streamed). */
export const loader = (args: Route.LoaderArgs) => adminSalesDetailCsvLoader(args, "license");
