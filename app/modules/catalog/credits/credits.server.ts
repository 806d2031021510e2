import { and, eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors";
import { profiles, songCredits, songs, users, type CreditRole, type SongCredit, type User } from "~/db/schema";
import { env } from "~/env.server";
import { ACCT_MEMBER, EmailTakenError, findUserByEmail, normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { hashPassword } from "~/modules/accounts/password.server";
import type { SongDetail } from "~/modules/catalog/catalog.server";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { describeWait, hitRateLimit } from "~/modules/security/rate-limit.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { CREDIT_ROLE_LABELS } from "./credit-labels";

/**
 * Producer and featured-artist credits on a song. The song's editor invites anyone by email; the message
 * carries a signed link (the band invitations' rules: 7 days, 'Invalid signature.' when tampered with or
 * expired) to `/song-producer-invite/{id}` or `/song-featured-artist-invite/{id}`, where the invitee
 * accepts (creating an account on the spot if needed) or declines. An accepted credit is verified.
 */

export const CREDIT_TTL_SECONDS = 7 * 24 * 60 * 60;
export const CREDIT_INVITES_PER_SONG_PER_DAY = 20;

export { CREDIT_ROLE_LABELS };

export function creditInvitePath(role: CreditRole, id: string): string {
  return role === "producer" ? `/song-producer-invite/${id}` : `/song-featured-artist-invite/${id}`;
}

export class CreditError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: "email",
  ) {
    super(message);
    this.name = "CreditError";
  }
}

export const MISSING_CREDIT = "This invitation does not exist or was withdrawn.";
export type CreditState = "pending" | "accepted" | "declined" | "revoked" | "expired";
export const CREDIT_STATE_MESSAGES: Record<Exclude<CreditState, "pending">, string> = {
  accepted: "This invitation was accepted already.",
  declined: "This invitation was declined.",
  revoked: "This invitation was withdrawn.",
  expired: "This invitation has expired. Ask for a new one.",
};

export function creditState(credit: Pick<SongCredit, "status" | "expiresAt">, now = new Date()): CreditState {
  if (credit.status !== "pending") return credit.status;
  return credit.expiresAt <= now ? "expired" : "pending";
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Invites `email` to be credited on the song in `role`, and mails the signed link. The caller checked the rights. */
export async function inviteCredit(
  actor: Pick<User, "id" | "name" | "lastName">,
  song: Pick<SongDetail, "id" | "title" | "artist">,
  role: CreditRole,
  emailInput: string,
) {
  const email = emailInput.trim();
  const lower = normalizeEmail(email);
  const [live] = await db()
    .select({ id: songCredits.id })
    .from(songCredits)
    .where(
      and(
        eq(songCredits.songId, song.id),
        eq(songCredits.role, role),
        sql`lower(${songCredits.email}) = ${lower}`,
        inArray(songCredits.status, ["pending", "accepted"]),
      ),
    )
    .limit(1);
  if (live) throw new CreditError(409, `${email} is already invited or credited as ${CREDIT_ROLE_LABELS[role].toLowerCase()} on this song.`, "email");
  const limit = await hitRateLimit(`credit-invite:song:${song.id}`, CREDIT_INVITES_PER_SONG_PER_DAY, 24 * 60 * 60);
  if (!limit.allowed)
    throw new CreditError(429, `Too many invitations were sent for this song today. Please try again in ${describeWait(limit.retryAfterSeconds)}.`);
  let credit: SongCredit;
  try {
    [credit] = (await db()
      .insert(songCredits)
      .values({ songId: song.id, role, email, invitedBy: actor.id, expiresAt: new Date(Date.now() + CREDIT_TTL_SECONDS * 1000) })
      .returning()) as [SongCredit];
  } catch (error) {
    if (isUniqueViolation(error))
      throw new CreditError(409, `${email} is already invited or credited as ${CREDIT_ROLE_LABELS[role].toLowerCase()} on this song.`, "email");
    throw error;
  }
  const url = signedUrl(creditInvitePath(role, credit.id), CREDIT_TTL_SECONDS);
  const app = env().APP_NAME;
  const inviter = fullName(actor);
  try {
    await sendMail(
      actionMail({
        to: email,
        subject: `${inviter} credited you on “${song.title}” on ${app}`,
        greetingName: "there",
        intro: `${inviter} would like to credit you as ${CREDIT_ROLE_LABELS[role].toLowerCase()} on “${song.title}” by ${song.artist.name}. Accept to have the credit verified and shown on the release page and your profile; if you have no account yet, you can create one from the link.`,
        actionLabel: "See the invitation",
        actionUrl: url,
        outro: `The link works for 7 days. If you did not work on “${song.title}”, you can decline it or ignore this message.`,
      }),
    );
  } catch (error) {
    // Nobody received the link: drop the invitation so the form can simply be sent again.
    await db().delete(songCredits).where(eq(songCredits.id, credit.id));
    throw error;
  }
  // A member (a verified account at that address) also hears of it in the app, as split proposals do; the
  // dashboard lists it with its link until it is answered (pendingCreditTasks).
  const member = await findUserByEmail(email);
  if (member?.emailVerifiedAt) {
    await notifyMember(member.id, {
      type: "SongCreditInvited",
      message: `${inviter} would like to credit you as ${CREDIT_ROLE_LABELS[role].toLowerCase()} on “${song.title}” by ${song.artist.name}. Accept or decline it.`,
      color: "blue",
      routeName: "member-dashboard",
      routeHash: "credit-invitations",
    });
  }
  return { credit, url };
}

export interface PendingCreditTask {
  id: string;
  role: CreditRole;
  songTitle: string;
  artistName: string;
  inviterName: string | null;
  /** The invitation page, signed until the invitation expires (the path: it opens on this host). */
  href: string;
}

/**
 * The credit invitations waiting for this member's answer: addressed to their (verified) email, pending and
 * not expired, newest first. The member is the addressee, so the dashboard may hand them the signed link the
 * email carries.
 */
export async function pendingCreditTasks(user: Pick<User, "email" | "emailVerifiedAt">, now = new Date()): Promise<PendingCreditTask[]> {
  if (!user.emailVerifiedAt) return [];
  const rows = await db()
    .select({
      id: songCredits.id,
      role: songCredits.role,
      expiresAt: songCredits.expiresAt,
      songTitle: songs.title,
      artistName: profiles.name,
      inviterName: users.name,
      inviterLastName: users.lastName,
    })
    .from(songCredits)
    .innerJoin(songs, eq(songs.id, songCredits.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .leftJoin(users, eq(users.id, songCredits.invitedBy))
    .where(
      and(
        sql`lower(${songCredits.email}) = ${normalizeEmail(user.email)}`,
        eq(songCredits.status, "pending"),
        sql`${songCredits.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(sql`${songCredits.createdAt} desc`)
    .limit(50);
  return rows.map((row) => {
    const url = new URL(signedUrl(creditInvitePath(row.role, row.id), Math.max(1, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000))));
    return {
      id: row.id,
      role: row.role,
      songTitle: row.songTitle,
      artistName: row.artistName,
      inviterName: row.inviterName === null ? null : fullName({ name: row.inviterName, lastName: row.inviterLastName ?? "" }),
      href: `${url.pathname}${url.search}`,
    };
  });
}

/** Withdraws an invitation or a credit of the song; its link stops working. */
export async function revokeCredit(songId: number, creditId: string): Promise<SongCredit> {
  if (!isUuid(creditId)) throw new CreditError(404, MISSING_CREDIT);
  const [revoked] = await db()
    .update(songCredits)
    .set({ status: "revoked", updatedAt: new Date() })
    .where(and(eq(songCredits.id, creditId), eq(songCredits.songId, songId), inArray(songCredits.status, ["pending", "accepted"])))
    .returning();
  if (!revoked) throw new CreditError(404, MISSING_CREDIT);
  return revoked;
}

export interface CreditInviteView {
  id: string;
  role: CreditRole;
  email: string;
  state: CreditState;
  songTitle: string;
  artistName: string;
  inviterName: string | null;
  accountExists: boolean;
}

/** What an invitation page shows. One statement. */
export async function loadCreditInvite(id: string, role: CreditRole): Promise<CreditInviteView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db()
    .select({
      credit: songCredits,
      songTitle: songs.title,
      artistName: profiles.name,
      inviterName: users.name,
      inviterLastName: users.lastName,
      accountExists: sql<boolean>`exists (select 1 from ${users} u where lower(u.email) = lower(${songCredits.email}))`,
    })
    .from(songCredits)
    .innerJoin(songs, eq(songs.id, songCredits.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .leftJoin(users, eq(users.id, songCredits.invitedBy))
    .where(and(eq(songCredits.id, id), eq(songCredits.role, role)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.credit.id,
    role: row.credit.role,
    email: row.credit.email,
    state: creditState(row.credit),
    songTitle: row.songTitle,
    artistName: row.artistName,
    inviterName: row.inviterName === null ? null : fullName({ name: row.inviterName, lastName: row.inviterLastName ?? "" }),
    accountExists: Boolean(row.accountExists),
  };
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

/** Inside a transaction: the invitation, still pending and addressed to `email`, is answered. */
async function answerIn(tx: Tx, id: string, role: CreditRole, user: { id: number; email: string } | null, answer: "accepted" | "declined") {
  if (!isUuid(id)) throw new CreditError(404, MISSING_CREDIT);
  const [credit] = await tx
    .select()
    .from(songCredits)
    .where(and(eq(songCredits.id, id), eq(songCredits.role, role)))
    .for("update");
  if (!credit) throw new CreditError(404, MISSING_CREDIT);
  const state = creditState(credit);
  if (state !== "pending") throw new CreditError(410, CREDIT_STATE_MESSAGES[state]);
  if (user && normalizeEmail(credit.email) !== normalizeEmail(user.email)) {
    throw new CreditError(403, `This invitation was sent to ${credit.email}. Log in with that address to answer it.`);
  }
  const now = new Date();
  const [answered] = await tx
    .update(songCredits)
    .set(
      answer === "accepted"
        ? { status: "accepted", userId: user!.id, respondedAt: now, verifiedAt: now, updatedAt: now }
        : { status: "declined", respondedAt: now, updatedAt: now },
    )
    .where(eq(songCredits.id, credit.id))
    .returning();
  return answered!;
}

/** Tells the song's owner how the invitation was answered. */
async function notifyOwner(credit: SongCredit, answer: "accepted" | "declined", who: string) {
  const [song] = await db()
    .select({ id: songs.id, title: songs.title, ownerId: profiles.ownerId })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(eq(songs.id, credit.songId));
  if (!song) return;
  await notifyMember(song.ownerId, {
    type: answer === "accepted" ? "SongCreditAccepted" : "SongCreditDeclined",
    message: `${who} ${answer} the ${CREDIT_ROLE_LABELS[credit.role].toLowerCase()} credit on “${song.title}”.`,
    color: answer === "accepted" ? "green" : "orange",
    routeName: "member-song-profile",
    resourceId: song.id,
    routeHash: "credits",
  });
}

export async function acceptCredit(id: string, role: CreditRole, user: Pick<User, "id" | "email" | "name" | "lastName">): Promise<SongCredit> {
  const credit = await db().transaction((tx) => answerIn(tx, id, role, user, "accepted"));
  await notifyOwner(credit, "accepted", fullName(user));
  return credit;
}

/** Declining needs the signed link only (the invitee may have no account); a logged-in member must be the addressee. */
export async function declineCredit(id: string, role: CreditRole, user: Pick<User, "id" | "email"> | null): Promise<SongCredit> {
  const credit = await db().transaction((tx) => answerIn(tx, id, role, user, "declined"));
  await notifyOwner(credit, "declined", credit.email);
  return credit;
}

/**
 * Creates the invitee's account from the invitation and accepts it, in one transaction: the signed link
 * reached the invited mailbox, so the address counts as verified. Ticking the box agreed to the required
 * documents, which are signed right after.
 */
export async function createAccountFromCredit(input: {
  id: string;
  role: CreditRole;
  name: string;
  lastName: string;
  password: string;
  ip: string;
  userAgent: string;
}) {
  if (!isUuid(input.id)) throw new CreditError(404, MISSING_CREDIT);
  const passwordHash = await hashPassword(input.password);
  let result: { user: User; credit: SongCredit };
  try {
    result = await db().transaction(async (tx) => {
      const [credit] = await tx.select({ email: songCredits.email }).from(songCredits).where(eq(songCredits.id, input.id));
      if (!credit) throw new CreditError(404, MISSING_CREDIT);
      if (await findUserByEmail(credit.email, tx)) throw new EmailTakenError();
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          name: input.name,
          lastName: input.lastName,
          email: credit.email.trim(),
          passwordHash,
          acctType: ACCT_MEMBER,
          roleId: 5,
          emailVerifiedAt: now,
          activatedAt: now,
        })
        .returning();
      const accepted = await answerIn(tx, input.id, input.role, user!, "accepted");
      return { user: user!, credit: accepted };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  const pending = await pendingDocumentsFor(result.user.id);
  await signDocuments({ userId: result.user.id, documentIds: pending.map((d) => d.id), ip: input.ip, userAgent: input.userAgent });
  await notifyOwner(result.credit, "accepted", fullName(result.user));
  return result;
}
