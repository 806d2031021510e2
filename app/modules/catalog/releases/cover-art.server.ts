import { and, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { db } from "~/db/client.server";
import { releases, type Release } from "~/db/schema";
import { IMAGE_MAX_BYTES } from "~/modules/images/image-rules";
import { commitStoredImage, deleteImage, ImageUploadError, storeImage, type ImageUpload } from "~/modules/images/images.server";
import { EDITABLE_STATUSES } from "./release-options";

/**
 * A release's cover art, as the stores want it: a square RGB JPEG or PNG of at least 1400x1400 pixels
 * (3000x3000 recommended: smaller ones are accepted with a warning). Stored as the `cover` image kind
 * (1400, 600 and 300 pixel variants); the release keeps the 1400 variant's path and the original size.
 */
export const COVER_MIN_SIDE = 1400;
export const COVER_RECOMMENDED_SIDE = 3000;

export class CoverArtError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CoverArtError";
  }
}

export interface CoverFacts {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  space: string | undefined;
  channels: number | undefined;
}

/** The refusal for a cover (null when acceptable) and the warning for an acceptable but small one. */
export function coverArtProblem(facts: CoverFacts): { error: string | null; warning: string | null } {
  if (facts.format !== "jpeg" && facts.format !== "png") return { error: "Cover art must be a JPEG or PNG image.", warning: null };
  if (!facts.width || !facts.height) return { error: "That image could not be read.", warning: null };
  if (facts.width !== facts.height) return { error: `Cover art must be square; this image is ${facts.width}x${facts.height} pixels.`, warning: null };
  if (facts.width < COVER_MIN_SIDE) {
    return { error: `Cover art must be at least ${COVER_MIN_SIDE}x${COVER_MIN_SIDE} pixels; this image is ${facts.width}x${facts.height}.`, warning: null };
  }
  if (facts.space !== "srgb" || (facts.channels !== 3 && facts.channels !== 4)) {
    return { error: "Cover art must be in RGB colour (not CMYK or greyscale).", warning: null };
  }
  const warning =
    facts.width < COVER_RECOMMENDED_SIDE
      ? `Stores recommend ${COVER_RECOMMENDED_SIDE}x${COVER_RECOMMENDED_SIDE} pixels; this cover is ${facts.width}x${facts.height}. It is accepted, but may look soft on large screens.`
      : null;
  return { error: null, warning };
}

/** Reads the upload's header and refuses what stores refuse; nothing is written then. */
export async function checkCoverUpload(upload: ImageUpload | null | undefined): Promise<{ width: number; height: number; warning: string | null }> {
  if (!upload || upload.size === 0) throw new CoverArtError("Choose an image to upload.");
  if (upload.size > IMAGE_MAX_BYTES) throw new CoverArtError("Cover art can be at most 5 MB.");
  let facts: CoverFacts;
  try {
    const metadata = await sharp(Buffer.from(await upload.arrayBuffer())).metadata();
    facts = { format: metadata.format, width: metadata.width, height: metadata.height, space: metadata.space, channels: metadata.channels };
  } catch {
    throw new CoverArtError("That file is not an image we can read (use JPEG or PNG).");
  }
  const { error, warning } = coverArtProblem(facts);
  if (error) throw new CoverArtError(error);
  return { width: facts.width!, height: facts.height!, warning };
}

/** Stores the cover and points the release at it (replacing and deleting the previous one). Answers the warning, if any. */
export async function setCoverArt(release: Pick<Release, "id" | "status">, upload: ImageUpload | null | undefined): Promise<{ warning: string | null }> {
  if (!EDITABLE_STATUSES.includes(release.status)) throw new CoverArtError("This release can no longer be changed.");
  const { width, height, warning } = await checkCoverUpload(upload);
  let stored;
  try {
    stored = await storeImage("cover", upload, { ownerId: release.id });
  } catch (error) {
    if (error instanceof ImageUploadError) throw new CoverArtError(error.message);
    throw error;
  }
  await commitStoredImage(stored, async () => {
    const [before] = await db().select({ path: releases.coverArtPath }).from(releases).where(eq(releases.id, release.id));
    const updated = await db()
      .update(releases)
      .set({ coverArtPath: stored.paths["1400x1400"], coverArtWidth: width, coverArtHeight: height, updatedAt: new Date() })
      .where(and(eq(releases.id, release.id), inArray(releases.status, [...EDITABLE_STATUSES])))
      .returning({ id: releases.id });
    if (!updated.length) throw new CoverArtError("This release can no longer be changed.");
    return before?.path ?? null;
  });
  return { warning };
}

export async function removeCoverArt(release: Pick<Release, "id" | "status" | "coverArtPath">): Promise<void> {
  if (!EDITABLE_STATUSES.includes(release.status)) throw new CoverArtError("This release can no longer be changed.");
  await db().update(releases).set({ coverArtPath: null, coverArtWidth: null, coverArtHeight: null, updatedAt: new Date() }).where(eq(releases.id, release.id));
  await deleteImage(release.coverArtPath);
}
