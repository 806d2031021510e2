import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, releases, songs, songWriters, type User } from "~/db/schema";
import { findRelease, todayUtc } from "~/modules/catalog/catalog.server";
import { audioKey } from "~/modules/catalog/songs/audio.server";
import { storage } from "~/modules/storage/storage.server";
import { wav } from "../../../../tests/helpers/audio";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSignedMember } from "../../../../tests/helpers/factories";
import { addNewTrack, equalWriterShares, writerNames } from "./new-track.server";
import { createRelease } from "./release-editor.server";
import { NewTrackSchema, ReleaseDetailsSchema } from "./release-schemas";

useTestDatabase();

let owner: User;
let artistId: number;

beforeAll(async () => {
  owner = await createSignedMember("Nia");
  const [artist] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: owner.id, name: "Nia Nights", username: `nia-${Date.now().toString(36)}`, status: "published" })
    .returning();
  artistId = artist!.id;
});

async function draft(title: string) {
  const release = await createRelease(owner, artistId, ReleaseDetailsSchema.parse({ title, type: "single" }));
  return (await findRelease(release.id, todayUtc()))!;
}

/** An upload's temporary file, as receiveAudioUpload leaves it. */
async function tmpAudio(content: Buffer): Promise<string> {
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "backline-new-track-")), "upload");
  await fs.writeFile(file, content);
  return file;
}

const value = (input: Record<string, unknown>) => NewTrackSchema.parse(input);
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );
const songCount = async () => (await db().select({ id: songs.id }).from(songs).where(eq(songs.artistId, artistId))).length;

describe("a new track in the distribution flow", () => {
  it("splits writers equally, the first ones taking the remainder", () => {
    expect(writerNames(" Nia  Nights, Sam Stone\nAl ,, ")).toEqual(["Nia Nights", "Sam Stone", "Al"]);
    expect(equalWriterShares(["A", "B", "C"]).map((w) => w.shareBps)).toEqual([3334, 3333, 3333]);
    expect(equalWriterShares(["A"]).map((w) => w.shareBps)).toEqual([10_000]);
    expect(NewTrackSchema.safeParse({ title: "X", isrcChoice: "have" }).error?.issues[0]).toMatchObject({
      path: ["isrc"],
      message: "Enter the ISRC, or choose to have one assigned.",
    });
  });

  it("makes the song with its writers and audio and adds it at the end; its ISRC is the member's or none (assigned at submission)", async () => {
    const release = await draft("Harbour Nights");
    const upload = await tmpAudio(wav({ seconds: 2 }));
    const { song, audio } = await addNewTrack(
      owner,
      release,
      value({ title: "Low Tide", version: "Radio Edit", isrcChoice: "assign", isrc: "US-S1Z-99-00001", explicit: true, writers: "Nia Nights, Sam Stone, Al" }),
      upload,
    );
    expect(song).toMatchObject({ title: "Low Tide", version: "Radio Edit", isrc: null, explicit: true, artistId });
    expect(audio).toMatchObject({ format: "wav", bitDepth: 16, sampleRate: 44_100, durationSeconds: 2 });
    expect(await exists(upload)).toBe(false);
    const [stored] = await db().select().from(songs).where(eq(songs.id, song.id));
    expect(stored).toMatchObject({ audioFormat: "wav", durationSeconds: 2 });
    expect(await storage().exists(audioKey(stored!.audioPath)!)).toBe(true);
    const writers = await db()
      .select({ name: songWriters.name, share: songWriters.shareBps })
      .from(songWriters)
      .where(eq(songWriters.songId, song.id))
      .orderBy(songWriters.position);
    expect(writers).toEqual([
      { name: "Nia Nights", share: 3334 },
      { name: "Sam Stone", share: 3333 },
      { name: "Al", share: 3333 },
    ]);

    const after = (await findRelease(release.id, todayUtc()))!;
    const second = await addNewTrack(owner, after, value({ title: "Open Water", isrcChoice: "have", isrc: "us-s1z-99-00077" }), null);
    expect(second.song.isrc).toBe("USS1Z9900077");
    expect(second.audio).toBeNull();
    expect((await findRelease(release.id, todayUtc()))!.tracks.map((t) => [t.position, t.title])).toEqual([
      [1, "Low Tide"],
      [2, "Open Water"],
    ]);
  });

  it("refuses bad audio, a taken ISRC or a release under review beside the field, leaving no song and no file behind", async () => {
    const release = await draft("Refusals");
    const before = await songCount();
    const eightBit = await tmpAudio(wav({ bitDepth: 8 }));
    await expect(addNewTrack(owner, release, value({ title: "Too Thin" }), eightBit)).rejects.toMatchObject({
      status: 400,
      errors: { fields: { audio: [expect.stringContaining("16-bit")] } },
    });
    expect(await exists(eightBit)).toBe(false);
    await expect(addNewTrack(owner, release, value({ title: "Taken", isrcChoice: "have", isrc: "USS1Z9900077" }), null)).rejects.toMatchObject({
      errors: { fields: { isrc: ["Another recording already uses this ISRC: each recording has its own."] } },
    });
    await expect(addNewTrack(owner, release, value({ title: "Long Name", writers: "x".repeat(201) }), null)).rejects.toMatchObject({
      errors: { fields: { writers: [expect.any(String)] } },
    });
    await db().update(releases).set({ status: "pending_approval" }).where(eq(releases.id, release.id));
    const locked = (await findRelease(release.id, todayUtc()))!;
    const upload = await tmpAudio(wav());
    await expect(addNewTrack(owner, locked, value({ title: "Late" }), upload)).rejects.toMatchObject({ status: 409 });
    expect(await exists(upload)).toBe(false);
    expect(await songCount()).toBe(before);
    expect((await findRelease(release.id, todayUtc()))!.tracks).toEqual([]);
    // No stray audio file of a refused song.
    const stored = await storage().list("audio/");
    const kept = new Set((await db().select({ p: songs.audioPath }).from(songs)).map((r) => r.p));
    expect(stored.filter((key) => key.endsWith(".wav") && !kept.has(key))).toEqual([]);
  });
});
