import { and, eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { postProductionDeliveries, postProductionJobs, songs, type PostProductionDelivery, type PostProductionJob, type User } from "~/db/schema";
import { AudioUploadError, readAudioFacts, type AudioFacts } from "~/modules/catalog/songs/audio.server";
import { validId } from "~/modules/marketplace/access.server";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { notifyParties } from "~/modules/marketplace/notify.server";
import {
  DELIVERABLE_FIELD,
  receiveCheckedFile,
  storeCheckedFile,
  storedUploadKey,
  type CheckedFile,
} from "~/modules/marketplace/projects/deliverable-files.server";
import { cleanText } from "~/modules/marketplace/work-requests.server";
import { storage } from "~/modules/storage/storage.server";
import { PP_JOB_ROUTE, PP_LIMITS, PP_OPEN_STATUSES } from "./post-production-rules";
import { DELIVERY_ROOT, explain, NO_JOB, type PpActor, visibleJob, visibleTo } from "./job-access.server";

export type DeliveryInput = CheckedFile & { facts: AudioFacts };

/**
 * The engineer records a delivered file (the route streamed, checked and stored it): the job then waits for
 * the owner. A newer delivery may follow before the owner answers; the owner answers the newest.
 */
export async function recordDelivery(
  actor: PpActor,
  id: number,
  file: DeliveryInput,
  now = new Date(),
): Promise<{ job: PostProductionJob; delivery: PostProductionDelivery }> {
  if (!storedUploadKey(DELIVERY_ROOT, file.filePath) || !file.filePath.startsWith(`${DELIVERY_ROOT}/${id}/`))
    throw new MarketplaceError(400, "The file was not stored.", DELIVERABLE_FIELD);
  const fileName = cleanText(file.fileName).slice(0, 255) || `delivery.${file.facts.format}`;
  const mayAct = (j: PostProductionJob) => j.engineerId === actor.id;
  const result = await db().transaction(async (tx) => {
    const [job] = validId(id)
      ? await tx
          .update(postProductionJobs)
          .set({
            status: "delivered",
            firstDeliveredAt: sql`coalesce(${postProductionJobs.firstDeliveredAt}, ${now.toISOString()}::timestamptz)`,
            updatedAt: now,
          })
          .where(
            and(
              eq(postProductionJobs.id, id),
              eq(postProductionJobs.engineerId, actor.id),
              inArray(postProductionJobs.status, ["in_progress", "revision_requested", "delivered"]),
            ),
          )
          .returning()
      : [];
    if (!job) throw await explain(tx, id, mayAct, "delivered");
    const [delivery] = await tx
      .insert(postProductionDeliveries)
      .values({
        jobId: job.id,
        uploadedBy: actor.id,
        filePath: file.filePath,
        fileName,
        bytes: file.bytes,
        mime: file.mime,
        sha256: file.sha256 && /^[0-9a-f]{64}$/.test(file.sha256) ? file.sha256 : null,
        format: file.facts.format,
        bitDepth: file.facts.bitDepth,
        sampleRate: file.facts.sampleRate,
        channels: file.facts.channels,
        durationSeconds: file.facts.durationSeconds,
        round: job.revisions,
        createdAt: now,
      })
      .returning();
    return { job, delivery: delivery! };
  });
  await notifyParties([result.job.ownerId], actor.id, {
    type: "PostProductionDelivered",
    message: `Post-production job #${result.job.id}: ${result.delivery.fileName} was delivered. Accept it as the song's audio, or ask for a revision.`,
    color: "purple",
    routeName: PP_JOB_ROUTE,
    resourceId: result.job.id,
  });
  return result;
}

/**
 * Streams the engineer's upload (the deliverable upload's code: size cap, type by its first bytes), checks it
 * is audio a song can take (WAV PCM or FLAC, at least 16-bit / 44.1 kHz, read by music-metadata) and records it.
 */
export async function receiveDelivery(request: Request, actor: PpActor, id: number) {
  // Refuse before reading the body when the actor cannot deliver here at all.
  const current = await visibleJob(db(), actor, id);
  if (current.engineerId !== actor.id) throw new MarketplaceError(404, NO_JOB);
  const received = await receiveCheckedFile(request, {
    tmpDir: storage().tmpDir(),
    maxBytes: PP_LIMITS.deliveryMaxBytes,
    noFile: "Choose the mixed or mastered file: WAV or FLAC.",
    tooLarge: `The file can be at most ${PP_LIMITS.deliveryMaxBytes / 1024 / 1024} MB.`,
  });
  let facts: AudioFacts | null = null;
  return storeCheckedFile(
    received,
    `${DELIVERY_ROOT}/${id}`,
    (file) => recordDelivery(actor, id, { ...file, facts: facts! }),
    async (tmpPath) => {
      try {
        facts = await readAudioFacts(tmpPath);
      } catch (error) {
        if (error instanceof AudioUploadError) throw new MarketplaceError(400, error.message, DELIVERABLE_FIELD);
        throw error;
      }
    },
    "WAV or FLAC audio",
  );
}

/** A delivery for download, when the actor may see its job (owner, engineer, administrator); null otherwise. One statement. */
export async function deliveryForDownload(
  actor: Pick<User, "id" | "acctType">,
  deliveryId: number,
): Promise<{ delivery: PostProductionDelivery; key: string } | null> {
  if (!validId(deliveryId)) return null;
  const [row] = await db()
    .select({ delivery: postProductionDeliveries })
    .from(postProductionDeliveries)
    .innerJoin(postProductionJobs, eq(postProductionJobs.id, postProductionDeliveries.jobId))
    .where(and(eq(postProductionDeliveries.id, deliveryId), visibleTo(actor)));
  const key = row ? storedUploadKey(DELIVERY_ROOT, row.delivery.filePath) : null;
  return row && key ? { delivery: row.delivery, key } : null;
}

/**
 * The song's current audio, for the job's engineer to work from (and its owner, administrators): only while
 * the job is open. One statement.
 */
export async function sourceAudioForDownload(
  actor: Pick<User, "id" | "acctType">,
  jobId: number,
): Promise<{ audioPath: string; format: string; title: string } | null> {
  if (!validId(jobId)) return null;
  const [row] = await db()
    .select({ audioPath: songs.audioPath, format: songs.audioFormat, title: songs.title })
    .from(postProductionJobs)
    .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
    .where(and(eq(postProductionJobs.id, jobId), visibleTo(actor), inArray(postProductionJobs.status, [...PP_OPEN_STATUSES])));
  return row?.audioPath && row.format ? { audioPath: row.audioPath, format: row.format, title: row.title } : null;
}
