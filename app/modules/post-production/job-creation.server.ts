import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { postProductionJobs, postProductionServices, profiles, songs, users, type PostProductionJob, type PostProductionService, type User } from "~/db/schema";
import { normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { editableArtistCondition } from "~/modules/catalog/releases/release-access.server";
import { env } from "~/env.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { validId } from "~/modules/marketplace/access.server";
import { marketplaceFeeBps } from "~/modules/marketplace/estimates.server";
import { LIMITS } from "~/modules/marketplace/marketplace-rules";
import { formatCents, MoneyParseError, parseDollarsToCents } from "~/modules/ledger/money";
import { MarketplaceError } from "~/modules/marketplace/marketplace-errors";
import { notifyParties } from "~/modules/marketplace/notify.server";
import { cleanText } from "~/modules/marketplace/work-requests.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { PP_INVITE_PATH, PP_INVITE_TTL_SECONDS, PP_JOB_ROUTE, PP_LIMITS, PP_SERVICE_LABELS } from "./post-production-rules";
import { isAdmin, NO_JOB, type PpActor } from "./job-access.server";

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
