import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { artistMembers, bandInvites, legalDocuments, notifications, profiles, signatures, users, type Profile, type User } from "~/db/schema";
import { EmailTakenError, findUserByEmail } from "~/modules/accounts/accounts.server";
import { verifyPassword } from "~/modules/accounts/password.server";
import { hitRateLimit } from "~/modules/security/rate-limit.server";
import { hasValidSignature } from "~/modules/security/signed-url.server";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import { createAccountFromInvite, loadInviteView } from "./band-invite.server";
import {
  acceptInvite,
  BandError,
  INVITES_PER_ARTIST_PER_DAY,
  inviteBandMember,
  leaveBand,
  loadBand,
  removeBandMember,
  revokeInvite,
  setMemberRights,
} from "./band.server";

useTestDatabase();
const smtp = useSmtpListener();

let counter = 0;

/** An artist page owned by `owner`, with the owner's band row (as artist creation makes it). */
async function createArtist(owner: User, name = "The Test Band"): Promise<Profile> {
  counter += 1;
  const [artist] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: owner.id, name, username: `band-${counter}-${Date.now()}`, status: "published" })
    .returning();
  await db().insert(artistMembers).values({ artistId: artist!.id, userId: owner.id, role: "owner", canEdit: true });
  return artist!;
}

async function addMember(artist: Profile, user: User, canEdit = false) {
  await db().insert(artistMembers).values({ artistId: artist.id, userId: user.id, role: "member", canEdit });
}

async function bandWith() {
  const owner = await createUser({ name: "Olive", lastName: "Owner" });
  const artist = await createArtist(owner);
  return { owner, artist };
}

async function memberRow(artist: Profile, userId: number) {
  const [row] = await db()
    .select()
    .from(artistMembers)
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, userId)));
  return row;
}

async function notificationsOf(userId: number) {
  return db().select().from(notifications).where(eq(notifications.userId, userId));
}

async function refusal(promise: Promise<unknown>): Promise<BandError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BandError);
  return error as BandError;
}

/** A pending invitation to `email`, sent by the owner (the mail is taken from the listener). */
async function invite(owner: User, artist: Profile, email: string, canEdit = false) {
  const sent = await inviteBandMember(owner, artist, { email, canEdit });
  await smtp.next(email);
  return sent;
}

describe("loadBand", () => {
  it("lists the owner first, then members, and only pending invitations, in two queries", async () => {
    const { owner, artist } = await bandWith();
    const early = await createUser({ name: "Ezra", lastName: "Early" });
    await addMember(artist, early, true);
    await db()
      .update(artistMembers)
      .set({ joinedAt: new Date("2020-01-01") })
      .where(eq(artistMembers.userId, early.id));
    const pending = await invite(owner, artist, uniqueEmail("pending"), true);
    const revoked = await invite(owner, artist, uniqueEmail("revoked"));
    await revokeInvite(owner, artist, revoked.invite.id);
    const expired = await invite(owner, artist, uniqueEmail("expired"));
    await db()
      .update(bandInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(bandInvites.id, expired.invite.id));

    const { result: band, count } = await countQueries(() => loadBand(artist.id));
    expect(count).toBeLessThanOrEqual(2);
    expect(band.members.map((m) => [m.userId, m.role, m.canEdit])).toEqual([
      [owner.id, "owner", true],
      [early.id, "member", true],
    ]);
    expect(band.members[0]).toMatchObject({ name: "Olive", lastName: "Owner", email: owner.email });
    expect(band.invites.map((i) => i.id)).toEqual([pending.invite.id]);
    expect(band.invites[0]).toMatchObject({ email: pending.invite.email, canEdit: true });
    expect(Date.parse(band.invites[0]!.expiresAt) - Date.parse(band.invites[0]!.createdAt)).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
  });
});

describe("inviteBandMember", () => {
  it("stores a pending invitation for 7 days and mails a signed link naming the artist and the inviter", async () => {
    const { owner, artist } = await bandWith();
    const email = uniqueEmail("invitee");
    const { invite: created, url } = await inviteBandMember(owner, artist, { email: `  ${email} `, canEdit: true });
    expect(created).toMatchObject({ artistId: artist.id, email, canEdit: true, invitedBy: owner.id, acceptedAt: null, revokedAt: null });
    const mail = await smtp.next(email);
    expect(mail.subject).toBe("Olive Owner invited you to join The Test Band on Backline");
    expect(mail.text).toContain("Olive Owner invited you to join the band The Test Band");
    expect(mail.text).toContain("with the right to edit its artist page");
    expect(mail.links).toEqual([url]);
    expect(new URL(url).pathname).toBe(`/band-invite/${created.id}`);
    expect(hasValidSignature(url)).toBe(true);
  });

  it("refuses an address already in the band or already invited, whatever its case, beside the email field", async () => {
    const { owner, artist } = await bandWith();
    const member = await createUser();
    await addMember(artist, member);
    const inBand = await refusal(inviteBandMember(owner, artist, { email: member.email.toUpperCase(), canEdit: false }));
    expect(inBand).toMatchObject({ status: 409, field: "email" });
    expect(inBand.message).toMatch(/already a member of The Test Band/);
    const ownerAgain = await refusal(inviteBandMember(owner, artist, { email: owner.email, canEdit: false }));
    expect(ownerAgain.field).toBe("email");

    const email = uniqueEmail("twice");
    const first = await invite(owner, artist, email);
    const twice = await refusal(inviteBandMember(owner, artist, { email: email.toUpperCase(), canEdit: false }));
    expect(twice).toMatchObject({ status: 409, field: "email" });
    expect(twice.message).toMatch(/already has a pending invitation/);
    // Once revoked (or expired), the address may be invited again.
    await revokeInvite(owner, artist, first.invite.id);
    const again = await invite(owner, artist, email);
    expect(again.invite.id).not.toBe(first.invite.id);
  });

  it("lets the owner, an administrator and a member with editing rights invite; nobody else", async () => {
    const { owner, artist } = await bandWith();
    const editor = await createUser();
    await addMember(artist, editor, true);
    const plain = await createUser();
    await addMember(artist, plain, false);
    const admin = await createUser({ acctType: 2, roleId: 2 });
    const stranger = await createUser();

    await invite(editor, artist, uniqueEmail("by-editor"));
    await invite(admin, artist, uniqueEmail("by-admin"));
    await invite(owner, artist, uniqueEmail("by-owner"));
    for (const actor of [plain, stranger]) {
      const email = uniqueEmail("refused");
      expect((await refusal(inviteBandMember(actor, artist, { email, canEdit: false }))).status).toBe(403);
    }
    expect((await loadBand(artist.id)).invites).toHaveLength(3);
  });

  it("only artist pages have bands", async () => {
    const owner = await createUser();
    const [musician] = await db()
      .insert(profiles)
      .values({ type: "musician", ownerId: owner.id, name: "Solo", username: `solo-${Date.now()}` })
      .returning();
    expect((await refusal(inviteBandMember(owner, musician!, { email: uniqueEmail(), canEdit: false }))).status).toBe(404);
  });

  it("stops after the daily allowance of invitations for one artist, without storing or mailing anything", async () => {
    const { owner, artist } = await bandWith();
    for (let i = 0; i < INVITES_PER_ARTIST_PER_DAY; i++) await hitRateLimit(`band-invite:artist:${artist.id}`, INVITES_PER_ARTIST_PER_DAY, 86_400);
    const error = await refusal(inviteBandMember(owner, artist, { email: uniqueEmail("spam"), canEdit: false }));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/Too many invitations were sent for The Test Band today/);
    expect((await loadBand(artist.id)).invites).toHaveLength(0);
    // Another artist is not affected.
    const other = await bandWith();
    await invite(other.owner, other.artist, uniqueEmail("other"));
  });
});

describe("revokeInvite", () => {
  it("revokes a pending invitation of this artist only, for the owner or an administrator", async () => {
    const { owner, artist } = await bandWith();
    const editor = await createUser();
    await addMember(artist, editor, true);
    const sent = await invite(owner, artist, uniqueEmail("revoke"));
    const foreign = await bandWith();
    const foreignInvite = await invite(foreign.owner, foreign.artist, uniqueEmail("foreign"));

    expect((await refusal(revokeInvite(editor, artist, sent.invite.id))).status).toBe(403);
    expect((await refusal(revokeInvite(owner, artist, foreignInvite.invite.id))).status).toBe(404);
    expect((await refusal(revokeInvite(owner, artist, "not-a-uuid"))).status).toBe(404);

    const revoked = await revokeInvite(owner, artist, sent.invite.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect((await refusal(revokeInvite(owner, artist, sent.invite.id))).status).toBe(409);
    const admin = await createUser({ acctType: 2, roleId: 2 });
    await revokeInvite(admin, foreign.artist, foreignInvite.invite.id);
  });
});

describe("removeBandMember and setMemberRights", () => {
  it("the owner removes a member, who is told; never the owner; only members of this artist", async () => {
    const { owner, artist } = await bandWith();
    const member = await createUser();
    await addMember(artist, member);
    const editor = await createUser();
    await addMember(artist, editor, true);
    const foreign = await bandWith();
    const foreignMember = await createUser();
    await addMember(foreign.artist, foreignMember);

    expect((await refusal(removeBandMember(editor, artist, member.id))).status).toBe(403);
    expect((await refusal(removeBandMember(owner, artist, owner.id))).status).toBe(403);
    expect((await refusal(removeBandMember(owner, artist, foreignMember.id))).status).toBe(404);

    expect(await removeBandMember(owner, artist, member.id)).toEqual({ name: "Test User" });
    expect(await memberRow(artist, member.id)).toBeUndefined();
    expect(await memberRow(foreign.artist, foreignMember.id)).toBeDefined();
    const [notice] = await notificationsOf(member.id);
    expect(notice?.data.message).toBe("You are no longer a member of The Test Band.");

    const admin = await createUser({ acctType: 2, roleId: 2 });
    await removeBandMember(admin, artist, editor.id);
    expect(await memberRow(artist, editor.id)).toBeUndefined();
  });

  it("grants and withdraws editing rights, which decide whether the member may invite", async () => {
    const { owner, artist } = await bandWith();
    const member = await createUser();
    await addMember(artist, member);
    const editor = await createUser();
    await addMember(artist, editor, true);
    const foreign = await bandWith();

    expect((await refusal(setMemberRights(editor, artist, member.id, true))).status).toBe(403);
    expect((await refusal(setMemberRights(owner, artist, owner.id, false))).status).toBe(403);
    expect((await refusal(setMemberRights(owner, artist, foreign.owner.id, true))).status).toBe(404);

    await setMemberRights(owner, artist, member.id, true);
    expect((await memberRow(artist, member.id))?.canEdit).toBe(true);
    await invite(member, artist, uniqueEmail("now-allowed"));
    await setMemberRights(owner, artist, member.id, false);
    expect((await memberRow(artist, member.id))?.canEdit).toBe(false);
    expect((await refusal(inviteBandMember(member, artist, { email: uniqueEmail(), canEdit: false }))).status).toBe(403);
  });
});

describe("leaveBand", () => {
  it("a member leaves and the owner is told; the owner cannot leave; a stranger gets 404", async () => {
    const { owner, artist } = await bandWith();
    const member = await createUser({ name: "Lea", lastName: "Leaver" });
    await addMember(artist, member);
    await leaveBand(member, artist);
    expect(await memberRow(artist, member.id)).toBeUndefined();
    const [notice] = await notificationsOf(owner.id);
    expect(notice?.data).toMatchObject({ message: "Lea Leaver left The Test Band.", route_name: "member-artist-profile", resource_id: artist.id });
    expect((await refusal(leaveBand(owner, artist))).status).toBe(403);
    expect((await refusal(leaveBand(member, artist))).status).toBe(404);
  });
});

describe("acceptInvite", () => {
  it("adds the invited account with the invitation's rights, marks it accepted and tells the owner", async () => {
    const { owner, artist } = await bandWith();
    const invitee = await createUser({ name: "Ivy", lastName: "Invitee" });
    const sent = await invite(owner, artist, invitee.email, true);

    // The addresses are compared case-insensitively.
    const { artist: joined } = await acceptInvite(sent.invite.id, { ...invitee, email: invitee.email.toUpperCase() });
    expect(joined.id).toBe(artist.id);
    expect(await memberRow(artist, invitee.id)).toMatchObject({ role: "member", canEdit: true });
    const [row] = await db().select().from(bandInvites).where(eq(bandInvites.id, sent.invite.id));
    expect(row).toMatchObject({ acceptedBy: invitee.id });
    expect(row!.acceptedAt).toBeInstanceOf(Date);
    const [notice] = await notificationsOf(owner.id);
    expect(notice?.type).toBe("BandInviteAccepted");
    expect(notice?.data).toMatchObject({
      message: "Ivy Invitee accepted your invitation and joined The Test Band.",
      route_name: "member-artist-profile",
      resource_id: artist.id,
    });
    expect((await loadBand(artist.id)).invites).toHaveLength(0);

    const again = await refusal(acceptInvite(sent.invite.id, invitee));
    expect(again).toMatchObject({ status: 410, message: "This invitation has already been accepted." });
  });

  it("refuses another account, a revoked, an expired or an unknown invitation, each with its own message", async () => {
    const { owner, artist } = await bandWith();
    const invitee = await createUser();
    const someoneElse = await createUser();
    const sent = await invite(owner, artist, invitee.email);

    const mismatch = await refusal(acceptInvite(sent.invite.id, someoneElse));
    expect(mismatch).toMatchObject({ status: 403, message: `This invitation was sent to ${invitee.email}. Log in with that address to accept it.` });
    expect(await memberRow(artist, someoneElse.id)).toBeUndefined();

    await db()
      .update(bandInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(bandInvites.id, sent.invite.id));
    expect((await refusal(acceptInvite(sent.invite.id, invitee))).message).toBe("This invitation has expired. Ask the band to send you a new one.");

    const second = await invite(owner, artist, invitee.email);
    await revokeInvite(owner, artist, second.invite.id);
    expect((await refusal(acceptInvite(second.invite.id, invitee))).message).toBe("This invitation was withdrawn by the band.");

    expect((await refusal(acceptInvite("3f0c1d2e-0000-4000-8000-000000000000", invitee))).status).toBe(404);
    expect((await refusal(acceptInvite("nope", invitee))).status).toBe(404);
    expect(await memberRow(artist, invitee.id)).toBeUndefined();
  });
});

describe("accepting with a new account", () => {
  it("creates a verified, active account that signed the required documents, and joins the band", async () => {
    const [terms] = await db()
      .insert(legalDocuments)
      .values({ name: "Band Terms", slug: `band-terms-${Date.now()}`, content: "<p>Terms</p>", published: true, required: true })
      .returning();
    const { owner, artist } = await bandWith();
    const email = uniqueEmail("newcomer");
    const sent = await invite(owner, artist, email);
    const before = await loadInviteView(sent.invite.id);
    expect(before).toMatchObject({ state: "pending", accountExists: false, artistName: "The Test Band", inviterName: "Olive Owner", email });

    const { user, artistId } = await createAccountFromInvite({
      inviteId: sent.invite.id,
      name: "Nina",
      lastName: "New",
      password: "a-good-password",
      ip: "10.9.0.1",
      userAgent: "test",
    });
    expect(artistId).toBe(artist.id);
    expect(user).toMatchObject({ email, acctType: 1, roleId: 5 });
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);
    expect(user.activatedAt).toBeInstanceOf(Date);
    expect(await verifyPassword("a-good-password", user.passwordHash)).toBe(true);
    expect(await memberRow(artist, user.id)).toMatchObject({ role: "member", canEdit: false });
    const signed = await db().select().from(signatures).where(eq(signatures.userId, user.id));
    expect(signed.map((s) => s.documentId)).toContain(terms!.id);
    expect((await loadInviteView(sent.invite.id))?.state).toBe("accepted");
    expect((await notificationsOf(owner.id)).map((n) => n.type)).toContain("BandInviteAccepted");
  });

  it("refuses when the address has an account, and creates nothing when the invitation is not pending", async () => {
    const { owner, artist } = await bandWith();
    const existing = await createUser();
    const sent = await invite(owner, artist, existing.email);
    expect((await loadInviteView(sent.invite.id))?.accountExists).toBe(true);
    await expect(
      createAccountFromInvite({ inviteId: sent.invite.id, name: "A", lastName: "B", password: "a-good-password", ip: "1", userAgent: "" }),
    ).rejects.toBeInstanceOf(EmailTakenError);

    const email = uniqueEmail("late");
    const late = await invite(owner, artist, email);
    await revokeInvite(owner, artist, late.invite.id);
    const error = await refusal(
      createAccountFromInvite({ inviteId: late.invite.id, name: "A", lastName: "B", password: "a-good-password", ip: "1", userAgent: "" }),
    );
    expect(error.status).toBe(410);
    expect(await findUserByEmail(email)).toBeUndefined();
    const [{ n }] = (await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)) as [{ n: number }];
    expect(n).toBe(0);
  });
});
