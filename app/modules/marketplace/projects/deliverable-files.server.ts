import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projectDeliverables, projects, type ProjectDeliverable } from "~/db/schema";
import { env } from "~/env.server";
import { receiveStreamedUpload, StreamedUploadError } from "~/modules/security/streamed-upload.server";
import { participantOrAdmin, validId, type MarketplaceActor } from "../access.server";
import { MarketplaceError } from "../marketplace-errors";
import { LIMITS } from "../marketplace-rules";
import { uploadDeliverable } from "../projects.server";

/**
 * Deliverable files (issue 12): the provider's upload is streamed to a temporary file while it arrives
 * (busboy, as the song audio and the sales statements are), capped at LIMITS.deliverableMaxBytes, then its
 * first bytes say what it really is (the name and the browser's type prove nothing): WAV, FLAC, AIFF, MP3,
 * AAC, Ogg, MP4 audio or a zip. Stored as `deliverables/<projectId>/<random>.<ext>` under STORAGE_DIR and
 * served only through /storage/deliverables/<id>, to the project's two parties and administrators.
 */

export const DELIVERABLE_FIELD = "file";
export const DELIVERABLE_TYPES_TEXT = "audio (WAV, FLAC, AIFF, MP3, AAC, Ogg) or a zip of it";

function deliverablesRoot(): string {
  return path.resolve(env().STORAGE_DIR, "deliverables");
}

/** The file on disk behind a recorded deliverable path; null when it is not one of ours. */
export function deliverableFilePath(recorded: string): string | null {
  if (!/^deliverables\/[1-9][0-9]*\/[0-9a-f]{32}\.(wav|flac|aiff|mp3|aac|ogg|m4a|zip)$/.test(recorded)) return null;
  return path.resolve(env().STORAGE_DIR, recorded);
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

/**
 * Moves a checked file into the project's folder and records it through `uploadDeliverable` (the service's
 * rules: only the provider's owner, a funded open project). The source file is gone either way.
 */
export async function storeDeliverable(actor: MarketplaceActor, projectId: number, source: { tmpPath: string; filename: string; bytes: number; sha256: string | null }) {
  let target: string | null = null;
  try {
    if (!validId(projectId)) throw new MarketplaceError(404, "This project does not exist.");
    if (source.bytes <= 0) throw new MarketplaceError(400, "The file is empty.", DELIVERABLE_FIELD);
    const kind = sniffDeliverable(await readHead(source.tmpPath));
    if (!kind) throw new MarketplaceError(400, `This file is not ${DELIVERABLE_TYPES_TEXT}.`, DELIVERABLE_FIELD);
    const recorded = `deliverables/${projectId}/${randomBytes(16).toString("hex")}.${kind.ext}`;
    target = path.resolve(env().STORAGE_DIR, recorded);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source.tmpPath, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EXDEV") throw error;
      await fs.copyFile(source.tmpPath, target!);
    });
    const result = await uploadDeliverable(actor, projectId, { filePath: recorded, fileName: path.basename(source.filename), bytes: source.bytes, mime: kind.mime, sha256: source.sha256 });
    target = null;
    return result;
  } finally {
    await fs.rm(source.tmpPath, { force: true });
    if (target) await fs.rm(target, { force: true });
  }
}

/** Streams the multipart body's `file` to a temporary file and stores it as the project's deliverable. */
export async function receiveDeliverable(request: Request, actor: MarketplaceActor, projectId: number) {
  let received;
  try {
    received = await receiveStreamedUpload(request, {
      fileField: DELIVERABLE_FIELD,
      maxBytes: LIMITS.deliverableMaxBytes,
      tmpDir: path.join(deliverablesRoot(), "tmp"),
      messages: {
        noFile: `Choose the file to deliver: ${DELIVERABLE_TYPES_TEXT}.`,
        unreadable: "The upload was interrupted or could not be read. Choose the file again.",
        tooLarge: `Deliverables can be at most ${LIMITS.deliverableMaxBytes / 1024 / 1024} MB.`,
      },
    });
  } catch (error) {
    if (error instanceof StreamedUploadError) throw new MarketplaceError(400, error.message, DELIVERABLE_FIELD);
    throw error;
  }
  if (!received.file) throw new MarketplaceError(400, `Choose the file to deliver: ${DELIVERABLE_TYPES_TEXT}.`, DELIVERABLE_FIELD);
  return storeDeliverable(actor, projectId, received.file);
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
