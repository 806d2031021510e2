import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projectDeliverables, projects, type ProjectDeliverable } from "~/db/schema";
import { receiveStreamedUpload, StreamedUploadError } from "~/modules/security/streamed-upload.server";
import { storage } from "~/modules/storage/storage.server";
import { participantOrAdmin, validId, type MarketplaceActor } from "../access.server";
import { MarketplaceError } from "../marketplace-errors";
import { LIMITS } from "../marketplace-rules";
import { uploadDeliverable } from "../projects.server";

/**
 * Deliverable files: the provider's upload is streamed to a temporary file while it arrives
 * (busboy, as the song audio and the sales statements are), capped at LIMITS.deliverableMaxBytes, then its
 * first bytes say what it really is (the name and the browser's type prove nothing): WAV, FLAC, AIFF, MP3,
 * AAC, Ogg, MP4 audio or a zip. Stored (app/modules/storage) under the key `deliverables/<projectId>/<random>.<ext>`
 * and served only through /storage/deliverables/<id>, to the project's two parties and administrators.
 */

export const DELIVERABLE_FIELD = "file";
export const DELIVERABLE_TYPES_TEXT = "audio (WAV, FLAC, AIFF, MP3, AAC, Ogg) or a zip of it";

/** The storage key of a recorded deliverable path; null when it is not one of ours. */
export function deliverableKey(recorded: string): string | null {
  return storedUploadKey("deliverables", recorded);
}

/**
 * The storage key of a path `storeCheckedFile` recorded under the `root` folder (`<root>/<id>/<random>.<ext>`);
 * null for anything else (another folder, `..`, an absolute path, a name it does not write).
 */
export function storedUploadKey(root: string, recorded: string): string | null {
  if (!/^[a-z][a-z-]*$/.test(root) || !recorded.startsWith(`${root}/`)) return null;
  return /^[1-9][0-9]*\/[0-9a-f]{32}\.(wav|flac|aiff|mp3|aac|ogg|m4a|zip)$/.test(recorded.slice(root.length + 1)) ? recorded : null;
}

/** What the first bytes of a file say it is; null for anything that is not deliverable audio or a zip. */
export function sniffDeliverable(head: Uint8Array): { mime: string; ext: string } | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return { mime: "audio/wav", ext: "wav" };
  if (head.length >= 4 && ascii(0, 4) === "fLaC") return { mime: "audio/flac", ext: "flac" };
  if (head.length >= 12 && ascii(0, 4) === "FORM" && (ascii(8, 12) === "AIFF" || ascii(8, 12) === "AIFC")) return { mime: "audio/aiff", ext: "aiff" };
  if (head.length >= 4 && ascii(0, 4) === "OggS") return { mime: "audio/ogg", ext: "ogg" };
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return { mime: "application/zip", ext: "zip" };
  if (head.length >= 12 && ascii(4, 8) === "ftyp") return { mime: "audio/mp4", ext: "m4a" };
  if (head.length >= 3 && ascii(0, 3) === "ID3") return { mime: "audio/mpeg", ext: "mp3" };
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    // A frame sync: layer bits 00 are AAC in ADTS, anything else MPEG audio (MP3).
    return (head[1]! & 0x06) === 0 ? { mime: "audio/aac", ext: "aac" } : { mime: "audio/mpeg", ext: "mp3" };
  }
  return null;
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buffer, 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A received upload (the streamed temporary file), as `receiveStreamedUpload` gives it. */
export interface ReceivedFile {
  tmpPath: string;
  filename: string;
  bytes: number;
  sha256: string | null;
}

/** A file `storeCheckedFile` stored: its recorded path (its storage key) and what it is. */
export interface CheckedFile {
  filePath: string;
  fileName: string;
  bytes: number;
  mime: string;
  sha256: string | null;
}

/**
 * The shared part of a delivered file's way in (project deliverables, post-production deliveries): refuses an
 * empty file and anything its first bytes do not show to be deliverable audio or a zip, lets `check` refuse it
 * further (it may read the temporary file), stores it under the key `<folder>/<random>.<ext>` and hands it to
 * `record` (the service's rules). The temporary file is gone either way, and the stored one too when
 * `check` or `record` refuses it. Refusals are MarketplaceErrors on the `file` field.
 */
export async function storeCheckedFile<T>(
  source: ReceivedFile,
  folder: string,
  record: (file: CheckedFile) => Promise<T>,
  check?: (tmpPath: string, kind: { mime: string; ext: string }) => Promise<void>,
  /** What the refusal of an unrecognised file says is accepted. */
  typesText = DELIVERABLE_TYPES_TEXT,
): Promise<T> {
  let stored: string | null = null;
  try {
    if (!/^[a-z][a-z-]*\/[1-9][0-9]*$/.test(folder)) throw new Error(`Not an upload folder: ${folder}`);
    if (source.bytes <= 0) throw new MarketplaceError(400, "The file is empty.", DELIVERABLE_FIELD);
    const kind = sniffDeliverable(await readHead(source.tmpPath));
    if (!kind) throw new MarketplaceError(400, `This file is not ${typesText}.`, DELIVERABLE_FIELD);
    if (check) await check(source.tmpPath, kind);
    const recorded = `${folder}/${randomBytes(16).toString("hex")}.${kind.ext}`;
    stored = recorded;
    await storage().putFile(recorded, source.tmpPath, { contentType: kind.mime });
    const result = await record({ filePath: recorded, fileName: path.basename(source.filename), bytes: source.bytes, mime: kind.mime, sha256: source.sha256 });
    stored = null;
    return result;
  } finally {
    await fs.rm(source.tmpPath, { force: true });
    if (stored) await storage().delete(stored);
  }
}

/**
 * Moves a checked file into the project's folder and records it through `uploadDeliverable` (the service's
 * rules: only the provider's owner, a funded open project). The source file is gone either way.
 */
export async function storeDeliverable(actor: MarketplaceActor, projectId: number, source: ReceivedFile) {
  if (!validId(projectId)) {
    await fs.rm(source.tmpPath, { force: true });
    throw new MarketplaceError(404, "This project does not exist.");
  }
  return storeCheckedFile(source, `deliverables/${projectId}`, (file) => uploadDeliverable(actor, projectId, file));
}

/**
 * Streams a multipart body's `file` to a temporary file under `tmpDir`, capped at `maxBytes` (deliverables'
 * limit unless told); refusals are MarketplaceErrors on the `file` field.
 */
export async function receiveCheckedFile(
  request: Request,
  options: { tmpDir: string; maxBytes?: number; noFile?: string; tooLarge?: string },
): Promise<ReceivedFile> {
  const maxBytes = options.maxBytes ?? LIMITS.deliverableMaxBytes;
  const noFile = options.noFile ?? `Choose the file to deliver: ${DELIVERABLE_TYPES_TEXT}.`;
  let received;
  try {
    received = await receiveStreamedUpload(request, {
      fileField: DELIVERABLE_FIELD,
      maxBytes,
      tmpDir: options.tmpDir,
      messages: {
        noFile,
        unreadable: "The upload was interrupted or could not be read. Choose the file again.",
        tooLarge: options.tooLarge ?? `Deliverables can be at most ${maxBytes / 1024 / 1024} MB.`,
      },
    });
  } catch (error) {
    if (error instanceof StreamedUploadError) throw new MarketplaceError(400, error.message, DELIVERABLE_FIELD);
    throw error;
  }
  if (!received.file) throw new MarketplaceError(400, noFile, DELIVERABLE_FIELD);
  return received.file;
}

/** Streams the multipart body's `file` to a temporary file and stores it as the project's deliverable. */
export async function receiveDeliverable(request: Request, actor: MarketplaceActor, projectId: number) {
  const file = await receiveCheckedFile(request, { tmpDir: storage().tmpDir() });
  return storeDeliverable(actor, projectId, file);
}

/**
 * A deliverable for download, when the actor may see its project (client, provider's owner, administrator);
 * null otherwise, exactly as for a missing id. One statement.
 */
export async function deliverableForDownload(actor: MarketplaceActor, deliverableId: number): Promise<ProjectDeliverable | null> {
  if (!validId(deliverableId)) return null;
  const [row] = await db()
    .select({ deliverable: projectDeliverables })
    .from(projectDeliverables)
    .innerJoin(projects, eq(projects.id, projectDeliverables.projectId))
    .where(and(eq(projectDeliverables.id, deliverableId), participantOrAdmin(projects, actor)));
  return row?.deliverable ?? null;
}
