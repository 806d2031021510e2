import { releaseHeldShare } from "~/modules/ledger/held-shares.server";
import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import {
  profiles,
  songs,
  splitEvents,
  splitParties,
  splitVersions,
  users,
  type SplitEventKind,
  type SplitParty,
  type SplitVersion,
  type User,
} from "~/db/schema";
import { env } from "~/env.server";
import { normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { todayUtc } from "~/modules/catalog/catalog.server";
import { latestPostedSalePeriodStart } from "~/modules/ledger/posted-periods.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { awaitingConfirmation, dayAfter, formatBps, MAX_SPLIT_PARTIES, sharesTotalProblem } from "./split-rules";

/**
 * Share splits (master royalties) of a song, in versions (docs/decisions/015-share-splits.md).
 *
 * - The song's owner, an editor of its artist page or an admin proposes a version: an effective date and
 *   parties (members or email addresses) whose shares total exactly 10,000 basis points.
 * - Each party accepts or declines. Members get a live notification and a dashboard task; an address
 *   without an account gets a signed link to `/share-split-proposals/create-account`.
 * - The owner (or an admin) confirms the version; from its effective date it is in force until the next
 *   confirmed version's date. Parties still pending then have their share held (docs/money.md) until they answer.
 * - A version may not start on or before a sale period the ledger has already posted for the song.
 */

export const SPLIT_INVITE_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SPLIT_INVITE_PATH = "/share-split-proposals/create-account";

export class SplitError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "SplitError";
  }
}

export const MISSING_PROPOSAL = "This split proposal does not exist or was withdrawn.";

/** Who acts, and from where (kept on the sheet as the acceptance's evidence). */
export type SplitActor = Pick<User, "id" | "name" | "lastName" | "email" | "acctType">;
export interface RequestMeta {
  ip: string;
  userAgent: string;
}

export type SongRef = { id: number; title: string; artist: { id: number; name: string; ownerId: number } };

export interface ProposalInput {
  effectiveFrom: string;
  note: string;
  parties: Array<{ email: string; shareBps: number }>;
  /** Index into `parties` of the party paid `amountMicros` first, or null. */
  recoup: { partyIndex: number; amountMicros: bigint } | null;
}

/* ------------------------------------------------------------------ who may see and act */

/** SQL: the party row belongs to the user (linked, or addressed to their verified email). */
export function partyOfUser(user: Pick<User, "id" | "email" | "emailVerifiedAt">) {
  return user.emailVerifiedAt
    ? or(eq(splitParties.userId, user.id), and(isNull(splitParties.userId), sql`lower(${splitParties.email}) = ${normalizeEmail(user.email)}`))!
    : eq(splitParties.userId, user.id);
}

/** Whether the user is a party of any version of the song (pending, accepted or declined): they see the whole sheet. One statement. */
export async function isSplitParty(songId: number, user: Pick<User, "id" | "email" | "emailVerifiedAt">): Promise<boolean> {
  const [row] = await db()
    .select({ id: splitParties.id })
    .from(splitParties)
    .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
    .where(and(eq(splitVersions.songId, songId), partyOfUser(user)))
    .limit(1);
  return Boolean(row);
}

/* ------------------------------------------------------------------ dates */

/**
 * Why a version may not start on `effectiveFrom`, or null. Confirmed versions never share a start date;
 * a new version starts after the latest confirmed one (history is not rewritten in the middle), and after
 * the latest sale period the ledger has posted for the song.
 */
async function effectiveDateProblem(tx: Db, songId: number, effectiveFrom: string, exceptVersionId?: number): Promise<string | null> {
  const [latest] = await tx
    .select({ number: splitVersions.number, effectiveFrom: splitVersions.effectiveFrom })
    .from(splitVersions)
    .where(and(eq(splitVersions.songId, songId), eq(splitVersions.status, "confirmed"), exceptVersionId ? ne(splitVersions.id, exceptVersionId) : undefined))
    .orderBy(desc(splitVersions.effectiveFrom))
    .limit(1);
  if (latest && effectiveFrom <= latest.effectiveFrom) {
    return `Version ${latest.number} starts on ${latest.effectiveFrom}: a new version must start after it, on ${dayAfter(latest.effectiveFrom)} or later.`;
  }
  const posted = await latestPostedSalePeriodStart(songId, tx);
  if (posted && effectiveFrom <= posted) {
    return `Sales up to the period starting ${posted} are already posted and paid under the split in force then. A new version can start on ${dayAfter(posted)} or later.`;
  }
  return null;
}

/* ------------------------------------------------------------------ proposing */

function validateProposal(input: ProposalInput) {
  if (input.parties.length === 0) throw new SplitError(400, "Add at least one party.", "parties");
  if (input.parties.length > MAX_SPLIT_PARTIES) throw new SplitError(400, `A split has at most ${MAX_SPLIT_PARTIES} parties.`, "parties");
  if (input.parties.some((p) => !Number.isInteger(p.shareBps) || p.shareBps <= 0)) throw new SplitError(400, "Every share must be above 0%.", "parties");
  const problem = sharesTotalProblem(input.parties.map((p) => p.shareBps));
  if (problem) throw new SplitError(400, problem, "parties");
  const emails = new Set(input.parties.map((p) => normalizeEmail(p.email)));
  if (emails.size !== input.parties.length) throw new SplitError(400, "Each party appears once.", "parties");
  if (input.recoup && (input.recoup.amountMicros <= 0n || !input.parties[input.recoup.partyIndex])) {
    throw new SplitError(400, "Choose who recoups, and an amount above zero.", "recoupAmount");
  }
}

async function recordEvent(
  tx: Db,
  event: { songId: number; versionId: number; partyId?: string | null; kind: SplitEventKind; message: string; actorId: number | null; ip: string | null },
) {
  await tx.insert(splitEvents).values({ ...event, partyId: event.partyId ?? null });
}

/**
 * Proposes a version of the song's split and invites its parties. The caller checked the right to propose.
 * The proposer's own party (if any) is accepted on the spot, with their IP.
 */
export async function proposeSplit(
  actor: SplitActor,
  song: SongRef,
  input: ProposalInput,
  meta: RequestMeta,
): Promise<{ version: SplitVersion; parties: SplitParty[]; inviteUrls: Map<string, string> }> {
  validateProposal(input);
  let created: { version: SplitVersion; parties: SplitParty[] };
  try {
    created = await db().transaction(async (tx) => {
      // One proposal at a time per song: the song row is the lock that orders concurrent proposals.
      await tx.select({ id: songs.id }).from(songs).where(eq(songs.id, song.id)).for("update");
      const [open] = await tx
        .select({ number: splitVersions.number })
        .from(splitVersions)
        .where(and(eq(splitVersions.songId, song.id), eq(splitVersions.status, "proposed")))
        .limit(1);
      if (open) throw new SplitError(409, `Version ${open.number} is still a proposal: confirm or withdraw it before proposing another.`);
      const problem = await effectiveDateProblem(tx, song.id, input.effectiveFrom);
      if (problem) throw new SplitError(400, problem, "effectiveFrom");

      const emails = input.parties.map((p) => normalizeEmail(p.email));
      const members = await tx
        .select({ id: users.id, email: users.email, name: users.name, lastName: users.lastName })
        .from(users)
        .where(inArray(sql`lower(${users.email})`, emails));
      const memberByEmail = new Map(members.map((m) => [normalizeEmail(m.email), m]));
      const [{ next }] = (await tx
        .select({ next: sql<number>`coalesce(max(${splitVersions.number}), 0)::int + 1` })
        .from(splitVersions)
        .where(eq(splitVersions.songId, song.id))) as [{ next: number }];
      const now = new Date();
      const [version] = await tx
        .insert(splitVersions)
        .values({ songId: song.id, number: next, effectiveFrom: input.effectiveFrom, note: input.note, proposedBy: actor.id, proposedAt: now })
        .returning();
      const parties = await tx
        .insert(splitParties)
        .values(
          input.parties.map((p, position) => {
            const member = memberByEmail.get(normalizeEmail(p.email));
            const isProposer = member?.id === actor.id;
            return {
              versionId: version!.id,
              userId: member?.id ?? null,
              email: member?.email ?? p.email.trim(),
              name: member ? fullName(member) : p.email.trim(),
              shareBps: p.shareBps,
              recoupMicros: input.recoup?.partyIndex === position ? input.recoup.amountMicros : 0n,
              status: isProposer ? ("accepted" as const) : ("pending" as const),
              answeredAt: isProposer ? now : null,
              answeredIp: isProposer ? meta.ip : null,
              answeredUserAgent: isProposer ? meta.userAgent.slice(0, 500) : null,
              position,
            };
          }),
        )
        .returning();
      const summary = parties.map((p) => `${p.name} ${formatBps(p.shareBps)}`).join(", ");
      await recordEvent(tx, {
        songId: song.id,
        versionId: version!.id,
        kind: "proposed",
        message: `${fullName(actor)} proposed version ${next}, effective ${input.effectiveFrom}: ${summary}.`,
        actorId: actor.id,
        ip: meta.ip,
      });
      return { version: version!, parties: parties.sort((a, b) => a.position - b.position) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new SplitError(409, "Another version was proposed for this song at the same moment. Reload the page.");
    throw error;
  }
  const inviteUrls = await inviteParties(
    actor,
    song,
    created.version,
    created.parties.filter((p) => p.status === "pending"),
  );
  return { ...created, inviteUrls };
}

/** The signed link an invitee without an account follows. */
export function splitInviteUrl(partyId: string): string {
  return signedUrl(SPLIT_INVITE_PATH, SPLIT_INVITE_TTL_SECONDS, { party: partyId });
}

/** Members: a live notification (and the dashboard task). Addresses without an account: the signed link by email. */
async function inviteParties(actor: SplitActor, song: SongRef, version: SplitVersion, pending: SplitParty[]): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  const inviter = fullName(actor);
  for (const party of pending) {
    if (party.userId) {
      await notifyMember(party.userId, {
        type: "SplitProposed",
        message: `${inviter} proposed a split of “${song.title}”: your share is ${formatBps(party.shareBps)}. Accept or decline it.`,
        color: "blue",
        routeName: "member-song-profile",
        resourceId: song.id,
        routeHash: "splits",
      });
    } else {
      const url = splitInviteUrl(party.id);
      urls.set(party.id, url);
      await sendInviteMail(inviter, song, version, party, url);
    }
  }
  return urls;
}

async function sendInviteMail(inviter: string, song: SongRef, version: Pick<SplitVersion, "effectiveFrom">, party: SplitParty, url: string) {
  const app = env().APP_NAME;
  await sendMail(
    actionMail({
      to: party.email,
      subject: `${inviter} proposed you a ${formatBps(party.shareBps)} share of “${song.title}” on ${app}`,
      greetingName: "there",
      intro: `${inviter} proposed a split of the master royalties of “${song.title}” by ${song.artist.name}, from ${version.effectiveFrom}: your share is ${formatBps(party.shareBps)}. Create your free account to see the whole split sheet and accept or decline it. Until you answer, your share is held for you, never paid to anyone else.`,
      actionLabel: "See the split proposal",
      actionUrl: url,
      outro: `The link works for 30 days; ${inviter} can send a new one. If you did not work on “${song.title}”, you can decline it or ignore this message.`,
    }),
  );
}

/** Sends a pending invitee without an account a fresh link (the old one keeps working until it expires). */
export async function resendSplitInvite(actor: SplitActor, song: SongRef, partyId: string): Promise<string> {
  const [row] = await db()
    .select({ party: splitParties, version: splitVersions })
    .from(splitParties)
    .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
    .where(and(eq(splitParties.id, partyId), eq(splitVersions.songId, song.id)))
    .limit(1);
  if (!row || row.version.status === "withdrawn") throw new SplitError(404, MISSING_PROPOSAL);
  if (row.party.status !== "pending") throw new SplitError(409, `${row.party.name} has answered already.`);
  if (row.party.userId) throw new SplitError(409, `${row.party.name} is a member: the proposal is on their dashboard.`);
  const url = splitInviteUrl(row.party.id);
  await sendInviteMail(fullName(actor), song, row.version, row.party, url);
  return url;
}

/* ------------------------------------------------------------------ confirming and withdrawing */

/** The version of the song, locked for the change. */
async function lockVersion(tx: Db, songId: number, versionId: number): Promise<SplitVersion> {
  const [version] = await tx
    .select()
    .from(splitVersions)
    .where(and(eq(splitVersions.id, versionId), eq(splitVersions.songId, songId)))
    .for("update");
  if (!version) throw new SplitError(404, MISSING_PROPOSAL);
  return version;
}

/** Only the artist page's owner or an admin confirms: the owner's word puts a split in force. */
export function canConfirmSplits(actor: Pick<User, "id" | "acctType">, song: SongRef): boolean {
  return actor.id === song.artist.ownerId || isAdminAccount(actor);
}

/**
 * Confirms a proposed version: it is in force from its effective date. The owner's own pending party is
 * accepted by confirming. Parties still pending keep their share held until they answer.
 */
export async function confirmSplit(actor: SplitActor, song: SongRef, versionId: number, meta: RequestMeta): Promise<SplitVersion> {
  if (!canConfirmSplits(actor, song)) throw new SplitError(403, "Only the artist page's owner or an administrator confirms a split.");
  const confirmed = await db().transaction(async (tx) => {
    await tx.select({ id: songs.id }).from(songs).where(eq(songs.id, song.id)).for("update");
    const version = await lockVersion(tx, song.id, versionId);
    if (version.status !== "proposed")
      throw new SplitError(
        409,
        version.status === "confirmed" ? `Version ${version.number} is confirmed already.` : `Version ${version.number} was withdrawn.`,
      );
    const problem = await effectiveDateProblem(tx, song.id, version.effectiveFrom, version.id);
    if (problem) throw new SplitError(409, `${problem} Withdraw this proposal and propose it again with a later date.`);
    const now = new Date();
    const [updated] = await tx
      .update(splitVersions)
      .set({ status: "confirmed", confirmedBy: actor.id, confirmedAt: now })
      .where(eq(splitVersions.id, version.id))
      .returning();
    const ownParty = await tx
      .update(splitParties)
      .set({ status: "accepted", userId: actor.id, answeredAt: now, answeredIp: meta.ip, answeredUserAgent: meta.userAgent.slice(0, 500) })
      .where(and(eq(splitParties.versionId, version.id), eq(splitParties.status, "pending"), eq(splitParties.userId, actor.id)))
      .returning({ id: splitParties.id });
    const pending = await tx
      .select({ name: splitParties.name })
      .from(splitParties)
      .where(and(eq(splitParties.versionId, version.id), eq(splitParties.status, "pending")));
    const held = pending.length ? ` Still pending, their share held until they answer: ${pending.map((p) => p.name).join(", ")}.` : "";
    await recordEvent(tx, {
      songId: song.id,
      versionId: version.id,
      partyId: ownParty[0]?.id ?? null,
      kind: "confirmed",
      message: `${fullName(actor)} confirmed version ${version.number}: in force from ${version.effectiveFrom}.${held}`,
      actorId: actor.id,
      ip: meta.ip,
    });
    return updated!;
  });
  await notifyParties(song, confirmed.id, actor.id, {
    type: "SplitConfirmed",
    message: `Version ${confirmed.number} of the split of “${song.title}” is confirmed: in force from ${confirmed.effectiveFrom}.`,
    color: "green",
  });
  return confirmed;
}

/**
 * Withdraws a proposal (the owner, an editor or an admin), or a confirmed version that is not in force
 * yet (the owner or an admin): its links stop working and nothing was ever allocated under it.
 */
export async function withdrawSplit(actor: SplitActor, song: SongRef, versionId: number, meta: RequestMeta, today = todayUtc()): Promise<SplitVersion> {
  const withdrawn = await db().transaction(async (tx) => {
    const version = await lockVersion(tx, song.id, versionId);
    if (version.status === "withdrawn") throw new SplitError(409, `Version ${version.number} was withdrawn already.`);
    if (version.status === "confirmed") {
      if (!canConfirmSplits(actor, song)) throw new SplitError(403, "Only the artist page's owner or an administrator withdraws a confirmed split.");
      if (version.effectiveFrom <= today)
        throw new SplitError(409, `Version ${version.number} is in force since ${version.effectiveFrom}: propose a new version instead.`);
    }
    const [updated] = await tx
      .update(splitVersions)
      .set({ status: "withdrawn", withdrawnBy: actor.id, withdrawnAt: new Date() })
      .where(eq(splitVersions.id, version.id))
      .returning();
    await recordEvent(tx, {
      songId: song.id,
      versionId: version.id,
      kind: "withdrawn",
      message: `${fullName(actor)} withdrew version ${version.number}.`,
      actorId: actor.id,
      ip: meta.ip,
    });
    return updated!;
  });
  await notifyParties(song, withdrawn.id, actor.id, {
    type: "SplitWithdrawn",
    message: `Version ${withdrawn.number} of the split of “${song.title}” was withdrawn.`,
    color: "orange",
  });
  return withdrawn;
}

/** Tells every member party of the version (but the one acting) what happened. */
async function notifyParties(
  song: SongRef,
  versionId: number,
  exceptUserId: number,
  input: { type: string; message: string; color: "green" | "orange" | "blue" },
) {
  const members = await db()
    .selectDistinct({ userId: splitParties.userId })
    .from(splitParties)
    .where(and(eq(splitParties.versionId, versionId), sql`${splitParties.userId} is not null`, ne(splitParties.userId, exceptUserId)));
  for (const { userId } of members) {
    await notifyMember(userId!, { ...input, routeName: "member-song-profile", resourceId: song.id, routeHash: "splits" });
  }
}

/* ------------------------------------------------------------------ answering */

export type SplitAnswer = "accepted" | "declined";

/**
 * A party answers a proposal or a confirmed version (a pending share is held until then). The party must
 * be the user's (linked, or addressed to their verified email); the answer, its time and IP are kept for
 * the signed sheet. A declined share goes back to the artist page's owner, which the history says.
 */
export async function answerSplit(
  user: Pick<User, "id" | "name" | "lastName" | "email" | "emailVerifiedAt">,
  partyId: string,
  answer: SplitAnswer,
  meta: RequestMeta,
): Promise<{ party: SplitParty; version: SplitVersion; song: SongRef }> {
  if (!/^[0-9a-f-]{36}$/i.test(partyId)) throw new SplitError(404, MISSING_PROPOSAL);
  const result = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({
        party: splitParties,
        version: splitVersions,
        song: { id: songs.id, title: songs.title },
        artist: { id: profiles.id, name: profiles.name, ownerId: profiles.ownerId },
      })
      .from(splitParties)
      .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
      .innerJoin(songs, eq(songs.id, splitVersions.songId))
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(and(eq(splitParties.id, partyId), partyOfUser(user)))
      .for("update", { of: splitParties });
    if (!row || row.version.status === "withdrawn") throw new SplitError(404, MISSING_PROPOSAL);
    if (row.party.status !== "pending") throw new SplitError(409, `You ${row.party.status} this split already.`);
    const now = new Date();
    const [party] = await tx
      .update(splitParties)
      .set({ status: answer, userId: user.id, answeredAt: now, answeredIp: meta.ip, answeredUserAgent: meta.userAgent.slice(0, 500) })
      .where(eq(splitParties.id, partyId))
      .returning();
    const who = fullName(user);
    const message =
      answer === "accepted"
        ? `${who} accepted ${formatBps(party!.shareBps)} of version ${row.version.number}.`
        : `${who} declined ${formatBps(party!.shareBps)} of version ${row.version.number}: that share goes back to the artist page's owner.`;
    await recordEvent(tx, { songId: row.song.id, versionId: row.version.id, partyId, kind: answer, message, actorId: user.id, ip: meta.ip });
    await releaseHeldShare(tx, { splitPartyId: partyId, toUserId: answer === "accepted" ? user.id : row.artist.ownerId, answer, actorId: user.id });
    // Was this the last answer a proposal waited for? Then only the owner's confirmation is missing.
    const parties =
      row.version.status === "proposed"
        ? await tx.select({ status: splitParties.status, userId: splitParties.userId }).from(splitParties).where(eq(splitParties.versionId, row.version.id))
        : [];
    const ready =
      row.version.status === "proposed" ? awaitingConfirmation(parties.map((p) => ({ status: p.status, isOwner: p.userId === row.artist.ownerId }))) : null;
    return { party: party!, version: row.version, song: { ...row.song, artist: row.artist }, ready };
  });
  const owner = result.song.artist.ownerId;
  const recipients = new Set([owner, result.version.proposedBy].filter((id): id is number => id !== null && id !== user.id));
  const answered = `${fullName(user)} ${answer} ${formatBps(result.party.shareBps)} of the split of “${result.song.title}”.`;
  for (const id of recipients) {
    const toConfirm = id === owner && result.ready !== null;
    await notifyMember(id, {
      type: toConfirm ? "SplitReadyToConfirm" : answer === "accepted" ? "SplitAccepted" : "SplitDeclined",
      message: toConfirm
        ? `${answered} Every party has ${result.ready}: confirm version ${result.version.number} to put it in force from ${result.version.effectiveFrom}.`
        : answered,
      color: answer === "accepted" ? "green" : "orange",
      routeName: "member-song-profile",
      resourceId: result.song.id,
      routeHash: "splits",
    });
  }
  return { party: result.party, version: result.version, song: result.song };
}

/**
 * An invitee without an account declines from the signed link alone (the link reached their mailbox);
 * their share goes back to the owner. A party linked to an account answers while logged in.
 */
export async function declineSplitByLink(partyId: string, meta: RequestMeta): Promise<{ party: SplitParty; song: SongRef }> {
  if (!/^[0-9a-f-]{36}$/i.test(partyId)) throw new SplitError(404, MISSING_PROPOSAL);
  const result = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({
        party: splitParties,
        version: splitVersions,
        song: { id: songs.id, title: songs.title },
        artist: { id: profiles.id, name: profiles.name, ownerId: profiles.ownerId },
      })
      .from(splitParties)
      .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
      .innerJoin(songs, eq(songs.id, splitVersions.songId))
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(eq(splitParties.id, partyId))
      .for("update", { of: splitParties });
    if (!row || row.version.status === "withdrawn") throw new SplitError(404, MISSING_PROPOSAL);
    if (row.party.status !== "pending") throw new SplitError(409, `This share was ${row.party.status} already.`);
    if (row.party.userId) throw new SplitError(403, "Log in to answer this proposal.");
    const [party] = await tx
      .update(splitParties)
      .set({ status: "declined", answeredAt: new Date(), answeredIp: meta.ip, answeredUserAgent: meta.userAgent.slice(0, 500) })
      .where(eq(splitParties.id, partyId))
      .returning();
    await recordEvent(tx, {
      songId: row.song.id,
      versionId: row.version.id,
      partyId,
      kind: "declined",
      message: `${row.party.email} declined ${formatBps(row.party.shareBps)} of version ${row.version.number}: that share goes back to the artist page's owner.`,
      actorId: null,
      ip: meta.ip,
    });
    await releaseHeldShare(tx, { splitPartyId: partyId, toUserId: row.artist.ownerId, answer: "declined", actorId: null });
    const parties =
      row.version.status === "proposed"
        ? await tx.select({ status: splitParties.status, userId: splitParties.userId }).from(splitParties).where(eq(splitParties.versionId, row.version.id))
        : [];
    const ready =
      row.version.status === "proposed" ? awaitingConfirmation(parties.map((p) => ({ status: p.status, isOwner: p.userId === row.artist.ownerId }))) : null;
    return { party: party!, version: row.version, song: { ...row.song, artist: row.artist }, ready };
  });
  const declined = `${result.party.email} declined ${formatBps(result.party.shareBps)} of the split of “${result.song.title}”.`;
  await notifyMember(result.song.artist.ownerId, {
    type: result.ready ? "SplitReadyToConfirm" : "SplitDeclined",
    message: result.ready
      ? `${declined} Every party has ${result.ready}: confirm version ${result.version.number} to put it in force from ${result.version.effectiveFrom}.`
      : declined,
    color: "orange",
    routeName: "member-song-profile",
    resourceId: result.song.id,
    routeHash: "splits",
  });
  return { party: result.party, song: result.song };
}

/* ------------------------------------------------------------------ in force */

export interface SplitInForce {
  version: SplitVersion;
  parties: SplitParty[];
}

/**
 * The confirmed version in force on `date` (the latest confirmed one starting on or before it), with its
 * parties, or null: a song without one pays its artist page's owner 100 %. Two statements.
 */
export async function splitInForce(songId: number, date: string, executor: Db = db()): Promise<SplitInForce | null> {
  const [version] = await executor
    .select()
    .from(splitVersions)
    .where(and(eq(splitVersions.songId, songId), eq(splitVersions.status, "confirmed"), sql`${splitVersions.effectiveFrom} <= ${date}`))
    .orderBy(desc(splitVersions.effectiveFrom))
    .limit(1);
  if (!version) return null;
  const parties = await executor.select().from(splitParties).where(eq(splitParties.versionId, version.id)).orderBy(asc(splitParties.position));
  return { version, parties };
}
