import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, songs, type User } from "~/db/schema";
import { findRelease, todayUtc } from "~/modules/catalog/catalog.server";
import { createRelease } from "~/modules/catalog/releases/release-editor.server";
import { ReleaseDetailsSchema } from "~/modules/catalog/releases/release-schemas";
import { wav } from "../helpers/audio";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember } from "../helpers/factories";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();

/**
 * The distribution flow's new track through the real request handler (tests/e2e/catalog/distribution-tracks.spec.ts
 * runs it in a browser): the multipart form as a browser posts it without JavaScript (a redirect, or the page with
 * the errors), and as the page's script sends it for progress (JSON: the redirect's location, or the form's reply).
 */
describe("the new track on the Tracks step", () => {
  let server: AppServer;
  let owner: User;
  let stranger: User;
  let cookie: string;
  let releaseId: number;
  let path: string;

  beforeAll(async () => {
    owner = await createSignedMember("Tia");
    stranger = await createSignedMember("Sid");
    const [artist] = await db()
      .insert(profiles)
      .values({ type: "artist", ownerId: owner.id, name: "Tia Tones", username: `tia-${Date.now().toString(36)}`, status: "published" })
      .returning();
    releaseId = (await createRelease(owner, artist!.id, ReleaseDetailsSchema.parse({ title: "Tide Tables", type: "single" }))).id;
    cookie = await sessionCookieFor(owner.id);
    path = `/member/${owner.id}/digital-distribution/start?release=${releaseId}&step=tracks&upload=track`;
    server = await startAppServer();
  });
  afterAll(() => server?.close());

  function post(fields: Record<string, string>, audio: Buffer | null, options: { cookie?: string; progress?: boolean; to?: string } = {}) {
    const form = new FormData();
    for (const [name, value] of Object.entries({ step: "tracks", intent: "new-track", ...fields })) form.set(name, value);
    form.set("audio", audio ? new File([new Uint8Array(audio)], "take.wav", { type: "audio/wav" }) : new File([], "", { type: "application/octet-stream" }));
    const to = options.to ?? (options.progress ? `/member/${owner.id}/digital-distribution/new-track?release=${releaseId}` : path);
    return fetch(`${server.url}${to}`, {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: { Origin: server.origin, Cookie: options.cookie ?? cookie },
    });
  }

  it("without JavaScript: a missing title is refused beside the field; then the track is made, added, and the step shown again", async () => {
    const refused = await post({ title: "" }, wav());
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Enter the track&#x27;s title.");
    const made = await post({ title: "High Water", writers: "Tia Tones" }, wav({ seconds: 2 }));
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toMatch(
      new RegExp(`^/member/${owner.id}/digital-distribution/start\\?release=${releaseId}&step=tracks&done=new-track-\\d+$`),
    );
    const release = (await findRelease(releaseId, todayUtc()))!;
    expect(release.tracks.map((t) => [t.title, t.audio?.format, t.durationSeconds])).toEqual([["High Water", "wav", 2]]);
  });

  it("with the page's script: the redirect and the form's reply come back as JSON, the flash cookie kept", async () => {
    const refused = await post({ title: "Bad Code", isrcChoice: "have", isrc: "NOT-AN-ISRC" }, null, { progress: true });
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
    expect(reply.result.error.isrc?.[0]).toMatch(/ISRC/);
    expect(reply.result.initialValue.title).toBe("Bad Code");
    const made = await post({ title: "Low Water" }, null, { progress: true });
    expect(made.status).toBe(200);
    expect(made.headers.get("set-cookie")).toContain("backline_flash=");
    expect(((await made.json()) as { location: string }).location).toMatch(/&step=tracks&done=new-track-\d+$/);
    expect((await findRelease(releaseId, todayUtc()))!.tracks.map((t) => t.title)).toEqual(["High Water", "Low Water"]);
  });

  it("another member's release answers 404 and makes nothing, on both addresses", async () => {
    const before = await db().$count(songs);
    const strangerCookie = await sessionCookieFor(stranger.id);
    const response = await post({ title: "Not Mine" }, wav(), { cookie: strangerCookie, to: path.replace(`/member/${owner.id}/`, `/member/${stranger.id}/`) });
    expect(response.status).toBe(404);
    const script = await post({ title: "Not Mine" }, wav(), {
      cookie: strangerCookie,
      to: `/member/${stranger.id}/digital-distribution/new-track?release=${releaseId}`,
    });
    expect(script.status).toBe(404);
    // Another member's area is not theirs either.
    expect(
      (await post({ title: "Not Mine" }, null, { cookie: strangerCookie, to: `/member/${owner.id}/digital-distribution/new-track?release=${releaseId}` }))
        .status,
    ).toBe(404);
    expect(await db().$count(songs)).toBe(before);
    expect(await db().select().from(songs).where(eq(songs.title, "Not Mine"))).toEqual([]);
  });
});
