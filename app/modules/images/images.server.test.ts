import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loader as serveImage } from "~/routes/storage.images.$";
import { storage } from "~/modules/storage/storage.server";
import { IMAGE_MESSAGES } from "./image-rules";
import { deleteImage, heroImagePath, imageKey, imageVariantPath, ImageUploadError, parseImagePath, storeImage } from "./images.server";

async function picture(width: number, height: number, format: "png" | "jpeg" | "webp" | "gif" | "tiff" = "png") {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

function upload(bytes: Buffer | string, type: string, name = "upload") {
  return new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });
}

/** Every stored image file's key. */
function storedFiles(): Promise<string[]> {
  return storage().list("images/");
}

/** The stored bytes behind a public path. */
async function storedBytes(publicPath: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().read(imageKey(publicPath)!)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isStored = (publicPath: string) => storage().exists(imageKey(publicPath)!);

async function expectRefused(file: File | null, reason: keyof typeof IMAGE_MESSAGES) {
  const before = await storedFiles();
  const error = await storeImage("avatar", file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImageUploadError);
  expect((error as ImageUploadError).reason).toBe(reason);
  expect((error as ImageUploadError).message).toBe(IMAGE_MESSAGES[reason]);
  expect(await storedFiles()).toEqual(before);
}

describe("storeImage", () => {
  it("stores the avatar variants as WebP and returns their public paths", async () => {
    const stored = await storeImage("avatar", upload(await picture(640, 480, "jpeg"), "image/jpeg"));
    expect(stored.kind).toBe("avatar");
    expect(stored.id).toMatch(/^[0-9a-f]{32}$/);
    expect(stored.paths).toEqual({
      "256x256": `/storage/images/avatar/${stored.id}/256x256.webp`,
      "64x64": `/storage/images/avatar/${stored.id}/64x64.webp`,
    });
    for (const [variant, size] of [
      ["256x256", 256],
      ["64x64", 64],
    ] as const) {
      expect(imageKey(stored.paths[variant])).toBe(`images/avatar/${stored.id}/${variant}.webp`);
      const meta = await sharp(await storedBytes(stored.paths[variant])).metadata();
      expect(meta).toMatchObject({ format: "webp", width: size, height: size });
    }
    expect(await storage().list(`images/avatar/${stored.id}/`)).toEqual([`images/avatar/${stored.id}/256x256.webp`, `images/avatar/${stored.id}/64x64.webp`]);
  });

  it("writes a profile's hero variants in a folder named after the profile, reachable from its id and hero_img", async () => {
    const stored = await storeImage("hero", upload(await picture(2000, 1000, "png"), "image/png"), { ownerId: 42 });
    expect(stored.key).toMatch(/^[0-9a-f]{32}$/);
    expect(stored.id).toBe(`42-${stored.key}`);
    expect(heroImagePath(42, stored.key)).toBe(`/storage/images/hero/42-${stored.key}/728x410.webp`);
    expect(heroImagePath(42, stored.key)).toBe(stored.paths["728x410"]);
    expect(heroImagePath(42, stored.key, "1456x820")).toBe(stored.paths["1456x820"]);
    expect(heroImagePath(42, null)).toBeNull();
    expect(heroImagePath(42, "../avatar/x")).toBeNull();
    for (const [variant, width, height] of [
      ["1456x820", 1456, 820],
      ["728x410", 728, 410],
      ["364x205", 364, 205],
    ] as const) {
      const meta = await sharp(await storedBytes(stored.paths[variant])).metadata();
      expect(meta).toMatchObject({ format: "webp", width, height });
    }
    expect(parseImagePath(`/storage/images/hero/0-${stored.key}/728x410.webp`)).toBeNull();
  });

  it("strips metadata (EXIF, ICC) and applies the EXIF orientation first", async () => {
    const tagged = await sharp(await picture(400, 100, "jpeg"))
      .withExif({ IFD0: { Copyright: "secret-owner", ImageDescription: "GPS-ish secret" } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await sharp(tagged).metadata()).exif).toBeDefined();
    const stored = await storeImage("avatar", upload(tagged, "image/jpeg"));
    const bytes = await storedBytes(stored.paths["256x256"]);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.includes("secret-owner")).toBe(false);
  });

  it("accepts PNG, WebP and (animated) GIF, using the first frame", async () => {
    for (const [format, type] of [
      ["png", "image/png"],
      ["webp", "image/webp"],
      ["gif", "image/gif"],
    ] as const) {
      const stored = await storeImage("avatar", upload(await picture(100, 90, format), type));
      expect((await sharp(await storedBytes(stored.paths["64x64"])).metadata()).format).toBe("webp");
    }
    const frames = await Promise.all([picture(120, 80), picture(120, 80)]);
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const stored = await storeImage("avatar", upload(animated, "image/gif"));
    const meta = await sharp(await storedBytes(stored.paths["256x256"])).metadata();
    expect(meta).toMatchObject({ width: 256, height: 256 });
    expect(meta.pages ?? 1).toBe(1);
  });

  it("refuses a missing or empty file", async () => {
    await expectRefused(null, "missing");
    await expectRefused(upload(Buffer.alloc(0), "image/png"), "missing");
  });

  it("refuses a declared type that is not an allowed image, even when the bytes are one", async () => {
    await expectRefused(upload(await picture(100, 100), "text/plain"), "unreadable");
    await expectRefused(upload(await picture(100, 100), ""), "unreadable");
    await expectRefused(upload('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>', "image/svg+xml"), "unreadable");
  });

  it("refuses bytes that are not an allowed image, whatever the declared type", async () => {
    await expectRefused(upload("just some text, not a picture", "image/png"), "unreadable");
    await expectRefused(upload(await picture(100, 100, "tiff"), "image/png"), "unreadable");
    await expectRefused(upload('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>', "image/png"), "unreadable");
    const jpeg = await picture(300, 300, "jpeg");
    await expectRefused(upload(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "image/jpeg"), "unreadable");
  });

  it("refuses files over 5 MB", async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0xff);
    (await picture(100, 100)).copy(big);
    await expectRefused(upload(big, "image/png"), "tooLarge");
  });

  it("refuses images under 64x64 or over 8000x8000 pixels", async () => {
    await expectRefused(upload(await picture(63, 200), "image/png"), "tooSmall");
    await expectRefused(upload(await picture(200, 40), "image/png"), "tooSmall");
    await expectRefused(upload(await picture(8001, 64), "image/png"), "tooBig");
    const stored = await storeImage("avatar", upload(await picture(64, 64), "image/png"));
    expect(stored.paths["256x256"]).toMatch(/256x256\.webp$/);
  });
});

describe("paths and deletion", () => {
  const id = "0123456789abcdef0123456789abcdef";

  it("accepts only the exact paths of stored variants", () => {
    expect(parseImagePath(`/storage/images/avatar/${id}/256x256.webp`)).toEqual({ kind: "avatar", id, variant: "256x256" });
    expect(parseImagePath(`avatar/${id}/64x64.webp`)).toEqual({ kind: "avatar", id, variant: "64x64" });
    for (const bad of [
      `avatar/${id}/128x128.webp`,
      `avatar/${id}/256x256.png`,
      `avatar/${id}/256x256.webp/x`,
      `avatar/${id.toUpperCase()}/256x256.webp`,
      `avatar/${id.slice(1)}/256x256.webp`,
      `avatar/../${id}/256x256.webp`,
      `avatar/${id}/../256x256.webp`,
      `../avatar/${id}/256x256.webp`,
      `avatar/${id}/..%2F256x256.webp`,
      `avatar\\${id}\\256x256.webp`,
      `hero/${id}/256x256.webp`,
      `constructor/${id}/256x256.webp`,
      `avatar/.${id}.partial/256x256.webp`,
      `/avatar/${id}/256x256.webp`,
      "",
    ]) {
      expect(parseImagePath(bad), bad).toBeNull();
      expect(imageKey(bad), bad).toBeNull();
    }
  });

  it("names another variant of the same image", () => {
    expect(imageVariantPath(`/storage/images/avatar/${id}/256x256.webp`, "avatar", "64x64")).toBe(`/storage/images/avatar/${id}/64x64.webp`);
    expect(imageVariantPath("https://example.com/me.png", "avatar", "64x64")).toBeNull();
  });

  it("deletes every variant of a stored image and leaves anything else alone", async () => {
    const kept = await storeImage("avatar", upload(await picture(100, 100), "image/png"));
    const gone = await storeImage("avatar", upload(await picture(100, 100), "image/png"));
    expect(await deleteImage(gone.paths["64x64"])).toBe(true);
    expect(await storage().list(`images/avatar/${gone.id}/`)).toEqual([]);
    expect(await isStored(kept.paths["256x256"])).toBe(true);
    expect(await deleteImage(null)).toBe(false);
    expect(await deleteImage("https://cdn.example.com/avatar.png")).toBe(false);
    expect(await deleteImage(`/storage/images/avatar/../avatar/${kept.id}/256x256.webp`)).toBe(false);
    expect(await isStored(kept.paths["256x256"])).toBe(true);
  });
});

describe("GET /storage/images/*", () => {
  const get = (splat: string, init: RequestInit = {}) =>
    serveImage({
      request: new Request(`http://localhost/storage/images/${splat}`, init),
      params: { "*": splat },
      context: {},
    } as unknown as Parameters<typeof serveImage>[0]);

  it("streams a stored variant with its type and a long-lived cache header", async () => {
    const stored = await storeImage("avatar", upload(await picture(300, 300), "image/png"));
    const splat = stored.paths["256x256"].slice("/storage/images/".length);
    const response = await get(splat);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/webp");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await storedBytes(stored.paths["256x256"]))).toBe(true);
    expect(response.headers.get("Content-Length")).toBe(String(body.length));

    const again = await get(splat, { headers: { "If-None-Match": response.headers.get("ETag")! } });
    expect(again.status).toBe(304);
    const head = await get(splat, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("answers 404 for anything but an existing stored variant", async () => {
    await storage().put("secret.txt", Buffer.from("secret"));
    for (const splat of ["avatar/0123456789abcdef0123456789abcdef/256x256.webp", "../secret.txt", "avatar/../../secret.txt", "avatar", ""]) {
      const response = await get(splat);
      expect(response.status, splat).toBe(404);
      expect(await response.text()).not.toContain("secret");
    }
  });
});
