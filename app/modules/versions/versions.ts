/**
 * App versions ("What's new"), shared by the browser and the server: the limits, the realtime names and
 * the shapes the API and the layouts hand to the modal. The publish form's schema is in
 * version-schema.ts, so that pages showing the modal ship no schema library.
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
