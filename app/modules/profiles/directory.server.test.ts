import crypto from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, referenceValues, users, type ReferenceKind } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { listPublishedDocuments, signDocuments } from "~/modules/legal/legal.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { startAppServer } from "../../../tests/helpers/app-server";
import { requestAs, routeArgs, sessionCookieFor } from "../../../tests/helpers/requests";
import { DIRECTORY_PAGE_SIZE, parseDirectoryQuery } from "./directory-query";
import { adminDirectoryLoader, adminSkillListLoader, memberDirectoryAction, memberDirectoryLoader } from "./directory-route.server";
import { insertProfiles, type BulkProfile } from "./directory-seed.server";
import { carries, listDirectory, matchesLocation, matchesSearch } from "./directory.server";
import { DJ_SKILL, SONGWRITER_SKILL } from "./profile-types";
import { invalidateReferenceOptions } from "~/modules/reference/reference-options.server";

useTestDatabase();

let ref: (kind: ReferenceKind, name: string) => number;
let memberId: number;
let memberCookie: string;
let adminCookie: string;

/** Owners for provider profiles (one of each provider type per member), inserted in one statement. */
async function owners(count: number, signed = false): Promise<number[]> {
  const tag = crypto.randomBytes(4).toString("hex");
  const rows = await db()
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: "Owner",
        lastName: `${tag} ${i}`,
        email: `owner-${tag}-${i}@example.test`,
        passwordHash: "x",
        activatedAt: new Date(),
        emailVerifiedAt: new Date(),
      })),
    )
    .returning({ id: users.id });
  if (signed) {
    const documentIds = (await listPublishedDocuments()).map((d) => d.id);
    for (const { id } of rows) await signDocuments({ userId: id, documentIds, ip: "127.0.0.1", userAgent: "test" });
  }
  return rows.map((r) => r.id);
}

/** Profiles of one type, each with its own owner; `username` defaults to a slug of the name. */
async function make(type: BulkProfile["type"], list: Array<Omit<BulkProfile, "type" | "ownerId" | "username"> & { username?: string }>) {
  const ownerIds = await owners(list.length);
  return insertProfiles(
    db(),
    list.map((p, i) => ({
      type,
      ownerId: ownerIds[i]!,
      username: p.username ?? `${p.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${crypto.randomBytes(2).toString("hex")}`,
      ...p,
    })),
  );
}

const names = (list: { cards: Array<{ name: string }> }) => list.cards.map((c) => c.name);

beforeAll(async () => {
  await seedDemoData();
  const values = await db().select({ id: referenceValues.id, kind: referenceValues.kind, name: referenceValues.name }).from(referenceValues);
  ref = (kind, name) => {
    const value = values.find((v) => v.kind === kind && v.name === name);
    if (!value) throw new Error(`no ${kind} ${name}`);
    return value.id;
  };
  const member = (await findUserByEmail("member@example.com"))!;
  memberId = member.id;
  memberCookie = await sessionCookieFor(member.id);
  adminCookie = await sessionCookieFor((await findUserByEmail("admin@example.com"))!.id);
});

describe("listDirectory", () => {
  it("lists only published profiles of the type, A to Z, with the total", async () => {
    await make("studio", [
      { name: "Cobalt Rooms" },
      { name: "Apex Studio" },
      { name: "Blue Barn" },
      { name: "Draft Studio", status: "draft" },
      { name: "Pending Studio", status: "pending_approval" },
      { name: "Hidden Studio", status: "unpublished" },
      { name: "Refused Studio", status: "rejected" },
    ]);
    await make("musician", [{ name: "Apex Player" }]);
    const list = await listDirectory({ type: "studio" });
    expect(names(list)).toEqual(["Apex Studio", "Blue Barn", "Cobalt Rooms"]);
    expect(list).toMatchObject({ total: 3, page: 1, pageSize: DIRECTORY_PAGE_SIZE, pageCount: 1 });
  });

  it("searches name and username case-insensitively, with % and _ taken literally", async () => {
    await make("music_producer", [
      { name: "Nightjar Beats", username: "nightjar" },
      { name: "Owl Productions", username: "the-owl-prod" },
      { name: "100% Analog" },
      { name: "Under Score" },
    ]);
    expect(names(await listDirectory({ type: "music_producer", q: "NIGHTJAR" }))).toEqual(["Nightjar Beats"]);
    expect(names(await listDirectory({ type: "music_producer", q: "owl-prod" }))).toEqual(["Owl Productions"]);
    expect(names(await listDirectory({ type: "music_producer", q: "%" }))).toEqual(["100% Analog"]);
    expect(names(await listDirectory({ type: "music_producer", q: "r_s" }))).toEqual([]);
    expect((await listDirectory({ type: "music_producer", q: "zzz-nothing" })).total).toBe(0);
  });

  it("filters by genre, skill, instrument and language (all must match) and by location", async () => {
    const jazz = ref("genre", "Jazz");
    const rock = ref("genre", "Rock");
    const mixing = ref("skill", "Mixing");
    const piano = ref("instrument", "Piano");
    const spanish = ref("language", "Spanish");
    await make("musician", [
      { name: "Filter Ada", location: "Lisbon, Portugal", valueIds: [jazz, piano, spanish] },
      { name: "Filter Ben", location: "Porto, Portugal", valueIds: [jazz, mixing] },
      { name: "Filter Cy", location: "Berlin, Germany", valueIds: [rock, piano] },
    ]);
    const q = "filter ";
    expect(names(await listDirectory({ type: "musician", q, genre: jazz }))).toEqual(["Filter Ada", "Filter Ben"]);
    expect(names(await listDirectory({ type: "musician", q, genre: jazz, instrument: piano }))).toEqual(["Filter Ada"]);
    expect(names(await listDirectory({ type: "musician", q, skill: mixing }))).toEqual(["Filter Ben"]);
    expect(names(await listDirectory({ type: "musician", q, language: spanish }))).toEqual(["Filter Ada"]);
    expect(names(await listDirectory({ type: "musician", q, location: "PORTUGAL" }))).toEqual(["Filter Ada", "Filter Ben"]);
    expect(names(await listDirectory({ type: "musician", q, location: "berl" }))).toEqual(["Filter Cy"]);
    expect(names(await listDirectory({ type: "musician", q, genre: rock, skill: mixing }))).toEqual([]);
  });

  it("sorts by newest and by lowest rate (profiles without rates last)", async () => {
    const day = (n: number) => new Date(Date.UTC(2024, 0, n));
    await make("audio_engineer", [
      { name: "Sort Alpha", publishedAt: day(1), rates: [{ label: "Mix", amountCents: 50_00, unit: "per_song" }] },
      { name: "Sort Bravo", publishedAt: day(3) },
      {
        name: "Sort Charlie",
        publishedAt: day(2),
        rates: [
          { label: "Day", amountCents: 900_00, unit: "per_day" },
          { label: "Hour", amountCents: 20_00, unit: "per_hour" },
        ],
      },
    ]);
    const q = "sort ";
    expect(names(await listDirectory({ type: "audio_engineer", q, sort: "newest" }))).toEqual(["Sort Bravo", "Sort Charlie", "Sort Alpha"]);
    const byRate = await listDirectory({ type: "audio_engineer", q, sort: "rate" });
    expect(names(byRate)).toEqual(["Sort Charlie", "Sort Alpha", "Sort Bravo"]);
    // The card shows the cheapest rate with its unit.
    expect(byRate.cards[0]!.lowestRate).toEqual({ amountCents: 20_00, currency: "USD", unit: "per_hour" });
    expect(byRate.cards[2]!.lowestRate).toBeNull();
  });

  it("pages 24 at a time and reports an empty page past the end", async () => {
    await make(
      "audio_engineer",
      Array.from({ length: 30 }, (_, i) => ({ name: `Paged ${String(i + 1).padStart(2, "0")}` })),
    );
    const first = await listDirectory({ type: "audio_engineer", q: "paged" });
    expect(first).toMatchObject({ total: 30, pageCount: 2, page: 1 });
    expect(first.cards).toHaveLength(24);
    expect(first.cards[0]!.name).toBe("Paged 01");
    const second = await listDirectory({ type: "audio_engineer", q: "paged", page: 2 });
    expect(names(second)).toEqual(["Paged 25", "Paged 26", "Paged 27", "Paged 28", "Paged 29", "Paged 30"]);
    const beyond = await listDirectory({ type: "audio_engineer", q: "paged", page: 9 });
    expect(beyond).toMatchObject({ total: 30, cards: [] });
  });

  it("lists DJs and songwriters of every provider type by skill name, never artists", async () => {
    const dj = ref("skill", DJ_SKILL);
    const songwriter = ref("skill", SONGWRITER_SKILL);
    await make("musician", [{ name: "Skill Musician DJ", valueIds: [dj] }, { name: "Skill Musician Plain" }]);
    await make("studio", [{ name: "Skill Studio DJ", valueIds: [dj, songwriter] }]);
    await make("music_producer", [{ name: "Skill Producer Draft", valueIds: [dj], status: "draft" }]);
    await make("artist", [{ name: "Skill Artist DJ", valueIds: [dj] }]);
    const djs = await listDirectory({ skillName: DJ_SKILL, q: "skill " });
    expect(djs.cards.map((c) => [c.name, c.type])).toEqual([
      ["Skill Musician DJ", "musician"],
      ["Skill Studio DJ", "studio"],
    ]);
    expect(names(await listDirectory({ skillName: SONGWRITER_SKILL, q: "skill " }))).toEqual(["Skill Studio DJ"]);
  });

  it("cards carry up to three genres, the small hero variant, or an artist's avatar", async () => {
    const genres = ["Ambient", "Blues", "Country", "Disco", "Funk"].map((g) => ref("genre", g));
    const heroKey = "0123456789abcdef0123456789abcdef";
    const [heroId] = await make("artist", [
      { name: "Card Hero", valueIds: genres, heroImg: heroKey },
      { name: "Card Avatar", avatarImg: "/storage/images/avatar/abc/256x256.webp" },
      { name: "Card Plain" },
    ]);
    const list = await listDirectory({ type: "artist", q: "card " });
    const [avatar, hero, plain] = list.cards;
    expect(hero).toMatchObject({ name: "Card Hero", genres: ["Ambient", "Blues", "Country"], moreGenres: 2 });
    expect(hero!.image).toEqual({
      kind: "hero",
      src: `/storage/images/hero/${heroId}-${heroKey}/364x205.webp`,
      srcSet: expect.stringContaining(`/storage/images/hero/${heroId}-${heroKey}/728x410.webp 728w`),
    });
    expect(avatar!.image).toEqual({ kind: "avatar", src: "/storage/images/avatar/abc/256x256.webp", srcSet: null });
    expect(plain!.image).toBeNull();
  });
});

describe("parseDirectoryQuery", () => {
  const rules = { kinds: ["genre", "skill"] as ReferenceKind[], rates: true };
  const parse = (search: string, r = rules) => parseDirectoryQuery(new URLSearchParams(search), r);

  it("reads every parameter", () => {
    expect(parse("q=%20Jazz%20%20Trio%20&location=Lisbon&genre=4&skill=9&sort=rate&page=3")).toEqual({
      q: "Jazz Trio",
      location: "Lisbon",
      filters: { genre: 4, skill: 9, instrument: null, language: null },
      sort: "rate",
      page: 3,
    });
  });

  it("ignores or clamps anything malformed instead of failing", () => {
    expect(parse("genre=-1&skill=abc&instrument=5&sort=drop+table&page=zero")).toEqual({
      q: "",
      location: "",
      filters: { genre: null, skill: null, instrument: null, language: null },
      sort: "name",
      page: 1,
    });
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=99999999999999999999").page).toBe(10_000);
    expect(parse("genre=99999999999").filters.genre).toBeNull();
    expect(parse(`q=${"x".repeat(500)}`).q).toHaveLength(100);
    // No rates on artist pages: the rate sort falls back to the name.
    expect(parse("sort=rate", { kinds: ["genre"], rates: false }).sort).toBe("name");
  });
});

describe("directory routes", () => {
  it("cost a bounded number of statements through the real handler: the same with 3 and with 30 profiles", async () => {
    const server = await startAppServer();
    try {
      const path = `/member/${memberId}/musicians?q=bounded&sort=rate`;
      const statements = () => server.statementsOf(path, { headers: { Cookie: memberCookie } });
      const genre = ref("genre", "Pop");
      const rate = [{ label: "Session", amountCents: 100_00, unit: "per_hour" as const }];
      await make(
        "musician",
        Array.from({ length: 3 }, (_, i) => ({ name: `Bounded ${i}`, valueIds: [genre], rates: rate })),
      );
      await statements(); // Warms the in-memory caches (config, latest version, reference options).
      const few = await statements();
      expect(few.status).toBe(200);
      await make(
        "musician",
        Array.from({ length: 27 }, (_, i) => ({ name: `Bounded More ${i}`, valueIds: [genre], rates: rate })),
      );
      const many = await statements();
      expect(many.status).toBe(200);
      expect(many.count).toBe(few.count);
      // Session and user (1), the layout's bell, What's new and menu profiles (3), the page and its cards (3).
      expect(many.count).toBeLessThanOrEqual(7);
    } finally {
      await server.close();
    }
  });

  it("drops filter values the select does not offer and never fails on a bad query", async () => {
    const retired = ref("genre", "Trance");
    await db().update(referenceValues).set({ retiredAt: new Date() }).where(eq(referenceValues.id, retired));
    invalidateReferenceOptions();
    const skillId = ref("skill", "Mixing");
    const request = requestAs(memberCookie, `/member/${memberId}/artists?genre=${skillId}&skill=${ref("skill", "DJ")}&sort=rate&page=-4&q=%25`);
    const page = await memberDirectoryLoader(await routeArgs(request, { memberId: String(memberId) }), "artist");
    expect(page.query.filters).toEqual({ genre: null, skill: null, instrument: null, language: null });
    expect(page.query).toMatchObject({ sort: "name", page: 1, q: "%" });
    expect(page.sorts).toEqual(["name", "newest"]);
    expect(page.filters.map((f) => f.kind)).toEqual(["genre"]);
    expect(page.filters[0]!.options.some((o) => o.id === retired)).toBe(false);

    const retiredQuery = requestAs(memberCookie, `/member/${memberId}/artists?genre=${retired}`);
    expect((await memberDirectoryLoader(await routeArgs(retiredQuery, { memberId: String(memberId) }), "artist")).query.filters.genre).toBeNull();
  });

  it("offers each type's reference kinds as filters, and the member's own profile of that type", async () => {
    const load = async (type: Parameters<typeof memberDirectoryLoader>[1]) =>
      memberDirectoryLoader(await routeArgs(requestAs(memberCookie, `/member/${memberId}/x`), { memberId: String(memberId) }), type);
    const musicians = await load("musician");
    expect(musicians.filters.map((f) => f.kind)).toEqual(["genre", "skill", "instrument", "language"]);
    expect(musicians.sorts).toEqual(["name", "newest", "rate"]);
    // The demo member has a published musician profile and an artist page (seed.server.ts).
    expect(musicians.own).toMatchObject({ provider: true, profile: { name: "Mia Member", status: "published" } });
    expect((await load("audio_engineer")).own).toEqual({ provider: true, profile: null });
    expect((await load("audio_engineer")).filters.map((f) => f.kind)).toEqual(["genre", "skill"]);
    expect((await load("artist")).own).toMatchObject({
      provider: false,
      artists: [{ name: "Mia and the Midnight Owls", status: "published" }],
    });
  });

  it("lists band memberships among the member's own artist pages", async () => {
    const [other] = await owners(1, true);
    const [bandId] = await insertProfiles(db(), [{ type: "artist", ownerId: memberId, name: "Own Draft Band", username: "own-draft-band", status: "draft" }]);
    const [foreignId] = await insertProfiles(db(), [{ type: "artist", ownerId: other!, name: "Foreign Band", username: "foreign-band" }]);
    await db().execute(sql`insert into artist_members (artist_id, user_id, role) values (${foreignId}, ${memberId}, 'member')`);
    const page = await memberDirectoryLoader(await routeArgs(requestAs(memberCookie, `/member/${memberId}/artists`), { memberId: String(memberId) }), "artist");
    const own = page.own as { artists: Array<{ id: number; status: string }> };
    expect(own.artists.map((a) => a.id)).toEqual(expect.arrayContaining([bandId, foreignId]));
    expect(own.artists.find((a) => a.id === bandId)!.status).toBe("draft");
    // Drafts never reach the directory itself.
    expect(page.list.cards.some((c) => c.id === bandId)).toBe(false);
  });

  it("guards: another member's directory opens in one's own area; admin lists need an admin", async () => {
    const [otherId] = await owners(1, true);
    const otherCookie = await sessionCookieFor(otherId!);
    const thrown = await memberDirectoryLoader(
      await routeArgs(requestAs(otherCookie, `/member/${memberId}/musicians?page=2`), { memberId: String(memberId) }),
      "musician",
    ).catch((e: unknown) => e);
    expect((thrown as Response).headers.get("Location")).toBe(`/member/${otherId}/musicians?page=2`);
    const redirected = await adminDirectoryLoader(await routeArgs(requestAs(memberCookie, "/admin/musicians"), {}), "musician").catch((e: unknown) => e);
    expect(redirected).toBeInstanceOf(Response);
    expect((redirected as Response).headers.get("Location")).toBe("/login");
    const anonymous = await memberDirectoryLoader(
      await routeArgs(requestAs(null, `/member/${memberId}/musicians`), { memberId: String(memberId) }),
      "musician",
    ).catch((e: unknown) => e);
    expect((anonymous as Response).headers.get("Location")).toBe(`/login?redirect=${encodeURIComponent(`/member/${memberId}/musicians`)}`);
  });

  it("admin lists: the type's directory and the skill lists", async () => {
    const page = await adminDirectoryLoader(await routeArgs(requestAs(adminCookie, "/admin/musicians?q=mia"), {}), "musician");
    expect(page).toMatchObject({ area: "admin", adminNav: true, own: null, heading: "Musician Pages" });
    expect(names(page.list)).toContain("Mia Member");
    const djs = await adminSkillListLoader(await routeArgs(requestAs(adminCookie, "/admin/djs"), {}), "djs");
    expect(djs).toMatchObject({ heading: "DJs", type: null });
    expect(djs.filters.map((f) => f.kind)).toEqual(["genre", "instrument"]);
  });

  it("the action creates a profile for intent create-profile and answers 400 to anything else", async () => {
    const post = async (body: Record<string, string>) =>
      memberDirectoryAction(
        await routeArgs(
          new Request(`http://localhost:3999/member/${memberId}/studios`, {
            method: "POST",
            headers: { Cookie: memberCookie },
            body: new URLSearchParams(body),
          }),
          { memberId: String(memberId) },
        ),
        "studio",
      );
    const unknown = (await post({ intent: "delete-everything" })) as { init: { status: number } };
    expect(unknown.init.status).toBe(400);
    const invalid = (await post({ intent: "create-profile", name: "", username: "Bad Name" })) as { init: { status: number } };
    expect(invalid.init.status).toBe(400);
    const created = await post({ intent: "create-profile", name: "Mia's Room", username: "mias-room" });
    expect(created).toBeInstanceOf(Response);
    const [studio] = await db()
      .select()
      .from(profiles)
      .where(and(eq(profiles.type, "studio"), eq(profiles.username, "mias-room")));
    expect(studio).toMatchObject({ ownerId: memberId, status: "draft" });
    expect((created as Response).headers.get("Location")).toBe(`/member/${memberId}/studio-profile/${studio!.id}`);
  });
});

describe("indexes", () => {
  /**
   * Each condition alone, with sequential scans priced out: the planner then uses an index wherever one
   * applies, so this shows the search, location and filter conditions are written the way their indexes
   * are built (a condition no index matches still shows a Seq Scan). Whether the planner picks them also
   * depends on the table's size; `npm run bench` measures the directory at 10,000 profiles.
   */
  async function plan(where: SQL): Promise<string> {
    return db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = await tx.execute(sql`explain select ${profiles.id} from ${profiles} where ${where}`);
      const rows = (result as unknown as { rows: Array<Record<string, string>> }).rows;
      return rows.map((r) => Object.values(r)[0]).join("\n");
    });
  }

  it("search and location use their trigram indexes; a filter uses the value index", async () => {
    expect(await plan(matchesSearch("Mia"))).toContain("profiles_search_trgm_idx");
    expect(await plan(matchesLocation("Nashville"))).toContain("profiles_location_trgm_idx");
    const filter = await plan(carries(ref("genre", "Folk")));
    expect(filter).toContain("profile_reference_values_value_idx");
    // A condition nothing indexes, for contrast: the check itself can fail.
    expect(await plan(sql`lower(${profiles.bio}) like '%folk%'`)).toContain("Seq Scan on profiles");
  });
});
