import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { artistMembers, bandInvites, profiles, users, type BandRole, type Profile, type User } from "~/db/schema";
import { env } from "~/env.server";
import { normalizeEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { describeWait, hitRateLimit } from "~/modules/security/rate-limit.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { profileRights } from "./profile-access.server";
import { profileRouteNames } from "./profile-types";

/**
 * Band members of artist pages: the owner (and administrators, and members with editing rights)
 * invite people by email; the signed link /band-invite/{id} lets the invitee join. Every rule is checked
 * here, whatever the page shows; an id from the request that is not this artist's answers 404.
 */

export interface BandData {
  members: Array<{ userId: number; name: string; lastName: string; email: string; role: BandRole; canEdit: boolean; joinedAt: string }>;
  invites: Array<{ id: string; email: string; canEdit: boolean; createdAt: string; expiresAt: string }>;
}

/** How long an invitation (and its signed link) stays usable. */
export const INVITE_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Invitations per artist page and day: enough for any real band, too few to spam through the form. */
export const INVITES_PER_ARTIST_PER_DAY = 20;
const INVITE_LIMIT_WINDOW_SECONDS = 24 * 60 * 60;

/** A refused band action: `status` is what the page answers; `field` puts the message beside that field. */
export class BandError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 410 | 429,
    message: string,
    readonly field?: "email",
  ) {
    super(message);
    this.name = "BandError";
  }
}

type Actor = Pick<User, "id" | "acctType" | "name" | "lastName">;
type Artist = Pick<Profile, "id" | "type" | "ownerId" | "name">;

const notFound = () => new BandError(404, "There is no such band member or invitation.");

/** The band of an artist page: its members (owner first) and its pending invitations. Two queries. */
export async function loadBand(artistId: number): Promise<BandData> {
  const [memberRows, inviteRows] = await Promise.all([
    db()
      .select({
        userId: artistMembers.userId,
        name: users.name,
        lastName: users.lastName,
        email: users.email,
        role: artistMembers.role,
        canEdit: artistMembers.canEdit,
        joinedAt: artistMembers.joinedAt,
      })
      .from(artistMembers)
      .innerJoin(users, eq(users.id, artistMembers.userId))
      .where(eq(artistMembers.artistId, artistId))
      // The owner leads the list, then everyone in the order they joined.
      .orderBy(sql`case when ${artistMembers.role} = 'owner' then 0 else 1 end`, asc(artistMembers.joinedAt), asc(artistMembers.userId)),
    db()
      .select({
        id: bandInvites.id,
        email: bandInvites.email,
        canEdit: bandInvites.canEdit,
        createdAt: bandInvites.createdAt,
        expiresAt: bandInvites.expiresAt,
      })
      .from(bandInvites)
      .where(and(eq(bandInvites.artistId, artistId), pendingInvite()))
      .orderBy(asc(bandInvites.createdAt), asc(bandInvites.id)),
  ]);
  return {
    members: memberRows.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
    invites: inviteRows.map((i) => ({ ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() })),
  };
}

/** Not accepted, not revoked, not expired. */
function pendingInvite() {
  return and(isNull(bandInvites.acceptedAt), isNull(bandInvites.revokedAt), gt(bandInvites.expiresAt, sql`now()`));
}

function requireArtist(artist: Artist) {
  if (artist.type !== "artist") throw new BandError(404, "Only artist pages have band members.");
}

/** Owner or administrator: the only ones who manage who is in the band. */
async function requireManager(actor: Actor, artist: Artist, refusal: string) {
  requireArtist(artist);
  const rights = await profileRights(actor, artist);
  if (rights !== "owner" && rights !== "admin") throw new BandError(403, refusal);
}

/** Locks the artist row for the rest of the transaction, so band changes to one artist happen one at a time. */
async function lockArtist(tx: Db, artistId: number) {
  const [row] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, artistId)).for("update");
  if (!row) throw new BandError(404, "This artist page no longer exists.");
}

// ---------------------------------------------------------------- invitations

export type BandInvite = typeof bandInvites.$inferSelect;

/**
 * Invites `email` to the band and mails the signed link. The owner, an administrator or a member with
 * editing rights may invite; an address already in the band or already invited is refused beside the field.
 */
export async function inviteBandMember(actor: Actor, artist: Artist, input: { email: string; canEdit: boolean }): Promise<{ invite: BandInvite; url: string }> {
  requireArtist(artist);
  if (!(await profileRights(actor, artist))) {
    throw new BandError(403, "Only the owner, an administrator or a band member with editing rights may invite new members.");
  }
  const email = input.email.trim();
  await refuseDuplicate(db(), artist, email);
  // Counted only when a message would really go out, so typing mistakes do not use up the allowance.
  const limit = await hitRateLimit(`band-invite:artist:${artist.id}`, INVITES_PER_ARTIST_PER_DAY, INVITE_LIMIT_WINDOW_SECONDS);
  if (!limit.allowed) {
    throw new BandError(429, `Too many invitations were sent for ${artist.name} today. Please try again in ${describeWait(limit.retryAfterSeconds)}.`);
  }
  const invite = await db().transaction(async (tx) => {
    // Checked again under the artist's lock: two forms sent at once must not both invite the same address.
    await lockArtist(tx, artist.id);
    await refuseDuplicate(tx, artist, email);
    const [created] = await tx
      .insert(bandInvites)
      .values({ artistId: artist.id, email, canEdit: input.canEdit, invitedBy: actor.id, expiresAt: new Date(Date.now() + INVITE_TTL_SECONDS * 1000) })
      .returning();
    return created!;
  });
  const url = signedUrl(`/band-invite/${invite.id}`, INVITE_TTL_SECONDS);
  try {
    await sendMail(inviteMail({ to: email, inviter: fullName(actor), artistName: artist.name, canEdit: input.canEdit, url }));
  } catch (error) {
    // Nobody received the link: drop the invitation so the form can simply be sent again.
    await db().delete(bandInvites).where(eq(bandInvites.id, invite.id));
    throw error;
  }
  return { invite, url };
}

/** An address already in the band, or already invited and not yet answered, is refused beside the field. */
async function refuseDuplicate(q: Db, artist: Artist, email: string) {
  const lower = normalizeEmail(email);
  const [member] = await q
    .select({ userId: artistMembers.userId })
    .from(artistMembers)
    .innerJoin(users, eq(users.id, artistMembers.userId))
    .where(and(eq(artistMembers.artistId, artist.id), sql`lower(${users.email}) = ${lower}`))
    .limit(1);
  if (member) throw new BandError(409, `${email} is already a member of ${artist.name}.`, "email");
  const [pending] = await q
    .select({ id: bandInvites.id })
    .from(bandInvites)
    .where(and(eq(bandInvites.artistId, artist.id), sql`lower(${bandInvites.email}) = ${lower}`, pendingInvite()))
    .limit(1);
  if (pending) throw new BandError(409, `${email} already has a pending invitation. Revoke it first to send a new one.`, "email");
}

function inviteMail(input: { to: string; inviter: string; artistName: string; canEdit: boolean; url: string }) {
  const app = env().APP_NAME;
  return actionMail({
    to: input.to,
    subject: `${input.inviter} invited you to join ${input.artistName} on ${app}`,
    greetingName: "there",
    intro:
      `${input.inviter} invited you to join the band ${input.artistName} on ${app}` +
      (input.canEdit ? ", with the right to edit its artist page." : ".") +
      " If you have no account yet, you can create one from the link.",
    actionLabel: "See the invitation",
    actionUrl: input.url,
    outro: `The link works for 7 days. If you do not know ${input.inviter} or ${input.artistName}, you can ignore this message.`,
  });
}

/** Withdraws a pending invitation (owner or administrator); its link stops working. */
export async function revokeInvite(actor: Actor, artist: Artist, inviteId: string): Promise<BandInvite> {
  await requireManager(actor, artist, "Only the owner or an administrator may revoke invitations.");
  if (!isUuid(inviteId)) throw notFound();
  const [invite] = await db()
    .select()
    .from(bandInvites)
    .where(and(eq(bandInvites.id, inviteId), eq(bandInvites.artistId, artist.id)))
    .limit(1);
  if (!invite) throw notFound();
  const [revoked] = await db()
    .update(bandInvites)
    .set({ revokedAt: new Date() })
    .where(and(eq(bandInvites.id, invite.id), pendingInvite()))
    .returning();
  if (!revoked) throw new BandError(409, `The invitation to ${invite.email} is no longer pending.`);
  return revoked;
}

// ---------------------------------------------------------------- members

async function findMember(tx: Db, artistId: number, userId: number) {
  const [member] = await tx
    .select({ userId: artistMembers.userId, role: artistMembers.role, canEdit: artistMembers.canEdit, name: users.name, lastName: users.lastName })
    .from(artistMembers)
    .innerJoin(users, eq(users.id, artistMembers.userId))
    .where(and(eq(artistMembers.artistId, artistId), eq(artistMembers.userId, userId)))
    .limit(1);
  return member;
}

/** Removes a member from the band (owner or administrator). The owner can never be removed. */
export async function removeBandMember(actor: Actor, artist: Artist, userId: number): Promise<{ name: string }> {
  await requireManager(actor, artist, "Only the owner or an administrator may remove band members.");
  const member = await findMember(db(), artist.id, userId);
  if (!member) throw notFound();
  if (member.role === "owner") throw new BandError(403, "The owner of an artist page cannot be removed from its band.");
  const removed = await db()
    .delete(artistMembers)
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, userId), eq(artistMembers.role, "member")))
    .returning({ userId: artistMembers.userId });
  if (!removed.length) throw notFound();
  await notifyMember(userId, {
    type: "BandMemberRemoved",
    message: `You are no longer a member of ${artist.name}.`,
    color: "orange",
  });
  return { name: fullName(member) };
}

/** Grants or withdraws a member's right to edit the artist page (owner or administrator). */
export async function setMemberRights(actor: Actor, artist: Artist, userId: number, canEdit: boolean): Promise<{ name: string }> {
  await requireManager(actor, artist, "Only the owner or an administrator may change editing rights.");
  const member = await findMember(db(), artist.id, userId);
  if (!member) throw notFound();
  if (member.role === "owner") throw new BandError(403, "The owner always may edit the artist page.");
  await db()
    .update(artistMembers)
    .set({ canEdit })
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, userId)));
  return { name: fullName(member) };
}

/** A member leaves the band of their own accord; the owner cannot (they own the page). */
export async function leaveBand(actor: Actor, artist: Artist): Promise<void> {
  requireArtist(artist);
  const member = await findMember(db(), artist.id, actor.id);
  if (!member) throw notFound();
  if (member.role === "owner") throw new BandError(403, "The owner cannot leave the band of their own artist page.");
  await db()
    .delete(artistMembers)
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, actor.id)));
  await notifyMember(artist.ownerId, {
    type: "BandMemberLeft",
    message: `${fullName(actor)} left ${artist.name}.`,
    color: "orange",
    routeName: profileRouteNames("artist").memberOwnerPage,
    resourceId: artist.id,
  });
}

// ---------------------------------------------------------------- accepting

export type InviteState = "pending" | "accepted" | "revoked" | "expired";

export function inviteState(invite: Pick<BandInvite, "acceptedAt" | "revokedAt" | "expiresAt">, now = new Date()): InviteState {
  if (invite.acceptedAt) return "accepted";
  if (invite.revokedAt) return "revoked";
  if (invite.expiresAt <= now) return "expired";
  return "pending";
}

/** What the invitee is told when the invitation cannot be used any more. */
export const INVITE_STATE_MESSAGES: Record<Exclude<InviteState, "pending">, string> = {
  accepted: "This invitation has already been accepted.",
  revoked: "This invitation was withdrawn by the band.",
  expired: "This invitation has expired. Ask the band to send you a new one.",
};
export const MISSING_INVITE = "This invitation does not exist or was removed.";

export function mismatchMessage(email: string): string {
  return `This invitation was sent to ${email}. Log in with that address to accept it.`;
}

export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * Inside a transaction: locks the invitation, checks it is still pending and addressed to `email`, adds
 * `userId` to the band (role member, rights from the invitation) and marks the invitation accepted.
 */
export async function acceptInviteIn(
  tx: Db,
  inviteId: string,
  user: { id: number; email: string },
): Promise<{ artist: Pick<Profile, "id" | "name" | "username" | "ownerId">; invite: BandInvite }> {
  if (!isUuid(inviteId)) throw new BandError(404, MISSING_INVITE);
  const [invite] = await tx.select().from(bandInvites).where(eq(bandInvites.id, inviteId)).for("update");
  if (!invite) throw new BandError(404, MISSING_INVITE);
  const state = inviteState(invite);
  if (state !== "pending") throw new BandError(410, INVITE_STATE_MESSAGES[state]);
  if (normalizeEmail(invite.email) !== normalizeEmail(user.email)) throw new BandError(403, mismatchMessage(invite.email));
  const [artist] = await tx
    .select({ id: profiles.id, name: profiles.name, username: profiles.username, ownerId: profiles.ownerId })
    .from(profiles)
    .where(eq(profiles.id, invite.artistId));
  if (!artist) throw new BandError(404, MISSING_INVITE);
  // Someone already in the band (e.g. invited twice under an old address) keeps their place and rights.
  await tx.insert(artistMembers).values({ artistId: artist.id, userId: user.id, role: "member", canEdit: invite.canEdit }).onConflictDoNothing();
  const [accepted] = await tx.update(bandInvites).set({ acceptedAt: new Date(), acceptedBy: user.id }).where(eq(bandInvites.id, invite.id)).returning();
  return { artist, invite: accepted! };
}

/** Tells the owner that someone joined (after the transaction committed). */
export async function notifyInviteAccepted(artist: Pick<Profile, "id" | "name" | "ownerId">, member: Pick<User, "name" | "lastName">) {
  await notifyMember(artist.ownerId, {
    type: "BandInviteAccepted",
    message: `${fullName(member)} accepted your invitation and joined ${artist.name}.`,
    color: "green",
    routeName: profileRouteNames("artist").memberOwnerPage,
    resourceId: artist.id,
  });
}

/** The logged-in `user` accepts the invitation sent to their address; the owner is notified. */
export async function acceptInvite(inviteId: string, user: Pick<User, "id" | "email" | "name" | "lastName">) {
  const result = await db().transaction((tx) => acceptInviteIn(tx, inviteId, user));
  await notifyInviteAccepted(result.artist, user);
  return result;
}
