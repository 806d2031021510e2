import { memberSalesDetailCsvLoader } from "~/modules/ledger/reports/sales-csv.server";
import type { Route } from "./+types/member.$memberId.sales.pro.detail.artist.$id.export[.]csv";

/** A detail's grouped table, or (`?table=lines`) the lines behind it, as CSV (streamed). */
export const loader = (args: Route.LoaderArgs) => memberSalesDetailCsvLoader(args, "pro");
