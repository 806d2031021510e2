import { adminSignaturesCsvLoader } from "~/modules/legal/signatures/signatures-csv.server";
import type { Route } from "./+types/admin.signatures.export[.]csv";

/** The signatures list as CSV under the same filters (streamed). */
export const loader = (args: Route.LoaderArgs) => adminSignaturesCsvLoader(args);
