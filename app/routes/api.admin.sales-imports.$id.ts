import { salesImportApiLoader } from "~/modules/ledger/imports/sales-import-routes.server";
import type { Route } from "./+types/api.admin.sales-imports.$id";

/** docs/money.md: an import's status and figures, for administrators. */
export const loader = (args: Route.LoaderArgs) => salesImportApiLoader(args);
