import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { artistMembers, profiles, releaseTracks, releases, songCredits, songWriters, songs, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createSignedMember } from "../../../tests/helpers/factories";
import {
  findRelease,
  findReleaseBySlugs,
  findSong,
  listMemberReleases,
  listMemberSongs,
  listVerifiedCreditsOfUser,
  releaseHistory,
  releaseTag,
  replaceSongWriters,
  WriterSharesError,
  writerSharesProblem,
} from "./catalog.server";

useTestDatabase();

let mia: User;
let admin: User;
let stranger: User;
let artistId: number;

/** The database's error code (SQLSTATE), whichever driver raised it. */
async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code;
  }
  return undefined;
}

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  admin = (await findUserByEmail("admin@example.com"))!;
  stranger = await createSignedMember("Stan");
  artistId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
});

describe("releaseTag", () => {
  it("shows approved as ready for distribution, and in distribution as upcoming until the date", () => {
    expect(releaseTag("approved", "2027-01-01", "2026-11-24")).toBe("tag_ready_for_distribution");
    expect(releaseTag("in_distribution", "2026-11-25", "2026-11-24")).toBe("upcoming_release");
    expect(releaseTag("in_distribution", "2026-11-24", "2026-11-24")).toBe("published");
    expect(releaseTag("draft", null, "2026-11-24")).toBe("draft");
    expect(releaseTag("pending_approval", "2027-01-01", "2026-11-24")).toBe("pending_approval");
  });
});

describe("listMemberReleases", () => {
  it("lists the releases of the member's artist pages, newest first, in one statement", async () => {
    const { result, count } = await countQueries(() => listMemberReleases(mia.id, { today: "2026-04-01" }));
    expect(count).toBe(1);
    expect(result.total).toBe(3);
    expect(result.rows.map((r) => [r.title, r.trackCount, r.tag])).toEqual([
      ["Winter Platforms", 7, "draft"],
      ["Northbound", 1, "upcoming_release"],
      ["Late Trains", 4, "published"],
    ]);
    expect(result.rows[0]!.artist).toMatchObject({ id: artistId, username: "midnight-owls" });

    const page = await listMemberReleases(mia.id, { limit: 1, offset: 1 });
    expect([page.total, page.rows.map((r) => r.title)]).toEqual([3, ["Northbound"]]);
  });

  it("includes band members, and nobody else", async () => {
    expect(await listMemberReleases(stranger.id)).toEqual({ rows: [], total: 0 });
    const bandMember = await createSignedMember("Bea");
    await db().insert(artistMembers).values({ artistId, userId: bandMember.id, role: "member" });
    expect((await listMemberReleases(bandMember.id)).total).toBe(3);
  });
});

describe("listMemberSongs", () => {
  it("lists the member's songs by title with audio and release counts, in one statement", async () => {
    const { result, count } = await countQueries(() => listMemberSongs(mia.id, { limit: 100 }));
    expect(count).toBe(1);
    expect(result.total).toBe(12);
    const titles = result.rows.map((s) => s.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(
      result.rows
        .filter((s) => !s.hasAudio)
        .map((s) => s.title)
        .sort(),
    ).toEqual(["Last Departure", "Morning Freight"]);
    expect(result.rows.find((s) => s.title === "Nashville Rain")).toMatchObject({ isCover: true, releaseCount: 1, isrc: "USBL12600004" });
    expect(await listMemberSongs(stranger.id)).toEqual({ rows: [], total: 0 });
  });
});

describe("findRelease / findReleaseBySlugs", () => {
  it("reads a release with its artist, reference names and ordered tracks in two statements", async () => {
    const { result, count } = await countQueries(() => findReleaseBySlugs("Midnight-Owls", "LATE-TRAINS", "2026-11-24"));
    expect(count).toBe(2);
    expect(result).toMatchObject({
      title: "Late Trains",
      type: "ep",
      status: "in_distribution",
      tag: "published",
      primaryGenre: "Indie",
      secondaryGenre: "Folk",
      language: "English",
      artist: { id: artistId, ownerId: mia.id },
    });
    expect(result!.tracks.map((t) => t.position)).toEqual([1, 2, 3, 4]);
    expect((await findRelease(result!.id))!.tracks.map((t) => t.title)).toEqual(result!.tracks.map((t) => t.title));
  });

  it("answers null for an unknown release or artist", async () => {
    expect(await findRelease(987_654)).toBeNull();
    expect(await findReleaseBySlugs("midnight-owls", "no-such-release")).toBeNull();
    expect(await findReleaseBySlugs("mia", "late-trains")).toBeNull();
  });

  it("keeps a song on several releases, once per release, at a unique position", async () => {
    const album = (await findReleaseBySlugs("midnight-owls", "winter-platforms"))!;
    const northbound = (await findReleaseBySlugs("midnight-owls", "northbound"))!;
    const songId = northbound.tracks[0]!.songId;
    await db().insert(releaseTracks).values({ releaseId: album.id, songId, position: 8 });
    expect((await findRelease(album.id))!.tracks.at(-1)).toMatchObject({ position: 8, title: "Northbound" });
    expect((await findSong(songId))!.releases.map((r) => r.title)).toEqual(["Northbound", "Winter Platforms"]);
    expect(await sqlState(db().insert(releaseTracks).values({ releaseId: album.id, songId, position: 9 }))).toBe("23505");
    expect(await sqlState(db().insert(releaseTracks).values({ releaseId: album.id, songId: album.tracks[0]!.songId, position: 2 }))).toBe("23505");
    await db().delete(releaseTracks).where(eq(releaseTracks.position, 8));
  });
});

describe("releaseHistory", () => {
  it("lists who changed the status, when and why, oldest first", async () => {
    const release = (await findReleaseBySlugs("midnight-owls", "late-trains"))!;
    const history = await releaseHistory(release.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.actor?.id])).toEqual([
      [null, "draft", mia.id],
      ["draft", "pending_approval", mia.id],
      ["pending_approval", "approved", admin.id],
      ["approved", "in_distribution", admin.id],
    ]);
    expect(history[2]!.reason).toBeTruthy();
  });
});

describe("findSong and credits", () => {
  it("reads a song with its writers (with PRO), credits and releases", async () => {
    const [row] = await db().select({ id: songs.id }).from(songs).where(eq(songs.isrc, "USBL12600001"));
    const { result: song, count } = await countQueries(() => findSong(row!.id));
    expect(count).toBe(4);
    expect(song).toMatchObject({ title: "Late Trains", iswc: "T-345.246.800-3", language: "English", artist: { username: "midnight-owls" } });
    expect(song!.audio).toEqual({ format: "wav", bitDepth: 24, sampleRate: 48_000, channels: 2 });
    expect(song!.writers.map((w) => [w.name, w.shareBps, w.pro?.code])).toEqual([
      ["Mia Member", 5000, "BMI"],
      ["Paul Producer", 5000, "ASCAP"],
    ]);
    expect(song!.credits).toMatchObject([{ role: "producer", email: "producer@example.com", status: "accepted" }]);
    expect(song!.releases).toMatchObject([{ title: "Late Trains", position: 1 }]);
    expect(await findSong(987_654)).toBeNull();
  });

  it("lists a member's verified credits with the release each links to", async () => {
    const producer = await createSignedMember("Pat");
    const [row] = await db().select({ id: songs.id }).from(songs).where(eq(songs.isrc, "USBL12600005"));
    await db()
      .insert(songCredits)
      .values([
        {
          songId: row!.id,
          role: "featured_artist",
          email: "pat@example.test",
          userId: producer.id,
          status: "accepted",
          verifiedAt: new Date(),
          expiresAt: new Date(),
        },
        { songId: row!.id, role: "producer", email: "pat@example.test", userId: producer.id, status: "pending", expiresAt: new Date() },
      ]);
    const credits = await listVerifiedCreditsOfUser(producer.id, ["in_distribution"]);
    expect(credits).toMatchObject([
      { role: "featured_artist", songTitle: "Northbound", release: { slug: "northbound" }, artist: { username: "midnight-owls" } },
    ]);
    // A second live invitation of the same person and role on the song is refused.
    expect(await sqlState(db().insert(songCredits).values({ songId: row!.id, role: "producer", email: "PAT@example.test", expiresAt: new Date() }))).toBe(
      "23505",
    );
  });
});

describe("writers' shares", () => {
  it("must total 10,000 basis points", () => {
    expect(writerSharesProblem([5000, 5000])).toBeNull();
    expect(writerSharesProblem([10_000])).toBeNull();
    expect(writerSharesProblem([])).toMatch(/at least one/);
    expect(writerSharesProblem([5000, 4999])).toMatch(/99\.99%/);
    expect(writerSharesProblem([10_000, 1])).toMatch(/between|100\.01%/);
    expect(writerSharesProblem([5000.5, 4999.5])).toMatch(/between/);
  });

  it("replaces a song's writers, refusing a wrong total", async () => {
    const [row] = await db().select({ id: songs.id }).from(songs).where(eq(songs.isrc, "USBL12600003"));
    await expect(replaceSongWriters(row!.id, [{ name: "Mia Member", shareBps: 6000 }])).rejects.toBeInstanceOf(WriterSharesError);
    await replaceSongWriters(row!.id, [
      { name: " Mia Member ", userId: mia.id, shareBps: 6000, ipi: "00523419871" },
      { name: "Ann Other", shareBps: 4000 },
    ]);
    const writers = (await findSong(row!.id))!.writers;
    expect(writers.map((w) => [w.name, w.shareBps, w.position])).toEqual([
      ["Mia Member", 6000, 0],
      ["Ann Other", 4000, 1],
    ]);
    // The database still refuses a share out of range, whoever writes it.
    expect(await sqlState(db().insert(songWriters).values({ songId: row!.id, name: "X", shareBps: 10_001 }))).toBe("23514");
  });
});

describe("constraints", () => {
  it("keeps ISRCs and UPCs unique (UPC leading zeros ignored) and well-formed", async () => {
    const base = { artistId, title: "Dup" };
    expect(
      await sqlState(
        db()
          .insert(songs)
          .values({ ...base, isrc: "USBL12600001" }),
      ),
    ).toBe("23505");
    expect(
      await sqlState(
        db()
          .insert(songs)
          .values({ ...base, isrc: "US-BL1-26-00099" }),
      ),
    ).toBe("23514");
    expect(
      await sqlState(
        db()
          .insert(releases)
          .values({ ...base, slug: "dup-1", type: "single", upc: "0196589000019" }),
      ),
    ).toBe("23505");
    expect(
      await sqlState(
        db()
          .insert(releases)
          .values({ ...base, slug: "late-trains", type: "single" }),
      ),
    ).toBe("23505");
    expect(
      await sqlState(
        db()
          .insert(releases)
          .values({ ...base, slug: "dup-2", type: "mixtape" as "single" }),
      ),
    ).toBe("23514");
    expect(
      await sqlState(
        db()
          .insert(releases)
          .values({ ...base, slug: "dup-3", type: "single", status: "shipped" as "draft" }),
      ),
    ).toBe("23514");
    // Audio properties go together.
    expect(
      await sqlState(
        db()
          .insert(songs)
          .values({ ...base, audioFormat: "wav" }),
      ),
    ).toBe("23514");
  });
});
