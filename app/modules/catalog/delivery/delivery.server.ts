import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { and, desc, eq } from "drizzle-orm";
import { Zip, ZipPassThrough } from "fflate";
import sharp from "sharp";
import { db } from "~/db/client.server";
import { releaseDeliveries, type ReleaseDelivery } from "~/db/schema";
import { findRelease, loadSongPeople, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { audioKey } from "~/modules/catalog/songs/audio.server";
import { imageKey } from "~/modules/images/images.server";
import { storage } from "~/modules/storage/storage.server";
import { buildNewReleaseMessage, type ErnTrack } from "./ddex-ern.server";

/**
 * The delivery package of an approved release: the ERN 4.3 message, the audio and the front cover in one
 * zip (fflate, streamed from storage into storage under `deliveries/<release>/<message>.zip`, so an album's
 * audio never sits in memory), with each file's MD5 in the XML
 * (as ERN expects) and its SHA-256 in manifest.json. What is missing (the demo catalogue has no stored
 * audio) is listed in the manifest, never a reason to fail: the package is what a delivery would send,
 * and an administrator can see at once what a store would refuse.
 */

export interface ManifestEntry {
  path: string;
  bytes: number;
  md5: string;
  sha256: string;
}

export interface DeliveryManifest {
  messageId: string;
  releaseId: number;
  upc: string;
  createdAt: string;
  files: ManifestEntry[];
  /** Human-readable gaps ("Track 2 “Early Mornings”: no audio file stored"). */
  missing: string[];
}

async function hashStored(key: string): Promise<{ bytes: number; md5: string; sha256: string }> {
  const md5 = createHash("md5");
  const sha256 = createHash("sha256");
  let bytes = 0;
  for await (const chunk of await storage().read(key)) {
    md5.update(chunk as Buffer);
    sha256.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, md5: md5.digest("hex"), sha256: sha256.digest("hex") };
}

function hashBuffer(data: Uint8Array) {
  return {
    bytes: data.length,
    md5: createHash("md5").update(data).digest("hex"),
    sha256: createHash("sha256").update(data).digest("hex"),
  };
}

/** A stored image variant's bytes (a WebP of at most 1400x1400: small), or null when it is not stored. */
async function storedImageBytes(key: string): Promise<Buffer | null> {
  if (!(await storage().exists(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type PackageFile = { path: string; source: { key: string } | { data: Uint8Array } };

/**
 * Streams the files into a zip stored under `key`; returns its SHA-256 and size. The zip is read by the storage
 * as it is made, and each entry waits while the storage is behind, so memory holds a chunk or two, never the zip.
 */
async function writeZip(key: string, files: PackageFile[]): Promise<{ sha256: string; bytes: number }> {
  const out = new PassThrough();
  const stored = storage().put(key, out, { contentType: "application/zip" });
  // Surfaced below (a failing store ends the loop through `drained` or the final await).
  stored.catch(() => {});
  const sha256 = createHash("sha256");
  let bytes = 0;
  let zipError: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      zipError = error;
      out.destroy(error);
      return;
    }
    sha256.update(chunk);
    bytes += chunk.length;
    out.write(chunk);
    if (final) out.end();
  });
  const drained = async () => {
    if (!out.writableNeedDrain) return;
    await Promise.race([once(out, "drain"), stored.then(() => Promise.reject(new Error("The storage stopped reading the package.")))]);
  };
  try {
    for (const entry of files) {
      // Audio and images are compressed already: stored as they are.
      const item = new ZipPassThrough(entry.path);
      zip.add(item);
      if ("data" in entry.source) {
        item.push(entry.source.data, true);
      } else {
        for await (const chunk of await storage().read(entry.source.key)) {
          item.push(chunk as Buffer);
          await drained();
        }
        item.push(new Uint8Array(0), true);
      }
      if (zipError) throw zipError;
      await drained();
    }
    zip.end();
  } catch (error) {
    out.destroy(error as Error);
    await stored.catch(() => {});
    await storage()
      .delete(key)
      .catch(() => {});
    throw error;
  }
  await stored;
  return { sha256: sha256.digest("hex"), bytes };
}

const LANGUAGE_CODES: Record<string, string> = { English: "en", Spanish: "es", French: "fr", German: "de", Portuguese: "pt", Italian: "it", Japanese: "ja" };

/**
 * Builds and records the delivery package of a release (an approved one, normally: called on approval).
 * Returns the new release_deliveries row and the manifest.
 */
export async function buildDeliveryPackage(releaseId: number, actorId: number | null): Promise<{ delivery: ReleaseDelivery; manifest: DeliveryManifest }> {
  const release = await findRelease(releaseId);
  if (!release) throw new Error(`release ${releaseId} not found`);
  const people = await loadSongPeople(release.tracks.map((t) => t.songId));
  const createdAt = new Date();
  const upc = release.upc ?? "000000000000";
  const messageId = `BL-${release.id}-${createdAt.getTime()}-${randomBytes(4).toString("hex")}`;
  const folder = upc;
  const files: PackageFile[] = [];
  const manifestFiles: ManifestEntry[] = [];
  const missing: string[] = [];

  const tracks: ErnTrack[] = [];
  for (const track of release.tracks) {
    const label = `Track ${track.position} “${track.title}”`;
    const audioStored = audioKey(track.audioPath);
    let audio: ErnTrack["audio"] = null;
    if (audioStored && track.audio && (await storage().exists(audioStored))) {
      const extension = track.audio.format === "flac" ? "flac" : "wav";
      const uri = `resources/${upc}_01_${String(track.position).padStart(3, "0")}.${extension}`;
      const hashes = await hashStored(audioStored);
      files.push({ path: `${folder}/${uri}`, source: { key: audioStored } });
      manifestFiles.push({ path: `${folder}/${uri}`, ...hashes });
      audio = {
        uri,
        md5: hashes.md5,
        codec: track.audio.format === "flac" ? "FLAC" : "PCM",
        bitDepth: track.audio.bitDepth,
        sampleRate: track.audio.sampleRate,
        channels: track.audio.channels,
      };
    } else {
      missing.push(`${label}: no audio file stored`);
    }
    if (!track.isrc) missing.push(`${label}: no ISRC`);
    if (!track.durationSeconds) missing.push(`${label}: no duration`);
    const { writers, credits } = people.get(track.songId)!;
    const accepted = credits.filter((c) => c.status === "accepted" && c.user);
    tracks.push({
      position: track.position,
      title: track.title,
      version: track.version,
      isrc: track.isrc ?? "",
      durationSeconds: track.durationSeconds ?? 0,
      explicit: track.explicit,
      languageCode: release.language ? (LANGUAGE_CODES[release.language] ?? null) : null,
      writers: writers.map((w) => ({ name: w.name, role: "ComposerLyricist" as const })),
      producers: accepted.filter((c) => c.role === "producer").map((c) => `${c.user!.name} ${c.user!.lastName}`.trim()),
      featuredArtists: accepted.filter((c) => c.role === "featured_artist").map((c) => `${c.user!.name} ${c.user!.lastName}`.trim()),
      audio,
    });
  }

  // The cover: the stored 1400 variant, as the JPEG stores take.
  let cover: { uri: string; md5: string } | null = null;
  const coverKey = release.coverArtPath ? imageKey(release.coverArtPath) : null;
  const coverImage = coverKey ? await storedImageBytes(coverKey) : null;
  if (coverImage) {
    const jpeg = new Uint8Array(await sharp(coverImage).jpeg({ quality: 95 }).toBuffer());
    const uri = `resources/${upc}.jpg`;
    const hashes = hashBuffer(jpeg);
    files.push({ path: `${folder}/${uri}`, source: { data: jpeg } });
    manifestFiles.push({ path: `${folder}/${uri}`, ...hashes });
    cover = { uri, md5: hashes.md5 };
  } else {
    missing.push("Cover art: no image stored");
  }
  if (!release.upc) missing.push("Release: no UPC");
  if (!release.releaseDate) missing.push("Release: no release date");

  const xml = new TextEncoder().encode(buildNewReleaseMessage(ernRelease(release, messageId, createdAt, upc, tracks, cover)));
  const xmlPath = `${folder}/${upc}.xml`;
  files.unshift({ path: xmlPath, source: { data: xml } });
  manifestFiles.unshift({ path: xmlPath, ...hashBuffer(xml) });

  const manifest: DeliveryManifest = { messageId, releaseId: release.id, upc, createdAt: createdAt.toISOString(), files: manifestFiles, missing };
  files.push({ path: `${folder}/manifest.json`, source: { data: new TextEncoder().encode(JSON.stringify(manifest, null, 2)) } });

  const key = `deliveries/${release.id}/${messageId}.zip`;
  const zipped = await writeZip(key, files);
  const [delivery] = await db()
    .insert(releaseDeliveries)
    .values({ releaseId: release.id, messageId, packagePath: key, packageSha256: zipped.sha256, packageBytes: zipped.bytes, createdBy: actorId })
    .returning();
  return { delivery: delivery!, manifest };
}

function ernRelease(release: ReleaseDetail, messageId: string, createdAt: Date, upc: string, tracks: ErnTrack[], cover: { uri: string; md5: string } | null) {
  return {
    messageId,
    createdAt,
    upc,
    title: release.title,
    type: release.type,
    artistName: release.artist.name,
    label: release.label,
    pLine: release.pLine,
    cLine: release.cLine,
    genre: release.primaryGenre,
    releaseDate: release.releaseDate ?? createdAt.toISOString().slice(0, 10),
    originalReleaseDate: release.previouslyReleased ? release.previousReleaseDate : null,
    explicit: release.parentalAdvisory,
    territories: release.territories.length ? release.territories : ["WW"],
    tracks,
    cover,
  };
}

/**
 * Builds the package after an approval without ever undoing it: a failure is logged (the administrator can
 * build it again from the review page).
 */
export async function deliverOnApproval(releaseId: number, actorId: number): Promise<void> {
  try {
    await buildDeliveryPackage(releaseId, actorId);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", message: "delivery package failed", releaseId, error: String(error) }));
  }
}

/** A release's packages, newest first. One statement. */
export function listDeliveries(releaseId: number): Promise<ReleaseDelivery[]> {
  return db()
    .select()
    .from(releaseDeliveries)
    .where(eq(releaseDeliveries.releaseId, releaseId))
    .orderBy(desc(releaseDeliveries.createdAt), desc(releaseDeliveries.id));
}

/** One package of one release (null when the id is not that release's or its file is missing), with its storage key. */
export async function findDelivery(releaseId: number, deliveryId: number): Promise<{ delivery: ReleaseDelivery; key: string } | null> {
  const [delivery] = await db()
    .select()
    .from(releaseDeliveries)
    .where(and(eq(releaseDeliveries.id, deliveryId), eq(releaseDeliveries.releaseId, releaseId)))
    .limit(1);
  if (!delivery) return null;
  const key = delivery.packagePath;
  if (!/^deliveries\/[1-9][0-9]*\/[A-Za-z0-9-]+\.zip$/.test(key) || !(await storage().exists(key))) return null;
  return { delivery, key };
}
