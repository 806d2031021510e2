import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { releaseStatusHistory, releaseTracks, releases, songCredits, songWriters, songs, users } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { findReleaseBySlugs, loadSongPeople } from "./catalog.server";
import { releaseProblems } from "./validators/release-rules";
import { iswcProblem, isrcProblem, upcProblem } from "./validators/codes";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { storage } from "~/modules/storage/storage.server";
import { DEMO_TONE_SECONDS } from "./demo-audio.server";
import { audioKey, readAudioFacts } from "./songs/audio.server";

useTestDatabase();

const catalogTables = [releases, releaseStatusHistory, releaseTracks, songs, songWriters, songCredits] as const;
const counts = () =>
  Promise.all(
    catalogTables.map(
      async (t) =>
        (
          await db()
            .select({ n: sql<number>`count(*)::int` })
            .from(t)
        )[0]!.n,
    ),
  );

const release = async (slug: string) => (await findReleaseBySlugs("midnight-owls", slug, "2026-11-24"))!;

describe("the demo catalogue", () => {
  it("is seeded exactly as DEMO.md writes it", async () => {
    await seedDemoData();
    const rows = await db().select().from(releases).orderBy(asc(releases.releaseDate));
    expect(rows.map((r) => [r.title, r.type, r.upc, r.releaseDate, r.status])).toEqual([
      ["Late Trains", "ep", "196589000019", "2026-03-06", "in_distribution"],
      ["Northbound", "single", "196589000026", "2026-06-12", "in_distribution"],
      ["Winter Platforms", "album", null, "2027-02-05", "draft"],
    ]);
    for (const r of rows) {
      if (r.upc) expect(upcProblem(r.upc)).toBeNull();
      expect(r).toMatchObject({ parentalAdvisory: false, previouslyReleased: false, coverArtPath: null, territories: ["WW"] });
    }

    const lateTrains = await release("late-trains");
    expect(lateTrains.artist).toMatchObject({ username: "midnight-owls", name: "Mia and the Midnight Owls" });
    expect([lateTrains.primaryGenre, lateTrains.secondaryGenre, lateTrains.language]).toEqual(["Indie", "Folk", "English"]);
    expect(lateTrains.tracks.map((t) => [t.position, t.title, t.isrc, t.iswc])).toEqual([
      [1, "Late Trains", "USBL12600001", "T-345.246.800-3"],
      [2, "Early Mornings", "USBL12600002", "T-345.246.801-4"],
      [3, "Platform Nine", "USBL12600003", "T-345.246.802-5"],
      [4, "Nashville Rain", "USBL12600004", null],
    ]);
    const northbound = await release("northbound");
    expect(northbound.tracks.map((t) => [t.position, t.title, t.isrc, t.iswc])).toEqual([[1, "Northbound", "USBL12600005", "T-345.246.803-6"]]);
    for (const t of [...lateTrains.tracks, ...northbound.tracks]) {
      expect(isrcProblem(t.isrc!)).toBeNull();
      if (t.iswc) expect(iswcProblem(t.iswc)).toBeNull();
      // Audio properties, and a real (short) file in them, stored.
      expect(t.audio).toEqual({ format: "wav", bitDepth: 24, sampleRate: 48_000, channels: 2 });
      expect(audioKey(t.audioPath)).toBe(t.audioPath);
      expect(t.durationSeconds).toBeGreaterThan(0);
    }
    const stored = await storage().read(audioKey(lateTrains.tracks[0]!.audioPath)!);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "demo-audio-")), "late-trains.wav");
    await fs.writeFile(file, Buffer.concat(chunks));
    // What an upload of it would be found to be (the product's own check of an audio file).
    expect(await readAudioFacts(file)).toEqual({ format: "wav", bitDepth: 24, sampleRate: 48_000, channels: 2, durationSeconds: DEMO_TONE_SECONDS });

    const nashville = lateTrains.tracks[3]!;
    expect(nashville).toMatchObject({ isCover: true, coverLicenceProvider: expect.any(String), coverLicenceId: expect.any(String) });
    expect(lateTrains.tracks.filter((t) => t.isCover)).toHaveLength(1);

    const people = await loadSongPeople([...lateTrains.tracks, ...northbound.tracks].map((t) => t.songId));
    const writersOf = (title: string) => {
      const track = [...lateTrains.tracks, ...northbound.tracks].find((t) => t.title === title)!;
      return people.get(track.songId)!.writers.map((w) => [w.name, w.shareBps, w.pro?.code ?? null, w.ipi]);
    };
    expect(writersOf("Late Trains")).toEqual([
      ["Mia Member", 5000, "BMI", "00523419871"],
      ["Paul Producer", 5000, "ASCAP", "00611887234"],
    ]);
    expect(writersOf("Early Mornings")).toEqual([["Mia Member", 10_000, "BMI", "00523419871"]]);
    expect(writersOf("Platform Nine")).toEqual([["Mia Member", 10_000, "BMI", "00523419871"]]);
    expect(writersOf("Northbound")).toEqual([
      ["Mia Member", 7000, "BMI", "00523419871"],
      ["Paul Producer", 3000, "ASCAP", "00611887234"],
    ]);
    // The cover's writers are the original song's; no member is among them.
    expect(writersOf("Nashville Rain").map(([name, share]) => [name, share])).toEqual([
      ["Loretta Vance", 5000],
      ["Hal Brennan", 5000],
    ]);
    for (const { writers } of people.values()) expect(writers.reduce((sum, w) => sum + w.shareBps, 0)).toBe(10_000);
    const [mia] = await db().select({ id: users.id }).from(users).where(eq(users.email, "member@example.com"));
    const miaRows = [...people.values()].flatMap((p) => p.writers).filter((w) => w.name === "Mia Member");
    expect(miaRows.length).toBe(4);
    for (const w of miaRows) expect(w.userId).toBe(mia!.id);

    // Paul Producer: the verified producer of Late Trains and Northbound, and of nothing else.
    const credits = [...people.entries()].flatMap(([songId, p]) => p.credits.map((c) => ({ songId, ...c })));
    expect(credits).toHaveLength(2);
    const creditedTitles = credits.map((c) => [...lateTrains.tracks, ...northbound.tracks].find((t) => t.songId === c.songId)!.title);
    expect(creditedTitles.sort()).toEqual(["Late Trains", "Northbound"]);
    for (const c of credits) {
      expect(c).toMatchObject({ role: "producer", email: "producer@example.com", status: "accepted" });
      expect(c.verifiedAt).toBeInstanceOf(Date);
    }

    const history = await db()
      .select()
      .from(releaseStatusHistory)
      .where(eq(releaseStatusHistory.releaseId, lateTrains.id))
      .orderBy(asc(releaseStatusHistory.createdAt));
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "draft"],
      ["draft", "pending_approval"],
      ["pending_approval", "approved"],
      ["approved", "in_distribution"],
    ]);
  });

  it("has Winter Platforms as an incomplete draft: 7 tracks, two of them without audio", async () => {
    await seedDemoData();
    const album = await release("winter-platforms");
    expect(album).toMatchObject({ status: "draft", type: "album", upc: null, tag: "draft" });
    expect(album.tracks.map((t) => t.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const silent = album.tracks.filter((t) => !t.audio);
    expect(silent.map((t) => t.position)).toEqual([6, 7]);
    for (const t of silent) expect(t.durationSeconds).toBeNull();
    const raw = await db().select().from(songs).where(eq(songs.id, silent[0]!.songId));
    expect(raw[0]).toMatchObject({ audioFormat: null, audioBitDepth: null, audioSampleRate: null, audioChannels: null, audioPath: null });

    // The preflight finds exactly the missing audio (a new release, 73 days ahead of this day).
    const people = await loadSongPeople(album.tracks.map((t) => t.songId));
    const facts = (r: typeof album) => ({
      type: r.type,
      explicit: r.parentalAdvisory,
      releaseDate: r.releaseDate,
      previouslyReleased: r.previouslyReleased,
      previousReleaseDate: r.previousReleaseDate,
      tracks: r.tracks.map((t) => ({
        title: t.title,
        durationSeconds: t.durationSeconds,
        explicit: t.explicit,
        hasAudio: Boolean(t.audio),
        writerCount: people.get(t.songId)?.writers.length ?? 0,
        isCover: t.isCover,
        hasMechanicalLicence: Boolean(t.coverLicenceId),
      })),
    });
    expect(releaseProblems(facts(album), "2026-11-24").map((p) => [p.code, p.field])).toEqual([
      ["track_audio_missing", "tracks[5].audio"],
      ["track_audio_missing", "tracks[6].audio"],
    ]);
  });

  it("is idempotent, restores what was removed, and links Paul's writer rows and credits to his account", async () => {
    await seedDemoData();
    const before = await counts();
    await seedDemoData();
    expect(await counts()).toEqual(before);
    const paulCredits = () => db().select({ userId: songCredits.userId }).from(songCredits).where(eq(songCredits.email, "producer@example.com"));
    const [paul] = await db().select({ id: users.id }).from(users).where(eq(users.email, "producer@example.com"));
    const paulId = paul!.id;

    // An administrator removes Northbound (release, then song).
    const northbound = await release("northbound");
    await db().delete(releases).where(eq(releases.id, northbound.id));
    await db().delete(songs).where(eq(songs.isrc, "USBL12600005"));
    expect(await findReleaseBySlugs("midnight-owls", "northbound")).toBeNull();

    await seedDemoData();
    expect(await counts()).toEqual(before);
    const restored = await release("northbound");
    expect(restored.tracks.map((t) => t.isrc)).toEqual(["USBL12600005"]);
    expect((await paulCredits()).map((c) => c.userId)).toEqual([paulId, paulId]);
    const paulWriterRows = await db()
      .select({ userId: songWriters.userId })
      .from(songWriters)
      .where(and(eq(songWriters.name, "Paul Producer")));
    expect(paulWriterRows.map((w) => w.userId)).toEqual([paulId, paulId]);
  });
});
