import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { artistMembers, profiles, referenceValues, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createSignedMember } from "../../../tests/helpers/factories";
import { requestAs, routeArgs, sessionCookieFor } from "../../../tests/helpers/requests";
import { insertProfiles } from "./directory-seed.server";
import { loadPublicPage, publicPageAction, publicPageLoader, twitterHandle } from "./public-page.server";

useTestDatabase();

let admin: User;
let owner: User;
let editor: User;
let bandMember: User;
let stranger: User;
let genre: (name: string) => number;

const member = createSignedMember;

const status = (error: unknown) => (error as { init?: { status?: number } }).init?.status;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  [owner, editor, bandMember, stranger] = [await member("Olive"), await member("Eddie"), await member("Bart"), await member("Stan")];
  const values = await db().select().from(referenceValues);
  genre = (name) => values.find((v) => v.kind === "genre" && v.name === name)!.id;
});

describe("loadPublicPage", () => {
  it("shows a published provider profile to any member, by username in any case", async () => {
    const heroKey = "abcdefabcdefabcdefabcdefabcdefab";
    const [id] = await insertProfiles(db(), [
      {
        type: "musician",
        ownerId: owner.id,
        name: "Olive Keys",
        username: "olive-keys",
        bio: "Pianist.\nJazz and soul.\n\n<script>alert(1)</script>",
        location: "Leeds, United Kingdom",
        heroImg: heroKey,
        valueIds: [genre("Jazz"), genre("R&B/Soul"), genre("Hip-Hop/Rap"), genre("Blues")],
        rates: [
          { label: "Piano track", amountCents: 120_00, unit: "per_song" },
          { label: "Session", amountCents: 45_00, unit: "per_hour" },
        ],
        links: [
          { label: "X", url: "https://x.com/olivekeys" },
          { label: "Bad", url: "javascript:alert(1)" },
        ],
        sampleLinks: [{ label: "Demo", url: "https://example.com/demo" }],
      },
    ]);
    const page = await loadPublicPage(stranger, "musician", "OLIVE-Keys", "member", stranger.id);
    expect(page.profile).toMatchObject({
      id,
      name: "Olive Keys",
      username: "olive-keys",
      bio: "Pianist.\nJazz and soul.\n\n<script>alert(1)</script>",
    });
    expect(page.notPublic).toBeNull();
    expect(page.editPath).toBeNull();
    expect(page.hero).toEqual({ src: `/storage/images/hero/${id}-${heroKey}/728x410.webp`, srcSet: expect.stringContaining("1456w") });
    expect(page.rates.map((r) => [r.label, r.amountCents, r.unit])).toEqual([
      ["Piano track", 120_00, "per_song"],
      ["Session", 45_00, "per_hour"],
    ]);
    expect(page.values.map((g) => g.kind)).toEqual(["genre", "skill", "instrument", "language"]);
    // Only web addresses become links.
    expect(page.profile.links).toEqual([{ label: "X", url: "https://x.com/olivekeys" }]);
    expect(page.profile.sampleLinks).toHaveLength(1);
    expect(page.directoryPath).toBe(`/member/${stranger.id}/musicians`);
    expect(page.share).toEqual({
      url: `http://localhost:3999/member/${stranger.id}/musicians/olive-keys`,
      title: "Olive Keys on Backline",
      description: "Pianist. Jazz and soul. <script>alert(1)</script>",
      hashtags: ["Blues", "HipHopRap", "Jazz"],
      twitterUser: "olivekeys",
      media: `http://localhost:3999/storage/images/hero/${id}-${heroKey}/728x410.webp`,
    });
  });

  it("answers 404 for an unknown username, another type's username, or a silly parameter", async () => {
    await insertProfiles(db(), [{ type: "studio", ownerId: owner.id, name: "Olive Studio", username: "olive-studio" }]);
    for (const [type, username] of [
      ["musician", "nobody-here"],
      ["musician", "olive-studio"],
      ["studio", "x".repeat(200)],
      ["studio", undefined],
    ] as const) {
      expect(status(await loadPublicPage(stranger, type, username, "member", stranger.id).catch((e: unknown) => e)), `${type} ${username}`).toBe(404);
    }
  });

  it("an unpublished profile: owner, band members and admins see it with its status (edit link for editors); others get 404", async () => {
    const [draftId, rejectedId] = await insertProfiles(db(), [
      { type: "artist", ownerId: owner.id, name: "The Drafts", username: "the-drafts", status: "draft" },
      { type: "artist", ownerId: owner.id, name: "The Refused", username: "the-refused", status: "rejected" },
    ]);
    await db()
      .insert(artistMembers)
      .values([
        { artistId: draftId!, userId: owner.id, role: "owner", canEdit: true },
        { artistId: draftId!, userId: editor.id, role: "member", canEdit: true },
        { artistId: draftId!, userId: bandMember.id, role: "member", canEdit: false },
      ]);
    await db().update(profiles).set({ rejectionReason: "Add a bio" }).where(eq(profiles.id, rejectedId!));

    const asOwner = await loadPublicPage(owner, "artist", "the-drafts", "member", owner.id);
    expect(asOwner.notPublic).toEqual({ status: "draft", label: "Draft", rejectionReason: null });
    expect(asOwner.editPath).toBe(`/member/${owner.id}/artist-profile/${draftId}`);
    expect((await loadPublicPage(editor, "artist", "the-drafts", "member", editor.id)).editPath).toBe(`/member/${editor.id}/artist-profile/${draftId}`);
    const asAdmin = await loadPublicPage(admin, "artist", "the-drafts", "admin");
    expect(asAdmin.editPath).toBe(`/admin/artist-profile/${draftId}`);
    expect(asAdmin.directoryPath).toBe("/admin/artists");
    // A band member without editing rights sees the band's page (their menu links here), without an edit link.
    const asBandMember = await loadPublicPage(bandMember, "artist", "the-drafts", "member", bandMember.id);
    expect(asBandMember.notPublic).toMatchObject({ status: "draft" });
    expect(asBandMember.editPath).toBeNull();
    expect(status(await loadPublicPage(stranger, "artist", "the-drafts", "member", stranger.id).catch((e: unknown) => e))).toBe(404);

    expect((await loadPublicPage(owner, "artist", "the-refused", "member", owner.id)).notPublic).toEqual({
      status: "rejected",
      label: "Rejected",
      rejectionReason: "Add a bio",
    });
  });

  it("artists: band members by name only, avatar, no rates", async () => {
    const [id] = await insertProfiles(db(), [
      {
        type: "artist",
        ownerId: owner.id,
        name: "Olive Band",
        username: "olive-band",
        avatarImg: "/storage/images/avatar/xyz/256x256.webp",
        rates: [{ label: "Gig", amountCents: 1, unit: "per_day" }],
      },
    ]);
    await db()
      .insert(artistMembers)
      .values([
        { artistId: id!, userId: bandMember.id, role: "member" },
        { artistId: id!, userId: owner.id, role: "owner", canEdit: true },
      ]);
    const page = await loadPublicPage(stranger, "artist", "olive-band", "member", stranger.id);
    expect(page.band).toEqual([
      { name: "Olive Tester", role: "owner" },
      { name: "Bart Tester", role: "member" },
    ]);
    expect(JSON.stringify(page)).not.toContain("@example.test");
    expect(page.profile.avatarImg).toBe("/storage/images/avatar/xyz/256x256.webp");
    expect(page.rates).toEqual([]);
    expect(page.values.map((g) => g.kind)).toEqual(["genre"]);
  });

  it("the route loader guards the area and runs a handful of queries", async () => {
    await insertProfiles(db(), [{ type: "audio_engineer", ownerId: owner.id, name: "Olive Mix", username: "olive-mix" }]);
    const cookie = await sessionCookieFor(stranger.id);
    const path = `/member/${stranger.id}/audio-engineers/olive-mix`;
    const { result, count } = await countQueries(async () =>
      publicPageLoader(await routeArgs(requestAs(cookie, path), { memberId: String(stranger.id), username: "olive-mix" }), "audio_engineer", "member"),
    );
    expect(result.profile.name).toBe("Olive Mix");
    // session + user + agreement (guard), then the profile, its values and rates.
    expect(count).toBeLessThanOrEqual(8);
    const elsewhere = await publicPageLoader(
      await routeArgs(requestAs(cookie, `/member/${owner.id}/audio-engineers/olive-mix`), { memberId: String(owner.id), username: "olive-mix" }),
      "audio_engineer",
      "member",
    ).catch((e: unknown) => e);
    // A member following a link into someone else's area lands on the same page in their own.
    expect(elsewhere).toBeInstanceOf(Response);
    expect((elsewhere as Response).status).toBe(302);
    const asMemberInAdmin = await publicPageLoader(
      await routeArgs(requestAs(cookie, "/admin/audio-engineers/olive-mix"), { username: "olive-mix" }),
      "audio_engineer",
      "admin",
    ).catch((e: unknown) => e);
    expect((asMemberInAdmin as Response).headers.get("Location")).toBe("/login");
  });
});

describe("twitterHandle", () => {
  it("finds the handle of an X or Twitter link", () => {
    expect(
      twitterHandle([
        { label: "Site", url: "https://example.com" },
        { label: "Tw", url: "https://twitter.com/Some_One/" },
      ]),
    ).toBe("Some_One");
    expect(twitterHandle([{ label: "X", url: "https://www.x.com/abc?s=1" }])).toBe("abc");
    expect(twitterHandle([{ label: "X", url: "https://x.com/intent/tweet" }])).toBeUndefined();
    expect(twitterHandle([{ label: "X", url: "https://notx.com/abc" }])).toBeUndefined();
    expect(twitterHandle([{ label: "X", url: "not a url" }])).toBeUndefined();
  });
});

describe("publicPageAction", () => {
  function post(cookie: string, path: string, form: Record<string, string>) {
    return new Request(`http://localhost:3999${path}`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(form) });
  }

  it("lets a band member without editing rights leave from the artist's page; nothing else is accepted", async () => {
    const leaver = await member("Lena");
    const [artistId] = await insertProfiles(db(), [{ type: "artist", ownerId: owner.id, name: "The Leavers", username: "the-leavers", status: "draft" }]);
    await db()
      .insert(artistMembers)
      .values([
        { artistId: artistId!, userId: owner.id, role: "owner", canEdit: true },
        { artistId: artistId!, userId: leaver.id, role: "member", canEdit: false },
      ]);
    const cookie = await sessionCookieFor(leaver.id);
    const path = `/member/${leaver.id}/artists/the-leavers`;
    const params = { memberId: String(leaver.id), username: "the-leavers" };

    expect((await loadPublicPage(leaver, "artist", "the-leavers", "member", leaver.id)).canLeaveBand).toBe(true);
    expect((await loadPublicPage(owner, "artist", "the-leavers", "member", owner.id)).canLeaveBand).toBe(false);

    const other = await publicPageAction(await routeArgs(post(cookie, path, { intent: "band-remove" }), params), "artist").catch((e: unknown) => e);
    expect(status(other)).toBe(400);
    const wrongType = await publicPageAction(await routeArgs(post(cookie, path, { intent: "band-leave" }), params), "musician").catch((e: unknown) => e);
    expect(status(wrongType)).toBe(400);

    const left = (await publicPageAction(await routeArgs(post(cookie, path, { intent: "band-leave" }), params), "artist")) as Response;
    expect(left.status).toBe(302);
    expect(left.headers.get("Location")).toBe(`/member/${leaver.id}/dashboard`);
    const rows = await db().select().from(artistMembers).where(eq(artistMembers.artistId, artistId!));
    expect(rows.map((r) => r.userId)).toEqual([owner.id]);
    // Out of the band, the draft page is no longer theirs to see.
    expect(status(await loadPublicPage(leaver, "artist", "the-leavers", "member", leaver.id).catch((e: unknown) => e))).toBe(404);
  });
});
