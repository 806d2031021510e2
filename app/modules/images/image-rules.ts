/**
 * What an uploaded image must be, shared by the server (images.server.ts, the final word) and the
 * forms (a quick check in the browser before a large file is sent at all).
 */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_MIN_SIDE = 64;
export const IMAGE_MAX_SIDE = 8000;

/** Declared content types we accept; the decoded format must be one of these too. */
export const IMAGE_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

export const IMAGE_MESSAGES = {
  missing: "Choose an image to upload.",
  unreadable: "That file is not an image we can read (use JPEG, PNG, WebP or GIF).",
  tooLarge: "Images can be at most 5 MB.",
  tooSmall: `Images must be at least ${IMAGE_MIN_SIDE}x${IMAGE_MIN_SIDE} pixels.`,
  tooBig: `Images can be at most ${IMAGE_MAX_SIDE}x${IMAGE_MAX_SIDE} pixels.`,
} as const;

export function isAcceptedImageType(type: string): boolean {
  return (IMAGE_CONTENT_TYPES as readonly string[]).includes(type.toLowerCase());
}
