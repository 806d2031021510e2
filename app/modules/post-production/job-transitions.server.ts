import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import {
  postProductionDeliveries,
  postProductionJobs,
  profiles,
  releases,
  releaseTracks,
  songs,
  type PostProductionDelivery,
  type PostProductionJob,
  type EscrowFundingMethod,
} from "~/db/schema";
import { fullName } from "~/modules/accounts/current-user.server";
import { editableArtistCondition } from "~/modules/catalog/releases/release-access.server";
import { LOCKED_RELEASE_STATUSES } from "~/modules/catalog/songs/song-access.server";
import { mayDecideMoney, validId } from "~/modules/marketplace/access.server";
import { jobEscrowAccount, lockBalanceFor, postFunding, postSettlement, type EscrowHolder } from "~/modules/marketplace/escrow.server";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { notifyParties } from "~/modules/marketplace/notify.server";
import { storedUploadKey } from "~/modules/marketplace/projects/deliverable-files.server";
import { cleanText } from "~/modules/marketplace/work-requests.server";
import { storage, StoredFileMissingError } from "~/modules/storage/storage.server";
import { PP_JOB_ROUTE, PP_LIMITS, PP_OPEN_STATUSES, ppFirstStage, ppNextStage, ppStageLabel } from "./post-production-rules";
import { DELIVERY_ROOT, explain, isAdmin, NO_JOB, type PpActor, reasonOf, statusText, textBetween, visibleJob } from "./job-access.server";

/**
 * Post-production jobs (decision 023): a member's mixing and mastering pipeline for a song of theirs.
 * The owner names an engineer by email: a member becomes the engineer at once (notified in the app); any
 * other address gets a signed link to `/post-production-jobs/create-account`, and the account that opens it
 * (created there, or logged in with that address) becomes the engineer. The engineer accepts or declines,
 * moves the stages, delivers lossless audio; the owner accepts a delivery as the song's new audio (the song's
 * previous audio stays recorded on the job) or sends it back with a note. Before the first delivery either
 * party may cancel; an administrator may cancel any open job, with a reason.
 *
 * Money (decision 023): the owner offers a price with the job. Once the engineer accepts, the job awaits funding:
 * the owner pays from their Backline balance, or by bank transfer that an administrator confirms; the money is held
 * in the job's escrow (the marketplace's escrow code, escrow.server.ts) and the work starts. Accepting a delivery as
 * the song's audio releases it to the engineer, less the platform fee; a cancellation refunds it.
 *
 * Every status change is one conditional UPDATE (`... where id = ? and <actor> and status in (...) returning`);
 * when it finds no row, the error says why: 404 for a job the actor may not act on (as for a missing id),
 * else 409 naming the job's state. Errors are the marketplace's (status, message, field).
 */

/** A priced job's escrow, for the marketplace's escrow code: the owner pays, the engineer is paid. */
function jobEscrow(job: PostProductionJob): EscrowHolder {
  if (job.amountCents === null || job.feeBps === null || job.engineerId === null)
    throw new Error(`Post-production job #${job.id} has no price or engineer: it holds no escrow.`);
  return {
    account: jobEscrowAccount(job.id),
    label: `Post-production job #${job.id}`,
    amountCents: job.amountCents,
    feeBps: job.feeBps,
    fundedMicros: job.fundedMicros,
    fundingMethod: job.fundingMethod,
    clientId: job.ownerId,
    payeeId: job.engineerId,
  };
}

/**
 * The engineer accepts a pending job at its price: it then awaits the owner's funding (the work starts when the
 * money is in escrow). A job made before jobs had a price starts its first stage at once.
 */
export async function acceptJob(actor: PpActor, id: number, now = new Date()): Promise<PostProductionJob> {
  const current = await visibleJob(db(), actor, id);
  const mayAct = (j: PostProductionJob) => j.engineerId === actor.id;
  if (!mayAct(current)) throw new MarketplaceError(404, NO_JOB);
  const priced = current.amountCents !== null;
  const [row] = await db()
    .update(postProductionJobs)
    .set(
      priced
        ? { status: "awaiting_funding", acceptedAt: now, updatedAt: now }
        : { status: "in_progress", stage: ppFirstStage(current.service), acceptedAt: now, updatedAt: now },
    )
    .where(and(eq(postProductionJobs.id, id), eq(postProductionJobs.engineerId, actor.id), eq(postProductionJobs.status, "pending")))
    .returning();
  if (!row) throw await explain(db(), id, mayAct, "accepted");
  await notifyParties([row.ownerId], actor.id, {
    type: "PostProductionJobAccepted",
    message:
      row.status === "awaiting_funding"
        ? `${fullName(actor)} accepted post-production job #${row.id}: pay ${formatCents(BigInt(row.amountCents!))} into escrow for the work to start.`
        : `${fullName(actor)} accepted post-production job #${row.id}: it is now ${ppStageLabel(row.stage).toLowerCase()}.`,
    color: "green",
    routeName: PP_JOB_ROUTE,
    resourceId: row.id,
  });
  return row;
}

/** The engineer declines a pending job (a reason is optional). */
export async function declineJob(actor: PpActor, id: number, reason: unknown = "", now = new Date()): Promise<PostProductionJob> {
  const text = cleanText(reason).slice(0, PP_LIMITS.reasonMax);
  const mayAct = (j: PostProductionJob) => j.engineerId === actor.id;
  const [row] = validId(id)
    ? await db()
        .update(postProductionJobs)
        .set({ status: "declined", cancelReason: text || null, canceledBy: actor.id, closedAt: now, updatedAt: now })
        .where(and(eq(postProductionJobs.id, id), eq(postProductionJobs.engineerId, actor.id), eq(postProductionJobs.status, "pending")))
        .returning()
    : [];
  if (!row) throw await explain(db(), id, mayAct, "declined");
  await notifyParties([row.ownerId], actor.id, {
    type: "PostProductionJobDeclined",
    message: `${fullName(actor)} declined post-production job #${row.id}${text ? `: ${text}` : "."}`,
    color: "red",
    routeName: PP_JOB_ROUTE,
    resourceId: row.id,
  });
  return row;
}

/* ------------------------------------------------------------------ funding (decision 023) */

/** The reference of a job funded from the owner's balance, and the bank transfer reference the owner is given. */
export const JOB_BALANCE_REFERENCE = "Backline balance";
export const jobTransferReference = (id: number) => `BACKLINE-JOB-${id}`;

/**
 * Posts the funding entry (the escrow code's: receipts or the owner's earnings → the job's escrow) and claims the
 * job's change from awaiting funding to its first stage, in `tx`; 409 (rolling the entry back) when it moved on.
 * Every funding method's (balance, bank transfer, card: job-checkout.server.ts).
 */
export async function recordJobFunding(
  tx: Db,
  current: PostProductionJob,
  actorId: number,
  reference: string,
  method: EscrowFundingMethod,
  now: Date,
): Promise<PostProductionJob> {
  const { entryId, fundedMicros } = await postFunding(tx, jobEscrow(current), method, actorId, reference);
  const [row] = await tx
    .update(postProductionJobs)
    .set({
      status: "in_progress",
      stage: ppFirstStage(current.service),
      fundingStatus: "funded",
      fundingMethod: method,
      fundingReference: reference,
      fundedMicros,
      fundEntryId: entryId,
      fundedAt: now,
      updatedAt: now,
    })
    .where(and(eq(postProductionJobs.id, current.id), eq(postProductionJobs.status, "awaiting_funding"), eq(postProductionJobs.fundingStatus, "unfunded")))
    .returning();
  if (!row) throw new MarketplaceError(409, `This job is ${statusText(current.status)}: it cannot be funded.`);
  return row;
}

export async function notifyJobFunded(job: PostProductionJob, actorId: number) {
  await notifyParties([job.ownerId, job.engineerId], actorId, {
    type: "PostProductionJobFunded",
    message: `Post-production job #${job.id} is funded: ${formatCents(BigInt(job.amountCents!))} is held in escrow until the owner accepts a delivery. The work can start.`,
    color: "green",
    routeName: PP_JOB_ROUTE,
    resourceId: job.id,
  });
}

/**
 * The owner pays the job from their Backline balance, as a project's client does (decision 022): under the member's
 * payout lock the available balance is checked and the amount moves from their earnings into the job's escrow, in
 * one transaction. Only the owner (404 otherwise); 409 unless the job awaits funding; 400 when the balance is short.
 * The route asks for a fresh confirmation first.
 */
export async function payJobFromBalance(actor: PpActor, id: number, now = new Date()): Promise<PostProductionJob> {
  const job = await db().transaction(async (tx) => {
    const current = await visibleJob(tx, actor, id);
    if (current.ownerId !== actor.id) throw new MarketplaceError(404, NO_JOB);
    if (current.status !== "awaiting_funding" || current.fundingStatus !== "unfunded") throw new MarketplaceError(409, "This job is not waiting for payment.");
    await lockBalanceFor(tx, actor.id, current.amountCents!);
    return recordJobFunding(tx, current, actor.id, JOB_BALANCE_REFERENCE, "balance", now);
  });
  await notifyJobFunded(job, actor.id);
  return job;
}

/** An administrator with admin access confirms the owner's bank transfer arrived (manual), with its reference. */
export async function fundJob(actor: PpActor, id: number, reference: unknown, now = new Date()): Promise<PostProductionJob> {
  if (!mayDecideMoney(actor)) throw new MarketplaceError(404, NO_JOB);
  const ref = cleanText(reference);
  if (ref.length < 3 || ref.length > 120) throw new MarketplaceError(400, "Enter the payment's reference (3 to 120 characters).", "reference");
  const job = await db().transaction(async (tx) => {
    const current = await visibleJob(tx, actor, id);
    if (current.status !== "awaiting_funding" || current.fundingStatus !== "unfunded")
      throw new MarketplaceError(409, `This job is ${statusText(current.status)}: it cannot be funded.`);
    return recordJobFunding(tx, current, actor.id, ref, "manual", now);
  });
  await notifyJobFunded(job, actor.id);
  return job;
}

/** The engineer moves the job to its service's next stage. */
export async function advanceJobStage(actor: PpActor, id: number, now = new Date()): Promise<PostProductionJob> {
  const current = await visibleJob(db(), actor, id);
  const mayAct = (j: PostProductionJob) => j.engineerId === actor.id;
  if (!mayAct(current)) throw new MarketplaceError(404, NO_JOB);
  const next = ppNextStage(current.service, current.stage);
  if (!next && current.status === "in_progress") throw new MarketplaceError(409, "This is the last stage: deliver the file.");
  const [row] = next
    ? await db()
        .update(postProductionJobs)
        .set({ stage: next, updatedAt: now })
        .where(
          and(
            eq(postProductionJobs.id, id),
            eq(postProductionJobs.engineerId, actor.id),
            eq(postProductionJobs.stage, current.stage!),
            inArray(postProductionJobs.status, ["in_progress", "revision_requested"]),
          ),
        )
        .returning()
    : [];
  if (!row) throw await explain(db(), id, mayAct, "moved to the next stage");
  await notifyParties([row.ownerId], actor.id, {
    type: "PostProductionJobStage",
    message: `Post-production job #${row.id} is now ${ppStageLabel(row.stage).toLowerCase()}.`,
    routeName: PP_JOB_ROUTE,
    resourceId: row.id,
  });
  return row;
}

const lockedSql = sql`exists (select 1 from ${releaseTracks} rt join ${releases} r on r.id = rt.release_id
  where rt.song_id = ${songs.id} and r.status in (${sql.join(
    LOCKED_RELEASE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )}))`;

/**
 * The owner accepts the newest delivery as the song's new audio: the file is copied to the song's audio
 * (the delivery stays downloadable on the job), the song's audio properties come from the delivery, and the
 * song's previous audio is recorded on the job (its file is kept). The job completes. One transaction.
 */
export async function acceptDeliveryAsAudio(
  actor: PpActor,
  id: number,
  now = new Date(),
): Promise<{ job: PostProductionJob; delivery: PostProductionDelivery }> {
  const mayAct = (j: PostProductionJob) => j.ownerId === actor.id;
  const current = await visibleJob(db(), actor, id);
  if (!mayAct(current)) throw new MarketplaceError(404, NO_JOB);
  if (current.status !== "delivered") throw await explain(db(), id, mayAct, "accepted as the song's audio");
  const [delivery] = await db()
    .select()
    .from(postProductionDeliveries)
    .where(eq(postProductionDeliveries.jobId, id))
    .orderBy(desc(postProductionDeliveries.createdAt), desc(postProductionDeliveries.id))
    .limit(1);
  const source = delivery ? storedUploadKey(DELIVERY_ROOT, delivery.filePath) : null;
  if (!delivery || !source) throw new MarketplaceError(409, "The delivered file is missing: ask the engineer to deliver it again.");
  const recorded = `audio/${current.songId}-${randomBytes(16).toString("hex")}.${delivery.format}`;
  try {
    await storage().copy(source, recorded);
  } catch (error) {
    if (error instanceof StoredFileMissingError) throw new MarketplaceError(409, "The delivered file is missing: ask the engineer to deliver it again.");
    throw error;
  }
  try {
    const job = await db().transaction(async (tx) => {
      const [song] = await tx
        .select({ song: songs, locked: sql<boolean>`${lockedSql}` })
        .from(songs)
        .innerJoin(profiles, eq(profiles.id, songs.artistId))
        .where(and(eq(songs.id, current.songId), editableArtistCondition(actor.id)))
        .for("update", { of: songs });
      if (!song) throw new MarketplaceError(409, "You no longer edit this song's artist page: its audio cannot be replaced from here.");
      if (song.locked) throw new MarketplaceError(409, "This song is on a release under review or in distribution: its audio can no longer be changed.");
      const s = song.song;
      // A funded job's escrow is released to the engineer (less the fee) in the same transaction.
      const settled =
        current.fundingStatus === "funded"
          ? await postSettlement(tx, jobEscrow(current), current.amountCents!, actor.id, `Post-production job #${current.id} accepted: escrow released`)
          : null;
      const [row] = await tx
        .update(postProductionJobs)
        .set({
          status: "completed",
          stage: "completed",
          ...(settled
            ? {
                fundingStatus: "released" as const,
                releasedMicros: settled.releasedMicros,
                feeMicros: settled.feeMicros,
                refundedMicros: settled.refundedMicros,
                settleEntryId: settled.entryId,
              }
            : {}),
          acceptedDeliveryId: delivery.id,
          previousAudio: {
            path: s.audioPath,
            format: s.audioFormat,
            bitDepth: s.audioBitDepth,
            sampleRate: s.audioSampleRate,
            channels: s.audioChannels,
            durationSeconds: s.durationSeconds,
          },
          completedAt: now,
          closedAt: now,
          updatedAt: now,
        })
        .where(
          and(
            eq(postProductionJobs.id, id),
            eq(postProductionJobs.ownerId, actor.id),
            eq(postProductionJobs.status, "delivered"),
            eq(postProductionJobs.fundingStatus, current.fundingStatus),
          ),
        )
        .returning();
      if (!row) throw await explain(tx, id, mayAct, "accepted as the song's audio");
      await tx
        .update(songs)
        .set({
          audioPath: recorded,
          audioFormat: delivery.format,
          audioBitDepth: delivery.bitDepth,
          audioSampleRate: delivery.sampleRate,
          audioChannels: delivery.channels,
          durationSeconds: delivery.durationSeconds,
          updatedAt: now,
        })
        .where(eq(songs.id, s.id));
      return row;
    });
    await notifyParties([job.engineerId], actor.id, {
      type: "PostProductionCompleted",
      message: `Post-production job #${job.id} is completed: ${delivery.fileName} is now the song's audio.${
        job.fundingStatus === "released" ? ` ${formatCents(microsToCentsFloor(job.releasedMicros))} is in your earnings.` : ""
      }`,
      color: "green",
      routeName: PP_JOB_ROUTE,
      resourceId: job.id,
    });
    return { job, delivery };
  } catch (error) {
    await storage().delete(recorded);
    throw error;
  }
}

/** The owner sends the delivery back with a note. */
export async function requestJobRevision(actor: PpActor, id: number, note: unknown, now = new Date()): Promise<PostProductionJob> {
  const text = textBetween(
    note,
    PP_LIMITS.noteMin,
    PP_LIMITS.noteMax,
    `Say what should change (${PP_LIMITS.noteMin} to ${PP_LIMITS.noteMax} characters).`,
    "note",
  );
  const mayAct = (j: PostProductionJob) => j.ownerId === actor.id;
  const [row] = validId(id)
    ? await db()
        .update(postProductionJobs)
        .set({ status: "revision_requested", revisionNote: text, revisions: sql`${postProductionJobs.revisions} + 1`, updatedAt: now })
        .where(and(eq(postProductionJobs.id, id), eq(postProductionJobs.ownerId, actor.id), eq(postProductionJobs.status, "delivered")))
        .returning()
    : [];
  if (!row) throw await explain(db(), id, mayAct, "sent back for a revision");
  await notifyParties([row.engineerId], actor.id, {
    type: "PostProductionRevision",
    message: `Post-production job #${row.id}: a revision is requested. ${text}`,
    color: "yellow",
    routeName: PP_JOB_ROUTE,
    resourceId: row.id,
  });
  return row;
}

/**
 * Cancels a job, with a reason. The owner or the engineer: before the first delivery (pending, awaiting funding or
 * in progress). An administrator: any open job. A funded job's escrow is refunded to the owner in full, in the same
 * transaction (back to their balance when they paid from it).
 */
export async function cancelJob(actor: PpActor, id: number, reason: unknown, now = new Date()): Promise<PostProductionJob> {
  const text = reasonOf(reason);
  const admin = isAdmin(actor);
  const row = await db().transaction(async (tx) => {
    const current = await visibleJob(tx, actor, id);
    if (!admin && current.ownerId !== actor.id && current.engineerId !== actor.id) throw new MarketplaceError(404, NO_JOB);
    if (!PP_OPEN_STATUSES.includes(current.status)) throw new MarketplaceError(409, `This job is ${statusText(current.status)}: it cannot be canceled.`);
    if (!admin && (current.firstDeliveredAt || !["pending", "awaiting_funding", "in_progress"].includes(current.status))) {
      throw new MarketplaceError(409, "A file was delivered already: only an administrator can cancel this job now.");
    }
    const settled =
      current.fundingStatus === "funded"
        ? await postSettlement(tx, jobEscrow(current), 0, actor.id, `Post-production job #${current.id} canceled: escrow refunded`)
        : null;
    const [updated] = await tx
      .update(postProductionJobs)
      .set({
        status: "canceled",
        cancelReason: text,
        canceledBy: actor.id,
        closedAt: now,
        updatedAt: now,
        ...(settled
          ? {
              fundingStatus: "refunded" as const,
              releasedMicros: settled.releasedMicros,
              feeMicros: settled.feeMicros,
              refundedMicros: settled.refundedMicros,
              settleEntryId: settled.entryId,
            }
          : {}),
      })
      .where(
        and(
          eq(postProductionJobs.id, id),
          eq(postProductionJobs.status, current.status),
          eq(postProductionJobs.fundingStatus, current.fundingStatus),
          admin ? undefined : isNull(postProductionJobs.firstDeliveredAt),
        ),
      )
      .returning();
    if (!updated) throw new MarketplaceError(409, "This job changed meanwhile. Reload the page.");
    return updated;
  });
  const refund = row.fundingStatus === "refunded" ? `; ${formatCents(microsToCentsFloor(row.refundedMicros))} is refunded to the owner` : "";
  await notifyParties([row.ownerId, row.engineerId], actor.id, {
    type: "PostProductionCanceled",
    message: `Post-production job #${row.id} was canceled${admin ? " by an administrator" : ""}${refund}: ${text}`,
    color: "red",
    routeName: PP_JOB_ROUTE,
    resourceId: row.id,
  });
  return row;
}
