import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { bandInvites, profiles, users, type User } from "~/db/schema";
import { isUniqueViolation } from "~/db/errors";
import { ACCT_MEMBER, EmailTakenError, findUserByEmail } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { hashPassword } from "~/modules/accounts/password.server";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { acceptInviteIn, BandError, inviteState, isUuid, notifyInviteAccepted, type InviteState } from "./band.server";

/** What /band-invite/{id} shows about an invitation. */
export interface InviteView {
  id: string;
  email: string;
  canEdit: boolean;
  state: InviteState;
  artistId: number;
  artistName: string;
  /** The inviter's full name; null when their account was deleted meanwhile. */
  inviterName: string | null;
  /** Whether an account with the invited address exists (log in) or not (create one here). */
  accountExists: boolean;
}

/** The invitation with its artist, its inviter and whether the address has an account. One query. */
export async function loadInviteView(inviteId: string): Promise<InviteView | null> {
  if (!isUuid(inviteId)) return null;
  const inviter = alias(users, "inviter");
  const [row] = await db()
    .select({
      invite: bandInvites,
      artistName: profiles.name,
      inviterName: inviter.name,
      inviterLastName: inviter.lastName,
      accountExists: sql<boolean>`exists (select 1 from ${users} where lower(${users.email}) = lower(${bandInvites.email}))`,
    })
    .from(bandInvites)
    .innerJoin(profiles, eq(profiles.id, bandInvites.artistId))
    .leftJoin(inviter, eq(inviter.id, bandInvites.invitedBy))
    .where(eq(bandInvites.id, inviteId))
    .limit(1);
  if (!row) return null;
  return {
    id: row.invite.id,
    email: row.invite.email,
    canEdit: row.invite.canEdit,
    state: inviteState(row.invite),
    artistId: row.invite.artistId,
    artistName: row.artistName,
    inviterName: row.inviterName === null ? null : fullName({ name: row.inviterName, lastName: row.inviterLastName ?? "" }),
    accountExists: Boolean(row.accountExists),
  };
}

/**
 * Creates the invitee's account from the invitation and accepts it, in one transaction: the signed link
 * reached the invited mailbox, so the address counts as verified and the account is active at once.
 * Ticking the box agreed to the required documents, which are signed right after. The owner is notified.
 */
export async function createAccountFromInvite(input: {
  inviteId: string;
  name: string;
  lastName: string;
  password: string;
  ip: string;
  userAgent: string;
}): Promise<{ user: User; artistId: number; artistName: string; artistUsername: string; canEdit: boolean }> {
  if (!isUuid(input.inviteId)) throw new BandError(404, "This invitation does not exist or was removed.");
  const passwordHash = await hashPassword(input.password);
  let result: { user: User; artist: { id: number; name: string; username: string; ownerId: number }; canEdit: boolean };
  try {
    result = await db().transaction(async (tx) => {
      const [invite] = await tx.select({ email: bandInvites.email }).from(bandInvites).where(eq(bandInvites.id, input.inviteId));
      if (!invite) throw new BandError(404, "This invitation does not exist or was removed.");
      if (await findUserByEmail(invite.email, tx)) throw new EmailTakenError();
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          name: input.name,
          lastName: input.lastName,
          email: invite.email.trim(),
          passwordHash,
          acctType: ACCT_MEMBER,
          roleId: 5,
          emailVerifiedAt: now,
          activatedAt: now,
        })
        .returning();
      const accepted = await acceptInviteIn(tx, input.inviteId, user!);
      return { user: user!, artist: accepted.artist, canEdit: accepted.invite.canEdit };
    });
  } catch (error) {
    // The same address registered a moment ago (unique lower(email)).
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  const pending = await pendingDocumentsFor(result.user.id);
  await signDocuments({ userId: result.user.id, documentIds: pending.map((d) => d.id), ip: input.ip, userAgent: input.userAgent });
  await notifyInviteAccepted(result.artist, result.user);
  return {
    user: result.user,
    artistId: result.artist.id,
    artistName: result.artist.name,
    artistUsername: result.artist.username,
    canEdit: result.canEdit,
  };
}
