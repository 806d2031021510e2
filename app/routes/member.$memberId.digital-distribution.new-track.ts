import { newTrackUploadAction } from "~/modules/catalog/distribution/distribution.server";
import type { Route } from "./+types/member.$memberId.digital-distribution.new-track";

/**
 * POST /member/{id}/digital-distribution/new-track?release={id}: the Tracks step's new track sent by the page's
 * script with upload progress; JSON answers (app/modules/http/progress-upload.server.ts). Without JavaScript the
 * form posts to the step itself.
 */
export const action = (args: Route.ActionArgs) => newTrackUploadAction(args);
