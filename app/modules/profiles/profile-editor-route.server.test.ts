import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { artistMembers, profiles, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createSignedMember } from "../../../tests/helpers/factories";
import { routeArgs, sessionCookieFor } from "../../../tests/helpers/requests";
import { createProfile } from "./profile-editor.server";
import { profileEditorAction, profileEditorLoader } from "./profile-editor-route.server";

useTestDatabase();

let admin: User;

const member = createSignedMember;

const username = (prefix: string) => `${prefix}-${crypto.randomBytes(3).toString("hex")}`;
const statusOf = (thrown: unknown) => (thrown instanceof Response ? thrown.status : (thrown as { init?: { status?: number } | null }).init?.status);

async function post(user: User, path: string, params: Record<string, string>, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const cookie = await sessionCookieFor(user.id);
  const request = new Request(`http://localhost:3999${path}`, {
    method: "POST",
    headers: { Cookie: cookie, ...headers },
    body: new URLSearchParams(fields),
  });
  return routeArgs(request, params);
}

async function get(user: User, path: string, params: Record<string, string>) {
  return routeArgs(new Request(`http://localhost:3999${path}`, { headers: { Cookie: await sessionCookieFor(user.id) } }), params);
}

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
});

describe("profileEditorLoader", () => {
  it("gives the owner the profile, the choosable values, the public path and, for an artist, the band", async () => {
    const owner = await member("Olive");
    const artist = await createProfile(owner, owner.id, "artist", { name: "Olive Band", username: username("olive") });
    const data = await profileEditorLoader(
      await get(owner, `/member/${owner.id}/artist-profile/${artist.id}`, { memberId: String(owner.id), id: String(artist.id) }),
      "artist",
      "member",
    );
    expect(data).toMatchObject({ type: "artist", area: "member", rights: "owner", currentUserId: owner.id, hero: null });
    expect(data.profile.id).toBe(artist.id);
    expect(data.publicPath).toBe(`/member/${owner.id}/artists/${artist.username}`);
    expect(data.options.genre.length).toBeGreaterThan(10);
    expect(data.options.skill).toEqual([]);
    expect(data.band?.members.map((m) => [m.userId, m.role])).toEqual([[owner.id, "owner"]]);

    const musician = await createProfile(owner, owner.id, "musician", { name: "Olive", username: username("olive") });
    const provider = await profileEditorLoader(await get(admin, `/admin/musicians-profile/${musician.id}`, { id: String(musician.id) }), "musician", "admin");
    expect(provider).toMatchObject({ rights: "admin", band: null, publicPath: `/admin/musicians/${musician.username}` });
    expect(provider.options.language.length).toBeGreaterThan(5);
  });

  it("answers 404 to other members, in their own area and in the owner's, and sends members away from the admin page", async () => {
    const owner = await member("Owen");
    const stranger = await member("Stan");
    const profile = await createProfile(owner, owner.id, "studio", { name: "Owen Studio", username: username("owen") });
    for (const memberId of [stranger.id, owner.id]) {
      const thrown = await profileEditorLoader(
        await get(stranger, `/member/${memberId}/studio-profile/${profile.id}`, { memberId: String(memberId), id: String(profile.id) }),
        "studio",
        "member",
      ).catch((e: unknown) => e);
      expect(statusOf(thrown)).toBe(404);
    }
    const thrown = await profileEditorLoader(await get(owner, `/admin/studios-profile/${profile.id}`, { id: String(profile.id) }), "studio", "admin").catch(
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/login");
  });
});

describe("profileEditorAction", () => {
  it("saves the details form for a band member with rights and redirects with a message", async () => {
    const owner = await member("Bea");
    const editor = await member("Eddie");
    const artist = await createProfile(owner, owner.id, "artist", { name: "Bea Band", username: username("bea") });
    await db().insert(artistMembers).values({ artistId: artist.id, userId: editor.id, role: "member", canEdit: true });
    const path = `/member/${editor.id}/artist-profile/${artist.id}`;
    const response = await profileEditorAction(
      await post(
        editor,
        path,
        { memberId: String(editor.id), id: String(artist.id) },
        { intent: "details", name: "Bea and Eddie", username: artist.username, "links[0].url": "https://bea.example" },
      ),
      "artist",
      "member",
    );
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(302);
    expect((response as Response).headers.get("Location")).toBe(path);
    const [saved] = await db().select().from(profiles).where(eq(profiles.id, artist.id));
    expect(saved).toMatchObject({ name: "Bea and Eddie", links: [{ label: "", url: "https://bea.example" }] });
  });

  it("answers 400 with the field errors for bad details, 400 for an unknown form and for an avatar on a provider", async () => {
    const owner = await member("Fay");
    const profile = await createProfile(owner, owner.id, "musician", { name: "Fay", username: username("fay") });
    const path = `/member/${owner.id}/musician-profile/${profile.id}`;
    const params = { memberId: String(owner.id), id: String(profile.id) };
    const bad = (await profileEditorAction(
      await post(owner, path, params, {
        intent: "details",
        name: "",
        username: profile.username,
        "rates[0].label": "Mix",
        "rates[0].amount": "1e3",
        "rates[0].unit": "per_song",
      }),
      "musician",
      "member",
    )) as { data: { form: string; result: { error?: Record<string, string[]> } }; init: { status: number } };
    expect(bad.init.status).toBe(400);
    expect(bad.data.form).toBe("details");
    expect(bad.data.result.error).toMatchObject({ name: ["Enter a name."], "rates[0].amount": ["Enter an amount in dollars, like 150 or 150.50."] });

    for (const intent of ["no-such-form", "avatar", "remove-avatar"]) {
      const thrown = await profileEditorAction(await post(owner, path, params, { intent }), "musician", "member").catch((e: unknown) => e);
      expect(statusOf(thrown), intent).toBe(400);
    }
  });

  it("refuses an oversized body before reading it, and a multipart body without a length", async () => {
    const owner = await member("Gus");
    const profile = await createProfile(owner, owner.id, "audio_engineer", { name: "Gus", username: username("gus") });
    const path = `/member/${owner.id}/audio-engineer-profile/${profile.id}`;
    const params = { memberId: String(owner.id), id: String(profile.id) };
    const args = await post(owner, path, params, { intent: "hero" }, { "Content-Length": String(6 * 1024 * 1024) });
    const refused = (await profileEditorAction(args, "audio_engineer", "member")) as {
      data: { form: string; result: { error?: Record<string, string[]> } };
      init: { status: number };
    };
    expect(refused.init.status).toBe(413);
    expect(refused.data).toMatchObject({ form: "hero", result: { error: { hero: ["Images can be at most 5 MB."] } } });
    expect(args.request.bodyUsed).toBe(false);
  });

  it("hands the status forms to the status actions (a member cannot approve)", async () => {
    const owner = await member("Hal");
    const profile = await createProfile(owner, owner.id, "music_producer", { name: "Hal", username: username("hal") });
    const path = `/member/${owner.id}/music-producer-profile/${profile.id}`;
    const result = (await profileEditorAction(
      await post(owner, path, { memberId: String(owner.id), id: String(profile.id) }, { intent: "approve" }),
      "music_producer",
      "member",
    )) as { data: { form: string }; init: { status: number } };
    expect(result.data.form).toBe("status");
    expect(result.init.status).toBe(403);
  });
});
