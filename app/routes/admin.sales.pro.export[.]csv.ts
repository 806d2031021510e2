import { adminSalesListCsvLoader } from "~/modules/ledger/reports/sales-csv.server";
import type { Route } from "./+types/admin.sales.pro.export[.]csv";

/** The list's totals as CSV (streamed). */
export const loader = (args: Route.LoaderArgs) => adminSalesListCsvLoader(args, "pro");
