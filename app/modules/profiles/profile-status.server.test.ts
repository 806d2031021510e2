import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { artistMembers, profileRates, profileReferenceValues, profiles, referenceValues, type Profile, type ProfileType, type User } from "~/db/schema";
import { adminNotifications, memberNotifications } from "~/modules/notifications/notifications.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { nextEvent, startRealtime, subscribed } from "../../../tests/helpers/realtime";
import { contextFor, sessionCookieFor } from "../../../tests/helpers/requests";
import { authorizeChannelRequest } from "~/modules/notifications/channel-auth.server";
import {
  approveProfile,
  IncompleteProfileError,
  missingForSubmission,
  ProfileStatusError,
  rejectProfile,
  submitForApproval,
  unpublishProfile,
  withdrawSubmission,
} from "./profile-status.server";
import { handleStatusIntent } from "./status-actions.server";

/** Calls a broadcasting handler with the request context the root middleware would give it. */
const withContext = (handler: (request: Request, context: Awaited<ReturnType<typeof contextFor>>) => Promise<Response>) => async (request: Request) =>
  handler(request, await contextFor(request));

useTestDatabase();
let realtime: Awaited<ReturnType<typeof startRealtime>>;
let genreId: number;
let skillId: number;

beforeAll(async () => {
  realtime = await startRealtime();
  const [genre, skill] = await db()
    .insert(referenceValues)
    .values([
      { kind: "genre", name: "Status Test Jazz" },
      { kind: "skill", name: "Status Test Mixing" },
    ])
    .returning();
  genreId = genre!.id;
  skillId = skill!.id;
});
afterAll(() => realtime.close());

/** The app's own channel authorisation, as the owner's browser would call it. */
function authAs(cookie: string) {
  return async (socketId: string, channel: string) => {
    const response = await withContext(authorizeChannelRequest)(
      new Request("http://localhost:3999/broadcasting/auth", {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ socket_id: socketId, channel_name: channel }),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
}

let sequence = 0;
const BIO = "A complete bio with well over twenty characters.";

/** A profile of `type` for `owner`; complete (bio, a genre, a rate for providers) unless told otherwise. */
async function makeProfile(
  owner: User,
  options: { type?: ProfileType; status?: Profile["status"]; bio?: string; genre?: boolean; rate?: boolean; rejectionReason?: string; name?: string } = {},
): Promise<Profile> {
  const type = options.type ?? "musician";
  sequence += 1;
  const [profile] = await db()
    .insert(profiles)
    .values({
      type,
      ownerId: owner.id,
      name: options.name ?? `Status Test ${sequence}`,
      username: `status-test-${sequence}`,
      bio: options.bio ?? BIO,
      status: options.status ?? "draft",
      rejectionReason: options.rejectionReason ?? null,
    })
    .returning();
  if (options.genre ?? true) await db().insert(profileReferenceValues).values({ profileId: profile!.id, valueId: genreId });
  if ((options.rate ?? true) && type !== "artist") {
    await db().insert(profileRates).values({ profileId: profile!.id, label: "Session", amountCents: 10000, unit: "per_hour" });
  }
  return profile!;
}

const reload = async (profile: Pick<Profile, "id">) => (await db().select().from(profiles).where(eq(profiles.id, profile.id)))[0]!;
const adminNotesFor = async (profileId: number) => (await adminNotifications()).data.filter((n) => n.data.resource_id === profileId);

async function refusal(promise: Promise<unknown>): Promise<ProfileStatusError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProfileStatusError);
  return error as ProfileStatusError;
}

const member = () => createUser({ name: "Mia", lastName: "Member" });
const admin = () => createUser({ name: "Ada", lastName: "Admin", acctType: 2, roleId: 2 });

describe("submitForApproval", () => {
  it("moves a complete draft to pending approval and tells the administrators", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { name: "Mia" });
    const submitted = await submitForApproval(owner, profile);
    expect(submitted.status).toBe("pending_approval");
    expect(submitted.submittedAt).toBeInstanceOf(Date);
    const notes = await adminNotesFor(profile.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      type: { name: "ProfileSubmitted" },
      data: { message: 'Mia Member submitted the musician profile "Mia" for approval', route_name: "admin-musicians-profile", resource_id: profile.id },
    });
    // The owner's own list gets nothing from their submission.
    expect((await memberNotifications(owner.id)).meta.total).toBe(0);
  });

  it("resubmits a rejected or unpublished profile and clears the old reason", async () => {
    const owner = await member();
    const rejected = await makeProfile(owner, { type: "studio", status: "rejected", rejectionReason: "Add photos of the live room." });
    const again = await submitForApproval(owner, rejected);
    expect(again).toMatchObject({ status: "pending_approval", rejectionReason: null });
    const unpublished = await makeProfile(owner, { type: "artist", status: "unpublished" });
    expect((await submitForApproval(owner, unpublished)).status).toBe("pending_approval");
  });

  it("refuses an incomplete profile and lists everything that is missing", async () => {
    const owner = await member();
    const bare = await makeProfile(owner, { type: "audio_engineer", bio: "Too short bio", genre: false, rate: false });
    const error = await refusal(submitForApproval(owner, bare));
    expect(error).toBeInstanceOf(IncompleteProfileError);
    expect(error.status).toBe(422);
    expect((error as IncompleteProfileError).missing).toEqual(["a bio of at least 20 characters", "at least one genre", "at least one rate"]);
    expect(error.message).toContain("a bio of at least 20 characters; at least one genre; at least one rate");
    expect((await reload(bare)).status).toBe("draft");
    expect(await adminNotesFor(bare.id)).toHaveLength(0);
  });

  it("counts only genres (not other reference values) and only trims to measure the bio", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { type: "music_producer", genre: false, bio: `   ${"x".repeat(19)}    ` });
    await db().insert(profileReferenceValues).values({ profileId: profile.id, valueId: skillId });
    expect(await missingForSubmission(profile)).toEqual(["a bio of at least 20 characters", "at least one genre"]);
  });

  it("asks an artist page for no rates", async () => {
    const owner = await member();
    const artist = await makeProfile(owner, { type: "artist", genre: false });
    expect(await missingForSubmission(artist)).toEqual(["at least one genre"]);
    await db().insert(profileReferenceValues).values({ profileId: artist.id, valueId: genreId });
    expect((await submitForApproval(owner, artist)).status).toBe("pending_approval");
  });

  it("refuses a profile that is already pending or published", async () => {
    const owner = await member();
    const pending = await makeProfile(owner, { status: "pending_approval" });
    expect((await refusal(submitForApproval(owner, pending))).message).toBe("This profile is already waiting for approval.");
    const published = await makeProfile(owner, { type: "studio", status: "published" });
    const error = await refusal(submitForApproval(owner, published));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/already published/);
  });

  it("lets only the owner or a band member with editing rights submit", async () => {
    const owner = await member();
    const stranger = await member();
    const moderator = await admin();
    const profile = await makeProfile(owner);
    expect((await refusal(submitForApproval(stranger, profile))).status).toBe(403);
    expect((await refusal(submitForApproval(moderator, profile))).status).toBe(403);
    expect((await reload(profile)).status).toBe("draft");

    const band = await makeProfile(owner, { type: "artist" });
    const editor = await member();
    const player = await member();
    await db()
      .insert(artistMembers)
      .values([
        { artistId: band.id, userId: editor.id, canEdit: true },
        { artistId: band.id, userId: player.id, canEdit: false },
      ]);
    expect((await refusal(submitForApproval(player, band))).status).toBe(403);
    expect((await submitForApproval(editor, band)).status).toBe("pending_approval");
  });
});

describe("withdrawSubmission", () => {
  it("takes a pending profile back to draft; nothing else", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    const draft = await withdrawSubmission(owner, profile);
    expect(draft).toMatchObject({ status: "draft", submittedAt: null });
    expect((await refusal(withdrawSubmission(owner, draft))).message).toBe("Only a profile waiting for approval can be withdrawn; this one is draft.");
    const other = await makeProfile(owner, { type: "studio", status: "pending_approval" });
    expect((await refusal(withdrawSubmission(await admin(), other))).status).toBe(403);
  });
});

describe("approveProfile", () => {
  it("publishes a pending profile and notifies the owner, live", async () => {
    const owner = await member();
    const moderator = await admin();
    const profile = await makeProfile(owner, { name: "Mia", status: "pending_approval" });
    const client = realtime.client(authAs(await sessionCookieFor(owner.id)));
    const channel = `private-member-notifications.${owner.id}`;
    expect(await subscribed(client, channel)).toBe("ok");
    const arrived = nextEvent(client, channel, "member.notifications");

    const published = await approveProfile(moderator, profile);
    expect(published).toMatchObject({ status: "published", reviewedBy: moderator.id, rejectionReason: null });
    expect(published.publishedAt).toBeInstanceOf(Date);
    expect(published.reviewedAt).toBeInstanceOf(Date);

    const list = await memberNotifications(owner.id);
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      type: { name: "ProfileApproved" },
      data: {
        message: 'Your musician profile "Mia" is approved and published.',
        color: "green",
        route_name: "member-musician-profile",
        resource_id: profile.id,
      },
    });
    expect(await arrived).toMatchObject({ id: list.data[0]!.id, type: "ProfileApproved" });
  });

  it("refuses members, and profiles that are not pending", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    expect((await refusal(approveProfile(owner, profile))).status).toBe(403);
    expect((await reload(profile)).status).toBe("pending_approval");
    const moderator = await admin();
    await approveProfile(moderator, profile);
    expect((await refusal(approveProfile(moderator, profile))).message).toBe("This profile is already published.");
    const draft = await makeProfile(owner, { type: "studio" });
    expect((await refusal(approveProfile(moderator, draft))).message).toBe("Only a profile waiting for approval can be approved; this one is draft.");
    expect((await memberNotifications(owner.id)).meta.total).toBe(1);
  });

  it("lets exactly one of two administrators deciding at once succeed", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    const [first, second] = [await admin(), await admin()];
    const outcomes = await Promise.allSettled([
      approveProfile(first, profile),
      approveProfile(second, profile),
      rejectProfile(second, profile, "Too late anyway"),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ProfileStatusError);
    expect((await memberNotifications(owner.id)).meta.total).toBe(1);
  });

  it("reports a profile that no longer exists", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    await db().delete(profiles).where(eq(profiles.id, profile.id));
    expect((await refusal(approveProfile(await admin(), profile))).status).toBe(404);
  });
});

describe("rejectProfile", () => {
  it("stores the reason and notifies the owner with it", async () => {
    const owner = await member();
    const moderator = await admin();
    const profile = await makeProfile(owner, { type: "audio_engineer", name: "Eddie Mixes", status: "pending_approval" });
    const rejected = await rejectProfile(moderator, profile, "  Please add credits for the albums you mixed.  ");
    expect(rejected).toMatchObject({ status: "rejected", rejectionReason: "Please add credits for the albums you mixed.", reviewedBy: moderator.id });
    const [note] = (await memberNotifications(owner.id)).data;
    expect(note).toMatchObject({
      type: { name: "ProfileRejected" },
      data: {
        message: 'Your audio engineer profile "Eddie Mixes" was not approved. Reason: Please add credits for the albums you mixed.',
        color: "red",
        route_name: "member-audio-engineer-profile",
        resource_id: profile.id,
      },
    });
  });

  it("keeps a long reason within the message limit, visibly shortened", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    await rejectProfile(await admin(), profile, "y".repeat(500));
    const [note] = (await memberNotifications(owner.id)).data;
    expect(note!.data.message).toHaveLength(500);
    expect(note!.data.message.endsWith("…")).toBe(true);
    expect((await reload(profile)).rejectionReason).toHaveLength(500);
  });

  it("requires a reason of 5 to 500 characters, an administrator and a pending profile", async () => {
    const owner = await member();
    const moderator = await admin();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    expect((await refusal(rejectProfile(moderator, profile, "   "))).status).toBe(400);
    expect((await refusal(rejectProfile(moderator, profile, "no"))).message).toBe("The reason needs at least 5 characters.");
    expect((await refusal(rejectProfile(moderator, profile, "z".repeat(501)))).status).toBe(400);
    expect((await refusal(rejectProfile(owner, profile, "Looks wrong"))).status).toBe(403);
    expect((await reload(profile)).status).toBe("pending_approval");
    const published = await makeProfile(owner, { type: "studio", status: "published" });
    expect((await refusal(rejectProfile(moderator, published, "Looks wrong"))).message).toBe(
      "Only a profile waiting for approval can be rejected; this one is published.",
    );
    expect((await memberNotifications(owner.id)).meta.total).toBe(0);
  });
});

describe("unpublishProfile", () => {
  it("by the owner: unpublished, and no notification", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "published" });
    expect((await unpublishProfile(owner, profile, "ignored")).status).toBe("unpublished");
    expect((await reload(profile)).rejectionReason).toBeNull();
    expect((await memberNotifications(owner.id)).meta.total).toBe(0);
    expect((await refusal(unpublishProfile(owner, profile))).message).toBe("This profile is already unpublished.");
  });

  it("by an administrator: the owner is notified, with the reason when given", async () => {
    const owner = await member();
    const moderator = await admin();
    const withReason = await makeProfile(owner, { type: "studio", name: "Room A", status: "published" });
    const plain = await makeProfile(owner, { type: "artist", name: "The Band", status: "published" });
    await unpublishProfile(moderator, withReason, "The address is out of date.");
    await unpublishProfile(moderator, plain);
    expect((await reload(withReason)).rejectionReason).toBe("The address is out of date.");
    const notes = (await memberNotifications(owner.id)).data;
    expect(notes.map((n) => n.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message: 'An administrator unpublished your studio profile "Room A". Reason: The address is out of date.',
          color: "orange",
          route_name: "member-studio-profile",
          resource_id: withReason.id,
        }),
        expect.objectContaining({
          message: 'An administrator unpublished your artist page "The Band".',
          route_name: "member-artist-profile",
          resource_id: plain.id,
        }),
      ]),
    );
  });

  it("refuses strangers and profiles that are not published", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "published" });
    expect((await refusal(unpublishProfile(await member(), profile))).status).toBe(403);
    const draft = await makeProfile(owner, { type: "studio" });
    expect((await refusal(unpublishProfile(owner, draft))).message).toBe("Only a published profile can be unpublished; this one is draft.");
  });
});

describe("handleStatusIntent", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return data;
  };
  const call = (actor: User, profile: Profile, fields: Record<string, string>) =>
    handleStatusIntent({
      intent: fields.intent ?? "",
      formData: form(fields),
      actor,
      profile,
      rights: actor.acctType === 2 ? "admin" : "owner",
      redirectTo: "/back",
    });
  type Reply = { data: { form: string; result: { error?: Record<string, string[] | null> } }; init: ResponseInit | null };

  it("leaves other intents to the page", async () => {
    const owner = await member();
    const profile = await makeProfile(owner);
    expect(await call(owner, profile, { intent: "details" })).toBeNull();
  });

  it("answers 403 when a member posts approve or reject", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    for (const intent of ["approve", "reject"]) {
      const reply = (await call(owner, profile, { intent, reason: "Self service" })) as unknown as Reply;
      expect(reply.init?.status).toBe(403);
      expect(reply.data.form).toBe("status");
      expect(reply.data.result.error?.[""]).toEqual(["Only an administrator can approve or reject a profile."]);
    }
    expect((await reload(profile)).status).toBe("pending_approval");
  });

  it("puts a missing reject reason beside the field", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    const reply = (await call(await admin(), profile, { intent: "reject", reason: "" })) as unknown as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.result.error?.reason).toEqual(["Give the reason for the rejection."]);
    expect((await reload(profile)).status).toBe("pending_approval");
  });

  it("redirects with a message on success, and returns a refusal as a form error", async () => {
    const owner = await member();
    const profile = await makeProfile(owner, { name: "Mia" });
    const done = (await call(owner, profile, { intent: "submit" })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/back");
    expect(done.headers.get("Set-Cookie")).toContain("backline_flash=");
    const again = (await call(owner, profile, { intent: "submit" })) as unknown as Reply;
    expect(again.init?.status).toBe(409);
    expect(again.data.result.error?.[""]).toEqual(["This profile is already waiting for approval."]);

    const incomplete = await makeProfile(owner, { type: "studio", genre: false });
    const missing = (await call(owner, incomplete, { intent: "submit" })) as unknown as Reply;
    expect(missing.init?.status).toBe(422);
    expect(missing.data.result.error?.[""]?.[0]).toMatch(/Still missing: at least one genre\.$/);
  });

  it("approves, and unpublishes with an optional reason, as an administrator", async () => {
    const owner = await member();
    const moderator = await admin();
    const profile = await makeProfile(owner, { status: "pending_approval" });
    expect(((await call(moderator, profile, { intent: "approve" })) as Response).status).toBe(302);
    const short = (await call(moderator, profile, { intent: "unpublish", reason: "bad" })) as unknown as Reply;
    expect(short.init?.status).toBe(400);
    expect(short.data.result.error?.reason).toEqual(["The reason needs at least 5 characters."]);
    expect(((await call(moderator, profile, { intent: "unpublish" })) as Response).status).toBe(302);
    expect((await reload(profile)).status).toBe("unpublished");
  });
});
