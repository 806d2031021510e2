import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { profiles, type ProfileStatus, type ProfileType, type User } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { routeArgs, sessionCookieFor } from "../../../tests/helpers/requests";
import { listProfilesForModeration, moderationListData, parseModerationQuery } from "./moderation-list.server";

useTestDatabase();

/** A word no other test uses, so each test searches only its own rows. */
const token = () => `m${crypto.randomBytes(4).toString("hex")}`;

let sequence = 0;
async function insertProfiles(owner: User, word: string, rows: Array<{ status: ProfileStatus; type?: ProfileType; minutesAgo?: number; name?: string }>) {
  const now = Date.now();
  return db()
    .insert(profiles)
    .values(
      rows.map((row) => {
        sequence += 1;
        const updatedAt = new Date(now - (row.minutesAgo ?? sequence) * 60_000);
        return {
          // Artists, since a member may own any number of them (one of each provider type).
          type: row.type ?? "artist",
          ownerId: owner.id,
          name: row.name ?? `${word} profile ${sequence}`,
          username: `${word}-${sequence}`,
          status: row.status,
          submittedAt: row.status === "draft" ? null : updatedAt,
          updatedAt,
        };
      }),
    )
    .returning();
}

describe("listProfilesForModeration", () => {
  it("puts pending profiles first, then the rest by last change, and counts the pending ones", async () => {
    const word = token();
    const owner = await createUser();
    const [oldPending, published, newPending, draft] = await insertProfiles(owner, word, [
      { status: "pending_approval", minutesAgo: 90 },
      { status: "published", minutesAgo: 1 },
      { status: "pending_approval", minutesAgo: 30 },
      { status: "draft", minutesAgo: 10 },
    ]);
    // Another type's pending profile appears neither in the rows nor in the count.
    await insertProfiles(owner, word, [{ status: "pending_approval", type: "studio" }]);
    const list = await listProfilesForModeration("artist", { q: word });
    expect(list.rows.map((r) => r.id)).toEqual([newPending!.id, oldPending!.id, published!.id, draft!.id]);
    expect(list.total).toBe(4);
    expect(list.rows[0]).toMatchObject({
      username: newPending!.username,
      ownerId: owner.id,
      ownerEmail: owner.email,
      ownerName: "Test User",
      status: "pending_approval",
    });
    expect(list.rows[3]!.submittedAt).toBeNull();
    const pendingArtists = await db().execute(sql`select count(*)::int as n from profiles where type = 'artist' and status = 'pending_approval'`);
    expect(list.pending).toBe((pendingArtists as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
  });

  it("filters by status, and keeps the pending count whatever the filter", async () => {
    const word = token();
    const owner = await createUser();
    await insertProfiles(owner, word, [{ status: "rejected" }, { status: "rejected" }, { status: "pending_approval" }, { status: "unpublished" }]);
    const unfiltered = await listProfilesForModeration("audio_engineer", { q: word });
    expect(unfiltered.total).toBe(0);
    const rejected = await listProfilesForModeration("artist", { q: word, status: "rejected" });
    expect(rejected.total).toBe(2);
    expect(rejected.rows.every((r) => r.status === "rejected")).toBe(true);
    const all = await listProfilesForModeration("artist", { q: word });
    expect(rejected.pending).toBe(all.pending);
    expect(rejected.pending).toBeGreaterThanOrEqual(1);
  });

  it("searches the profile name and username and the owner's email, case-insensitively and literally", async () => {
    const word = token();
    const owner = await createUser({ email: `${word}-owner@example.test` });
    const other = await createUser();
    const [named] = await insertProfiles(other, word, [{ status: "draft", name: `The ${word.toUpperCase()} Quartet 100%` }]);
    const [owned] = await insertProfiles(owner, token(), [{ status: "published" }]);
    const [byUsername] = await insertProfiles(other, token(), [{ status: "draft" }]);

    const byWord = await listProfilesForModeration("artist", { q: word });
    expect(byWord.rows.map((r) => r.id).sort()).toEqual([named!.id, owned!.id].sort());
    expect((await listProfilesForModeration("artist", { q: `${word}-OWNER@example` })).rows.map((r) => r.id)).toEqual([owned!.id]);
    expect((await listProfilesForModeration("artist", { q: byUsername!.username })).rows.map((r) => r.id)).toEqual([byUsername!.id]);
    // `%` is matched literally, not as "anything".
    expect((await listProfilesForModeration("artist", { q: `${word} Quartet 100%` })).rows.map((r) => r.id)).toEqual([named!.id]);
    expect((await listProfilesForModeration("artist", { q: `${word}%Quartet` })).total).toBe(0);
  });

  it("pages through the rows with two queries, whatever the page size", async () => {
    const word = token();
    const owner = await createUser();
    await insertProfiles(
      owner,
      word,
      Array.from({ length: 7 }, (_, i) => ({ status: i % 2 ? "published" : "pending_approval" }) as const),
    );
    const first = await countQueries(() => listProfilesForModeration("studio", { q: word, pageSize: 3 }));
    const none = await countQueries(() => listProfilesForModeration("artist", { q: word, pageSize: 3, page: 3 }));
    const all = await countQueries(() => listProfilesForModeration("artist", { q: word, pageSize: 100 }));
    expect(first.result.total).toBe(0);
    expect(none.result.rows).toHaveLength(1);
    expect(none.result).toMatchObject({ total: 7, page: 3, pageCount: 3 });
    expect(all.result.rows).toHaveLength(7);
    expect(all.result.rows.slice(0, 4).every((r) => r.status === "pending_approval")).toBe(true);
    for (const run of [first, none, all]) expect(run.count).toBe(2);
    const pages = await Promise.all([1, 2, 3].map((page) => listProfilesForModeration("artist", { q: word, pageSize: 3, page })));
    expect(new Set(pages.flatMap((p) => p.rows.map((r) => r.id))).size).toBe(7);
  });
});

describe("parseModerationQuery", () => {
  it("falls back to no filter and page 1 for anything malformed", () => {
    expect(parseModerationQuery(new URLSearchParams("q=%20mia%20&status=published&page=2"))).toEqual({ q: "mia", status: "published", page: 2 });
    expect(parseModerationQuery(new URLSearchParams("status=approved&page=-4"))).toEqual({ q: "", status: undefined, page: 1 });
    expect(parseModerationQuery(new URLSearchParams(`q=${"x".repeat(101)}&page=abc`))).toEqual({ q: "", status: undefined, page: 1 });
  });
});

describe("the admin.{directory}.profiles routes", () => {
  const routes = [
    ["admin.artists.profiles", "artist", "admin-artists-profiles"],
    ["admin.musicians.profiles", "musician", "admin-musicians-profiles"],
    ["admin.audio-engineers.profiles", "audio_engineer", "admin-audio-engineers-profiles"],
    ["admin.music-producers.profiles", "music_producer", "admin-music-producers-profiles"],
    ["admin.studios.profiles", "studio", "admin-studios-profiles"],
  ] as const;

  it("serve only administrators, each its own type, with a bounded number of queries", async () => {
    const moderator = await createUser({ acctType: 2, roleId: 2 });
    const member = await createUser();
    const adminCookie = await sessionCookieFor(moderator.id);
    const memberCookie = await sessionCookieFor(member.id);
    const word = token();
    for (const [file, type, routeName] of routes) {
      await insertProfiles(member, word, [{ status: "pending_approval", type }]);
      const route = (await import(`../../routes/${file}.tsx`)) as {
        handle: { routeName: string };
        loader: (args: unknown) => Promise<Awaited<ReturnType<typeof moderationListData>>>;
      };
      expect(route.handle.routeName).toBe(routeName);
      const call = async (cookie: string | null, search = "") =>
        route.loader(await routeArgs(new Request(`http://localhost/admin/x/profiles${search}`, { headers: cookie ? { Cookie: cookie } : {} })));

      const refused = await call(memberCookie).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).headers.get("Location")).toBe("/login");

      const run = await countQueries(() => call(adminCookie, `?q=${word}`));
      expect(run.result.type).toBe(type);
      expect(run.result.list.rows).toHaveLength(1);
      expect(run.result.list.rows[0].ownerId).toBe(member.id);
      // The admin guard (session, user, legal agreement) and the list (page, counts).
      expect(run.count).toBeLessThanOrEqual(5);
    }
  });
});
