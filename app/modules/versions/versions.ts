import { z } from "zod";

/**
 * App versions ("What's new"), shared by the browser and the server: the publish form's schema, the
 * realtime names and the shapes the API and the layouts hand to the modal.
 */
export const VERSION_NAME_MAX = 80;
export const VERSION_CONTENT_MAX = 20_000;

/** The public channel (no auth) and event announcing a new version; the data is only `{ id, name }`. */
export const VERSIONS_CHANNEL = "app-versions";
export const VERSION_PUBLISHED_EVENT = "version.published";

/** Set to "true" by the service worker's update flow; the modal refetches the latest version, then removes it. */
export const NEW_VERSION_STORAGE_KEY = "backline:new-version";

export interface VersionContent {
  id: number;
  name: string;
  /** Sanitised HTML. */
  content: string;
}

/** What `GET /api/versions/latest` answers in `data`, and what a layout loader passes to <WhatsNew>. */
export interface WhatsNew {
  version: VersionContent;
  seen: boolean;
}

export const PublishVersionSchema = z.object({
  name: z
    .string({ error: "Enter a version name." })
    .transform((v) => v.replace(/\s+/g, " ").trim())
    // Conform turns the trimmed empty string into "missing", so the inner string carries the message too.
    .pipe(
      z
        .string({ error: "Enter a version name." })
        .min(1, "Enter a version name.")
        .max(VERSION_NAME_MAX, `The name can be at most ${VERSION_NAME_MAX} characters.`),
    ),
  content: z
    .string({ error: "Describe what is new." })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string({ error: "Describe what is new." })
        .min(1, "Describe what is new.")
        .max(VERSION_CONTENT_MAX, `The content can be at most ${VERSION_CONTENT_MAX.toLocaleString("en-US")} characters.`),
    ),
});
