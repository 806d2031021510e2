import { splitSheetPdfLoader } from "~/modules/splits/split-routes.server";
import type { Route } from "./+types/admin.song-profile.$id.split-sheet.$versionId";

/** The signed split sheet of a version, as a PDF (administrators). */
export const loader = (args: Route.LoaderArgs) => splitSheetPdfLoader(args, "admin");
