import { memberSalesListCsvLoader } from "~/modules/ledger/reports/sales-csv.server";
import type { Route } from "./+types/member.$memberId.sales.license.export[.]csv";

/** The list's totals per artist as CSV (streamed). */
export const loader = (args: Route.LoaderArgs) => memberSalesListCsvLoader(args, "license");
