import { splitSheetPdfLoader } from "~/modules/splits/split-routes.server";
import type { Route } from "./+types/member.$memberId.song-profile.$id.split-sheet.$versionId";

/** The signed split sheet of a version, as a PDF: for the song's parties and editors (404 to anyone else). */
export const loader = (args: Route.LoaderArgs) => splitSheetPdfLoader(args, "member");
