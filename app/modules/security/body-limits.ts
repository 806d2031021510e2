import { IMAGE_MAX_BYTES } from "~/modules/images/image-rules";

/**
 * How large a request body may be, decided from its path before any of it is read (server/app.js
 * answers 413 with `Connection: close` above it). Forms and JSON are small; only the routes that take
 * a file get more, and those still check their own, lower, limit to show a message beside the field.
 */
export const FORM_BODY_MAX_BYTES = 1024 * 1024;

/** The largest body an image form may send: the image limit plus room for framing and other fields. */
export const UPLOAD_BODY_MAX_BYTES = IMAGE_MAX_BYTES + 256 * 1024;

/**
 * Routes whose forms send files (member avatar, profile hero and artist picture), with or without the
 * `.data` suffix of a JavaScript submission. A route that adds a file field adds its path here.
 */
export const UPLOAD_PATHS: RegExp[] = [/^\/member\/[^/]+\/profile(?:\.data)?$/, /^\/(?:member\/[^/]+|admin)\/[a-z-]+-profile\/[^/]+(?:\.data)?$/];

/** A song's page takes its audio master (WAV or FLAC, app/modules/catalog/songs/audio.server.ts: 250 MB). */
export const AUDIO_BODY_MAX_BYTES = 250 * 1024 * 1024 + 256 * 1024;
export const AUDIO_PATHS: RegExp[] = [
  /^\/(?:member\/[^/]+|admin)\/song-profile\/[^/]+(?:\.data)?$/,
  // A post-production job's delivery: the song's next audio (app/modules/post-production: 250 MB).
  /^\/member\/[^/]+\/post-production-job\/[^/]+(?:\.data)?$/,
  // The distribution flow's new track, with its audio (app/modules/catalog/releases/new-track.server.ts); its other
  // forms (the cover art among them) keep their own limits (readReleaseForm).
  /^\/member\/[^/]+\/digital-distribution\/(?:start|new-track)(?:\.data)?$/,
];

/** Sales statements (app/modules/ledger/imports/sales-imports.server.ts: 512 MB). */
export const STATEMENT_BODY_MAX_BYTES = 512 * 1024 * 1024 + 256 * 1024;
export const STATEMENT_PATHS: RegExp[] = [/^\/admin\/upload-sales(?:\.data)?$/];

/** A project's deliverables (app/modules/marketplace/projects/deliverable-files.server.ts: 500 MB). */
export const DELIVERABLE_BODY_MAX_BYTES = 500 * 1024 * 1024 + 256 * 1024;
export const DELIVERABLE_PATHS: RegExp[] = [/^\/member\/[^/]+\/project\/[^/]+(?:\.data)?$/];

/**
 * The HTTP layer's hard cap per path. An upload route gets twice its own limit, so that a body just
 * over it still reaches the route, which answers with the message beside the file field.
 */
export function bodyLimitFor(pathname: string): number {
  if (AUDIO_PATHS.some((path) => path.test(pathname))) return AUDIO_BODY_MAX_BYTES;
  if (STATEMENT_PATHS.some((path) => path.test(pathname))) return STATEMENT_BODY_MAX_BYTES;
  if (DELIVERABLE_PATHS.some((path) => path.test(pathname))) return DELIVERABLE_BODY_MAX_BYTES;
  return UPLOAD_PATHS.some((path) => path.test(pathname)) ? 2 * UPLOAD_BODY_MAX_BYTES : FORM_BODY_MAX_BYTES;
}
