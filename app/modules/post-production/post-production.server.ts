import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Db } from "~/db/client.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import {
  postProductionDeliveries,
  postProductionJobs,
  postProductionServices,
  postProductionStatuses,
  profiles,
  releases,
  releaseTracks,
  songs,
  users,
  type PostProductionDelivery,
  type PostProductionJob,
  type PostProductionService,
  type EscrowFundingMethod,
  type PostProductionStatus,
  type User,
} from "~/db/schema";
import { normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { AudioUploadError, readAudioFacts, type AudioFacts } from "~/modules/catalog/songs/audio.server";
import { editableArtistCondition } from "~/modules/catalog/releases/release-access.server";
import { LOCKED_RELEASE_STATUSES } from "~/modules/catalog/songs/song-access.server";
import { env } from "~/env.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { mayDecideMoney, validId } from "~/modules/marketplace/access.server";
import { jobEscrowAccount, lockBalanceFor, postFunding, postSettlement, type EscrowHolder } from "~/modules/marketplace/escrow.server";
import { marketplaceFeeBps } from "~/modules/marketplace/estimates.server";
import { LIMITS } from "~/modules/marketplace/marketplace-rules";
import { formatCents, microsToCentsFloor, MoneyParseError, parseDollarsToCents } from "~/modules/ledger/money";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { notifyParties } from "~/modules/marketplace/notify.server";
import {
  DELIVERABLE_FIELD,
  receiveCheckedFile,
  storeCheckedFile,
  storedUploadKey,
  type CheckedFile,
} from "~/modules/marketplace/projects/deliverable-files.server";
import { cleanText, type ListPage } from "~/modules/marketplace/work-requests.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { storage, StoredFileMissingError } from "~/modules/storage/storage.server";
import {
  PP_INVITE_PATH,
  PP_INVITE_TTL_SECONDS,
  PP_JOB_ROUTE,
  PP_LIMITS,
  PP_OPEN_STATUSES,
  PP_SERVICE_LABELS,
  ppFirstStage,
  ppNextStage,
  ppStageLabel,
} from "./post-production-rules";

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

export type PpActor = Pick<User, "id" | "acctType" | "roleId" | "name" | "lastName" | "email">;
export type PpRole = "owner" | "engineer" | "admin";

export const NO_JOB = "This post-production job does not exist.";
export const PP_PAGE_SIZE = 25;
const DELIVERY_ROOT = "post-production";

const isAdmin = (actor: Pick<User, "acctType">) => isAdminAccount(actor);

/** SQL: the job's owner or engineer is the actor, or the actor is an administrator. */
function visibleTo(actor: Pick<User, "id" | "acctType">): SQL {
  return isAdmin(actor) ? sql`true` : or(eq(postProductionJobs.ownerId, actor.id), eq(postProductionJobs.engineerId, actor.id))!;
}

/** A job row of the actor (owner, engineer, administrator); 404 otherwise. */
async function visibleJob(executor: Db, actor: Pick<User, "id" | "acctType">, id: number): Promise<PostProductionJob> {
  const [row] = validId(id)
    ? await executor
        .select()
        .from(postProductionJobs)
        .where(and(eq(postProductionJobs.id, id), visibleTo(actor)))
    : [];
  if (!row) throw new MarketplaceError(404, NO_JOB);
  return row;
}

const statusText = (status: string) => status.replace(/_/g, " ");

/** Why a conditional UPDATE found no row: 404 when the actor may not act on the job, else its state. */
async function explain(executor: Db, id: number, mayAct: (job: PostProductionJob) => boolean, doing: string): Promise<MarketplaceError> {
  const [row] = validId(id) ? await executor.select().from(postProductionJobs).where(eq(postProductionJobs.id, id)) : [];
  if (!row || !mayAct(row)) return new MarketplaceError(404, NO_JOB);
  return new MarketplaceError(409, `This job is ${statusText(row.status)}: it cannot be ${doing}.`);
}

function textBetween(value: unknown, min: number, max: number, message: string, field: string): string {
  const text = cleanText(value);
  if (text.length < min || text.length > max) throw new MarketplaceError(400, message, field);
  return text;
}

const reasonOf = (value: unknown) =>
  textBetween(value, PP_LIMITS.reasonMin, PP_LIMITS.reasonMax, `Give a reason (${PP_LIMITS.reasonMin} to ${PP_LIMITS.reasonMax} characters).`, "reason");

/* ------------------------------------------------------------------ creating a job */

export interface JobInput {
  songId: number;
  service: string;
  engineerEmail: string;
  /** The price offered, in dollars and cents ("150.00"). */
  amount: string;
  notes?: string;
}

/** The job's price from the form's dollars and cents, in whole cents; 400 beside `amount` when it is not one. */
export function parseJobAmount(input: unknown): number {
  const message = `Enter the price in dollars and cents, such as 150.00 (at most ${formatCents(BigInt(LIMITS.estimateMaxCents))}).`;
  if (typeof input !== "string" || !input.trim()) throw new MarketplaceError(400, message, "amount");
  let cents: bigint;
  try {
    cents = parseDollarsToCents(input.trim());
  } catch (error) {
    if (error instanceof MoneyParseError) throw new MarketplaceError(400, message, "amount");
    throw error;
  }
  if (cents <= 0n || cents > BigInt(LIMITS.estimateMaxCents)) throw new MarketplaceError(400, message, "amount");
  return Number(cents);
}

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

export interface SongOption {
  id: number;
  title: string;
  version: string;
  artistName: string;
}

/** The songs a member may send to post-production: those of the artist pages they edit. One statement. */
export async function ownerSongOptions(memberId: number): Promise<SongOption[]> {
  return db()
    .select({ id: songs.id, title: songs.title, version: songs.version, artistName: profiles.name })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(editableArtistCondition(memberId))
    .orderBy(asc(sql`lower(${songs.title})`), asc(songs.id))
    .limit(500);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The song's owner (a member who edits its artist page) starts a job. The engineer's address names a member
 * (bound at once, notified) or is invited by a signed link sent by email. Returns the link when one was sent.
 */
export async function createJob(actor: PpActor, input: JobInput, now = new Date()): Promise<{ job: PostProductionJob; inviteUrl: string | null }> {
  if (isAdmin(actor)) throw new MarketplaceError(404, NO_JOB);
  const service = (postProductionServices as readonly string[]).includes(input.service) ? (input.service as PostProductionService) : null;
  if (!service) throw new MarketplaceError(400, "Choose mixing, mastering, or mixing and mastering.", "service");
  const email = normalizeEmail(cleanText(input.engineerEmail));
  if (!EMAIL.test(email) || email.length > PP_LIMITS.emailMax) throw new MarketplaceError(400, "Enter the engineer's email address.", "engineerEmail");
  const amountCents = parseJobAmount(input.amount);
  const notes = cleanText(input.notes ?? "");
  if (notes.length > PP_LIMITS.notesMax) throw new MarketplaceError(400, `Notes are at most ${PP_LIMITS.notesMax} characters.`, "notes");
  if (!validId(input.songId)) throw new MarketplaceError(400, "Choose one of your songs.", "songId");
  const [song] = await db()
    .select({ id: songs.id, title: songs.title })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(and(eq(songs.id, input.songId), editableArtistCondition(actor.id)))
    .limit(1);
  // Someone else's song is answered as a missing choice, never a hint that it exists.
  if (!song) throw new MarketplaceError(400, "Choose one of your songs.", "songId");
  if (email === normalizeEmail(actor.email))
    throw new MarketplaceError(400, "That is your own address: name the engineer who will do the work.", "engineerEmail");
  const [engineer] = await db()
    .select({ id: users.id, acctType: users.acctType, activatedAt: users.activatedAt, suspendedAt: users.suspendedAt })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (engineer && (isAdminAccount(engineer) || engineer.suspendedAt))
    throw new MarketplaceError(400, "This address cannot take jobs: name another engineer.", "engineerEmail");
  // The fee in force now is kept on the job: the engineer accepts the price knowing what they receive.
  const feeBps = await marketplaceFeeBps();
  const [job] = await db()
    .insert(postProductionJobs)
    .values({
      ownerId: actor.id,
      songId: song.id,
      service,
      engineerId: engineer?.id ?? null,
      invitedEmail: engineer ? null : email,
      invitedAt: engineer ? null : now,
      amountCents,
      feeBps,
      notes,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const owner = fullName(actor);
  if (engineer) {
    await notifyParties([engineer.id], actor.id, {
      type: "PostProductionJobOffered",
      message: `${owner} asks you for ${PP_SERVICE_LABELS[service].toLowerCase()} of “${song.title}” for ${formatCents(BigInt(amountCents))}. Accept or decline the job.`,
      color: "purple",
      routeName: PP_JOB_ROUTE,
      resourceId: job!.id,
    });
    return { job: job!, inviteUrl: null };
  }
  const url = inviteUrl(job!.id);
  await sendInviteMail(owner, song.title, service, amountCents, email, url);
  return { job: job!, inviteUrl: url };
}

/** The signed link an invited engineer follows. */
export function inviteUrl(jobId: number, ttlSeconds = PP_INVITE_TTL_SECONDS): string {
  return signedUrl(PP_INVITE_PATH, ttlSeconds, { job: String(jobId) });
}

async function sendInviteMail(owner: string, songTitle: string, service: PostProductionService, amountCents: number, email: string, url: string) {
  const app = env().APP_NAME;
  await sendMail(
    actionMail({
      to: email,
      subject: `${owner} asks you for ${PP_SERVICE_LABELS[service].toLowerCase()} of “${songTitle}” on ${app}`,
      greetingName: "there",
      intro: `${owner} would like you to do the ${PP_SERVICE_LABELS[service].toLowerCase()} of “${songTitle}” for ${formatCents(BigInt(amountCents))}, paid through ${app}. Create your free account (or log in with this address) to see the job, accept it and deliver your file.`,
      actionLabel: "See the post-production job",
      actionUrl: url,
      outro: `The link works for 30 days. If you do not know ${owner}, you can ignore this message.`,
    }),
  );
}

/**
 * Binds the jobs invited to `email` that have no engineer yet to the user (the account the link reached).
 * One statement; returns the ids bound.
 */
export async function bindInvitedJobs(executor: Db, user: Pick<User, "id" | "email">, now = new Date()): Promise<number[]> {
  const rows = await executor
    .update(postProductionJobs)
    .set({ engineerId: user.id, boundAt: now, updatedAt: now })
    .where(
      and(
        isNull(postProductionJobs.engineerId),
        sql`lower(${postProductionJobs.invitedEmail}) = ${normalizeEmail(user.email)}`,
        sql`${postProductionJobs.ownerId} <> ${user.id}`,
        eq(postProductionJobs.status, "pending"),
      ),
    )
    .returning({ id: postProductionJobs.id });
  return rows.map((r) => r.id);
}

/* ------------------------------------------------------------------ the engineer's answer and stages */

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
 */
async function recordJobFunding(
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

async function notifyJobFunded(job: PostProductionJob, actorId: number) {
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

/* ------------------------------------------------------------------ deliveries */

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

/* ------------------------------------------------------------------ the owner's answer */

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

/* ------------------------------------------------------------------ reading */

export interface JobDetail {
  job: PostProductionJob;
  role: PpRole;
  song: { id: number; title: string; version: string; artistName: string; hasAudio: boolean };
  owner: { id: number; name: string };
  engineer: { id: number | null; name: string | null; email: string | null };
  deliveries: PostProductionDelivery[];
}

const ownerUser = alias(users, "pp_owner");
const engineerUser = alias(users, "pp_engineer");

/** One job with its song, people and deliveries, for its owner, its engineer or an administrator. Two statements. */
export async function getJob(actor: Pick<User, "id" | "acctType">, id: number): Promise<JobDetail> {
  if (!validId(id)) throw new MarketplaceError(404, NO_JOB);
  const [rows, deliveries] = await Promise.all([
    db()
      .select({
        job: postProductionJobs,
        songTitle: songs.title,
        songVersion: songs.version,
        songHasAudio: sql<boolean>`${songs.audioPath} is not null`,
        artistName: profiles.name,
        ownerName: sql<string>`${ownerUser.name} || ' ' || ${ownerUser.lastName}`,
        engineerName: sql<string | null>`${engineerUser.name} || ' ' || ${engineerUser.lastName}`,
        engineerEmail: engineerUser.email,
      })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(and(eq(postProductionJobs.id, id), visibleTo(actor))),
    // Read beside the job; shown only when the job is visible.
    db()
      .select({ d: postProductionDeliveries })
      .from(postProductionDeliveries)
      .innerJoin(postProductionJobs, eq(postProductionJobs.id, postProductionDeliveries.jobId))
      .where(and(eq(postProductionDeliveries.jobId, id), visibleTo(actor)))
      .orderBy(asc(postProductionDeliveries.createdAt), asc(postProductionDeliveries.id)),
  ]);
  const row = rows[0];
  if (!row) throw new MarketplaceError(404, NO_JOB);
  const j = row.job;
  const role: PpRole = j.ownerId === actor.id ? "owner" : j.engineerId === actor.id ? "engineer" : "admin";
  return {
    job: j,
    role,
    song: { id: j.songId, title: row.songTitle, version: row.songVersion, artistName: row.artistName, hasAudio: row.songHasAudio },
    owner: { id: j.ownerId, name: row.ownerName },
    engineer: { id: j.engineerId, name: j.engineerId ? row.engineerName : null, email: j.engineerId ? row.engineerEmail : j.invitedEmail },
    deliveries: deliveries.map((d) => d.d),
  };
}

export interface JobListRow {
  id: number;
  service: PostProductionService;
  status: PostProductionStatus;
  stage: string | null;
  songTitle: string;
  ownerName: string;
  engineerName: string | null;
  invitedEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

async function jobPage(where: SQL | undefined, page: number, pageSize = PP_PAGE_SIZE): Promise<ListPage<JobListRow>> {
  const [rows, [count]] = await Promise.all([
    db()
      .select({
        id: postProductionJobs.id,
        service: postProductionJobs.service,
        status: postProductionJobs.status,
        stage: postProductionJobs.stage,
        songTitle: songs.title,
        ownerName: sql<string>`${ownerUser.name} || ' ' || ${ownerUser.lastName}`,
        engineerName: sql<string | null>`${engineerUser.name} || ' ' || ${engineerUser.lastName}`,
        invitedEmail: postProductionJobs.invitedEmail,
        createdAt: postProductionJobs.createdAt,
        updatedAt: postProductionJobs.updatedAt,
      })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(where)
      .orderBy(desc(postProductionJobs.createdAt), desc(postProductionJobs.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db()
      .select({ n: sql<number>`count(*)::int` })
      .from(postProductionJobs)
      .innerJoin(songs, eq(songs.id, postProductionJobs.songId))
      .innerJoin(ownerUser, eq(ownerUser.id, postProductionJobs.ownerId))
      .leftJoin(engineerUser, eq(engineerUser.id, postProductionJobs.engineerId))
      .where(where),
  ]);
  const total = count?.n ?? 0;
  return { rows, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

const pageOf = (page: number | undefined) => (Number.isInteger(page) && page! >= 1 && page! <= 10_000 ? page! : 1);
const statusOf = (status: string | undefined) =>
  status && (postProductionStatuses as readonly string[]).includes(status) ? (status as PostProductionStatus) : null;

/** A member's jobs, as the song's owner or as the engineer, newest first, by status. Two statements. */
export async function listMemberJobs(
  memberId: number,
  as: "owner" | "engineer",
  page?: number,
  filter: { status?: string } = {},
): Promise<ListPage<JobListRow>> {
  const status = statusOf(filter.status);
  return jobPage(
    and(
      as === "owner" ? eq(postProductionJobs.ownerId, memberId) : eq(postProductionJobs.engineerId, memberId),
      status ? eq(postProductionJobs.status, status) : undefined,
    ),
    pageOf(page),
  );
}

/** Every job, for administrators: by status and service, searched by song, owner, engineer or number. Two statements. */
export async function adminListJobs(
  actor: Pick<User, "acctType">,
  query: { status?: string; service?: string; q?: string; page?: number } = {},
): Promise<ListPage<JobListRow>> {
  if (!isAdmin(actor)) throw new MarketplaceError(404, NO_JOB);
  const status = statusOf(query.status);
  const service = query.service && (postProductionServices as readonly string[]).includes(query.service) ? (query.service as PostProductionService) : null;
  const q = cleanText(query.q).slice(0, 100).toLowerCase();
  const like = `%${escapeLike(q)}%`;
  const where = and(
    status ? eq(postProductionJobs.status, status) : undefined,
    service ? eq(postProductionJobs.service, service) : undefined,
    q
      ? or(
          ilike(songs.title, like),
          sql`lower(${ownerUser.name} || ' ' || ${ownerUser.lastName} || ' ' || ${ownerUser.email}) like ${like}`,
          sql`lower(coalesce(${engineerUser.name} || ' ' || ${engineerUser.lastName} || ' ' || ${engineerUser.email}, '')) like ${like}`,
          sql`lower(coalesce(${postProductionJobs.invitedEmail}, '')) like ${like}`,
          /^\d{1,9}$/.test(q) ? eq(postProductionJobs.id, Number(q)) : undefined,
        )
      : undefined,
  );
  return jobPage(where, pageOf(query.page));
}

/* ------------------------------------------------------------------ downloads */

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
