import crypto from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, IMAGE_MESSAGES, IMAGE_MIN_SIDE, isAcceptedImageType } from "./image-rules";
import { UPLOAD_BODY_MAX_BYTES } from "~/modules/security/body-limits";
import { storage } from "~/modules/storage/storage.server";

/**
 * Uploaded images: checked (declared type, real format decoded by sharp, size, dimensions), stripped of
 * metadata, resized into the named variants of their kind as WebP and stored (app/modules/storage) under the key
 * images/<kind>/<random id>/<variant>.webp, served at /storage/images/<kind>/<id>/<variant>.webp
 * (app/routes/storage.images.$.ts). Files are never changed in place: a replaced image gets a new id and
 * the old one's variants are deleted, so the public paths can be cached forever.
 */

export interface VariantSpec {
  width: number;
  height: number;
  /** cover: fill the box, cropping the overflow (centred); inside: fit within it, keeping the ratio. */
  fit: "cover" | "inside";
}

/** Every kind of image and its variants. */
export const IMAGE_KINDS = {
  avatar: {
    "256x256": { width: 256, height: 256, fit: "cover" },
    "64x64": { width: 64, height: 64, fit: "cover" },
  },
  // A profile's header (the product specification: the page uses the 728x410 variant); 2x for dense screens, a third for cards.
  hero: {
    "1456x820": { width: 1456, height: 820, fit: "cover" },
    "728x410": { width: 728, height: 410, fit: "cover" },
    "364x205": { width: 364, height: 205, fit: "cover" },
  },
  // A release's cover art (square; the upload itself is checked by catalog/releases/cover-art.server.ts).
  cover: {
    "1400x1400": { width: 1400, height: 1400, fit: "cover" },
    "600x600": { width: 600, height: 600, fit: "cover" },
    "300x300": { width: 300, height: 300, fit: "cover" },
  },
} as const satisfies Record<string, Record<string, VariantSpec>>;

export type ImageKind = keyof typeof IMAGE_KINDS;
export type VariantName<K extends ImageKind> = keyof (typeof IMAGE_KINDS)[K] & string;

export interface StoredImage<K extends ImageKind = ImageKind> {
  kind: K;
  /** The folder name: `<random>` or `<owner>-<random>`. */
  id: string;
  /** The random part alone (what a record stores when its paths are built from its own id). */
  key: string;
  /** The public path of each variant. */
  paths: Record<VariantName<K>, string>;
}

/** What a multipart upload gives us (a File), or any Blob with a declared type. */
export type ImageUpload = Pick<Blob, "size" | "type" | "arrayBuffer">;

export type ImageErrorReason = keyof typeof IMAGE_MESSAGES;

/** A file we refuse; `message` is meant for the person who uploaded it. Nothing was written. */
export class ImageUploadError extends Error {
  constructor(readonly reason: ImageErrorReason) {
    super(IMAGE_MESSAGES[reason]);
    this.name = "ImageUploadError";
  }
}

export const PUBLIC_IMAGE_PREFIX = "/storage/images/";
/** A random id, optionally after the id of the record it belongs to (`<owner>-<random>`, see storeImage). */
const ID_PATTERN = /^(?:[1-9][0-9]{0,9}-)?[0-9a-f]{32}$/;
const DECODED_FORMATS = new Set(["jpeg", "png", "webp", "gif"]);

function isKind(value: string): value is ImageKind {
  return Object.hasOwn(IMAGE_KINDS, value);
}

function publicPath(kind: ImageKind, id: string, variant: string): string {
  return `${PUBLIC_IMAGE_PREFIX}${kind}/${id}/${variant}.webp`;
}

/**
 * The parts of a stored image's path (`<kind>/<id>/<variant>.webp`, with or without the public prefix),
 * or null for anything that is not exactly one of our files: an unknown kind or variant, a malformed id,
 * dot segments, encoded separators, extra segments.
 */
export function parseImagePath(value: string): { kind: ImageKind; id: string; variant: string } | null {
  const relative = value.startsWith(PUBLIC_IMAGE_PREFIX) ? value.slice(PUBLIC_IMAGE_PREFIX.length) : value;
  const segments = relative.split("/");
  if (segments.length !== 3) return null;
  const [kind, id, file] = segments as [string, string, string];
  if (!isKind(kind) || !ID_PATTERN.test(id)) return null;
  const match = /^([0-9a-z]+)\.webp$/.exec(file);
  if (!match || !Object.hasOwn(IMAGE_KINDS[kind], match[1]!)) return null;
  return { kind, id, variant: match[1]! };
}

/** The storage key behind a public path (or the part after /storage/images/); null when it is not ours. */
export function imageKey(value: string): string | null {
  const parts = parseImagePath(value);
  return parts ? `images/${parts.kind}/${parts.id}/${parts.variant}.webp` : null;
}

/** Where every variant of one stored image is kept. */
function imagePrefix(kind: ImageKind, id: string): string {
  return `images/${kind}/${id}/`;
}

/** Another variant of the same stored image, e.g. the 64x64 avatar from the 256x256 path kept on the user. */
export function imageVariantPath<K extends ImageKind>(value: string, kind: K, variant: VariantName<K>): string | null {
  const parts = parseImagePath(value);
  return parts && parts.kind === kind ? publicPath(kind, parts.id, variant) : null;
}

/** Checks the upload and decodes its header; throws ImageUploadError for anything we will not store. */
async function readUpload(upload: ImageUpload | null | undefined): Promise<Buffer> {
  if (!upload || upload.size === 0) throw new ImageUploadError("missing");
  if (upload.size > IMAGE_MAX_BYTES) throw new ImageUploadError("tooLarge");
  if (!isAcceptedImageType(upload.type ?? "")) throw new ImageUploadError("unreadable");
  const input = Buffer.from(await upload.arrayBuffer());
  if (input.length > IMAGE_MAX_BYTES) throw new ImageUploadError("tooLarge");

  let metadata: Metadata;
  try {
    metadata = await sharp(input).metadata();
  } catch {
    throw new ImageUploadError("unreadable");
  }
  if (!metadata.format || !DECODED_FORMATS.has(metadata.format)) throw new ImageUploadError("unreadable");
  // Animated images: one frame's height (the variants are made from the first frame).
  const width = metadata.width;
  const height = metadata.pageHeight ?? metadata.height;
  if (!width || !height) throw new ImageUploadError("unreadable");
  if (width < IMAGE_MIN_SIDE || height < IMAGE_MIN_SIDE) throw new ImageUploadError("tooSmall");
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) throw new ImageUploadError("tooBig");
  return input;
}

/** Renders every variant in memory (so a file that fails to decode half-way writes nothing). */
async function renderVariants(kind: ImageKind, input: Buffer): Promise<Array<[string, Buffer]>> {
  const specs = Object.entries(IMAGE_KINDS[kind]) as Array<[string, VariantSpec]>;
  try {
    // The first frame only; EXIF orientation applied, then every piece of metadata dropped (sharp's default
    // output keeps none: no EXIF, GPS, XMP or ICC profile; colours are converted to sRGB).
    const source = sharp(input, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE, animated: false }).autoOrient();
    return await Promise.all(
      specs.map(async ([name, spec]) => {
        const output = await source.clone().resize(spec.width, spec.height, { fit: spec.fit }).webp({ quality: 82 }).toBuffer();
        return [name, output] as [string, Buffer];
      }),
    );
  } catch {
    throw new ImageUploadError("unreadable");
  }
}

/**
 * Stores an uploaded image as the variants of its kind. Throws ImageUploadError (with a message for the
 * user) for a file we refuse, and then nothing is written. A failed write deletes the variants already
 * written; no record names the new id until this returns (commitStoredImage), so none sees a partial image.
 */
export async function storeImage<K extends ImageKind>(
  kind: K,
  upload: ImageUpload | null | undefined,
  options: { ownerId?: number } = {},
): Promise<StoredImage<K>> {
  const input = await readUpload(upload);
  const variants = await renderVariants(kind, input);

  // With an owner the folder is `<owner>-<random>`: a profile's hero path is built from its id and hero_img.
  const random = crypto.randomBytes(16).toString("hex");
  const id = options.ownerId ? `${options.ownerId}-${random}` : random;
  const prefix = imagePrefix(kind, id);
  try {
    await Promise.all(variants.map(([name, output]) => storage().put(`${prefix}${name}.webp`, output, { contentType: "image/webp" })));
  } catch (error) {
    await storage()
      .deletePrefix(prefix)
      .catch(() => {});
    throw error;
  }
  const paths = Object.fromEntries(variants.map(([name]) => [name, publicPath(kind, id, name)])) as Record<VariantName<K>, string>;
  return { kind, id, key: random, paths };
}

/**
 * Points a record at a newly stored image. `swap` saves it on the record and returns the path of the image
 * it replaced (null when none), whose files are then deleted; if `swap` fails, the new files are deleted.
 */
export async function commitStoredImage(stored: StoredImage, swap: () => Promise<string | null>): Promise<void> {
  let previous: string | null;
  try {
    previous = await swap();
  } catch (error) {
    await deleteImage(Object.values<string>(stored.paths)[0]);
    throw error;
  }
  await deleteImage(previous);
}

/**
 * Whether a request is too large for an image form, decided from its headers before any of it is read
 * (a multipart body without Content-Length is refused as well).
 */
export function isOversizedUpload(request: Request): boolean {
  const length = request.headers.get("content-length");
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  return (length !== null && Number(length) > UPLOAD_BODY_MAX_BYTES) || (multipart && length === null);
}

/**
 * Deletes every variant of the stored image that `value` (the public path of any of its variants) names.
 * Anything that is not one of our paths (null, an external URL, a seeded placeholder) is left alone.
 */
export async function deleteImage(value: string | null | undefined): Promise<boolean> {
  if (!value) return false;
  const parts = parseImagePath(value);
  if (!parts) return false;
  await storage().deletePrefix(imagePrefix(parts.kind, parts.id));
  return true;
}

/** A profile's hero image path: built from the profile id and its hero image. */
export function heroImagePath(profileId: number, heroImg: string | null | undefined, variant: VariantName<"hero"> = "728x410"): string | null {
  if (!heroImg || !/^[0-9a-f]{32}$/.test(heroImg)) return null;
  return publicPath("hero", `${profileId}-${heroImg}`, variant);
}
