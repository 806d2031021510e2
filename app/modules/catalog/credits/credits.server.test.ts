import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, songCredits, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createSong } from "~/modules/catalog/songs/song-editor.server";
import { SongDetailsSchema } from "~/modules/catalog/songs/song-schemas";
import { listVerifiedCreditsOfUser } from "~/modules/catalog/catalog.server";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { acceptCredit, creditInvitePath, creditState, CreditError, declineCredit, loadCreditInvite, revokeCredit } from "./credits.server";

useTestDatabase();

let mia: User;
let paul: User;
let songId: number;

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  const [artist] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls"));
  songId = (await createSong(mia, artist!.id, SongDetailsSchema.parse({ title: "Credit Service" }))).id;
});

/** A pending invitation made directly (the mail is covered by tests/integration/credit-invite-mail.test.ts). */
async function invitation(email: string, role: "producer" | "featured_artist" = "producer", expiresInMs = 60_000) {
  const [row] = await db()
    .insert(songCredits)
    .values({ songId, role, email, invitedBy: mia.id, expiresAt: new Date(Date.now() + expiresInMs) })
    .returning();
  return row!;
}

describe("song credits", () => {
  it("paths and states", () => {
    expect(creditInvitePath("producer", "x")).toBe("/song-producer-invite/x");
    expect(creditInvitePath("featured_artist", "x")).toBe("/song-featured-artist-invite/x");
    const past = new Date(Date.now() - 1000);
    const future = new Date(Date.now() + 60_000);
    expect(creditState({ status: "pending", expiresAt: future })).toBe("pending");
    expect(creditState({ status: "pending", expiresAt: past })).toBe("expired");
    expect(creditState({ status: "accepted", expiresAt: past })).toBe("accepted");
  });

  it("the addressee accepts: the credit is verified and listed; another account may not", async () => {
    const credit = await invitation("Producer@Example.com");
    await expect(acceptCredit(credit.id, "producer", mia)).rejects.toMatchObject({ status: 403 });
    // The wrong role's page does not find it.
    await expect(acceptCredit(credit.id, "featured_artist", paul)).rejects.toMatchObject({ status: 404 });
    const accepted = await acceptCredit(credit.id, "producer", paul);
    expect(accepted.status).toBe("accepted");
    expect(accepted.userId).toBe(paul.id);
    expect(accepted.verifiedAt).toBeInstanceOf(Date);
    await expect(acceptCredit(credit.id, "producer", paul)).rejects.toMatchObject({ status: 410 });
    // The song is on no release, so it is not among the credits on releases.
    const listed = await listVerifiedCreditsOfUser(paul.id);
    expect(listed.some((c) => c.songTitle === "Credit Service")).toBe(false);
  });

  it("declines with the link alone; expired and unknown invitations are refused", async () => {
    const credit = await invitation("someone@example.test", "featured_artist");
    expect((await declineCredit(credit.id, "featured_artist", null)).status).toBe("declined");
    expect((await loadCreditInvite(credit.id, "featured_artist"))!.state).toBe("declined");
    const expired = await invitation("late@example.test", "producer", -1000);
    await expect(declineCredit(expired.id, "producer", null)).rejects.toMatchObject({ status: 410 });
    await expect(declineCredit("not-a-uuid", "producer", null)).rejects.toBeInstanceOf(CreditError);
    expect(await loadCreditInvite("not-a-uuid", "producer")).toBeNull();
  });

  it("revokes only the song's live credits", async () => {
    const credit = await invitation("revoke@example.test");
    await expect(revokeCredit(songId + 100_000, credit.id)).rejects.toMatchObject({ status: 404 });
    expect((await revokeCredit(songId, credit.id)).status).toBe("revoked");
    await expect(revokeCredit(songId, credit.id)).rejects.toMatchObject({ status: 404 });
    await expect(acceptCredit(credit.id, "producer", paul)).rejects.toMatchObject({ status: 410 });
  });
});
