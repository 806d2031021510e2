import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, songs, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findSong } from "~/modules/catalog/catalog.server";
import { wav } from "../../../../tests/helpers/audio";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { createSignedMember } from "../../../../tests/helpers/factories";
import { storage } from "~/modules/storage/storage.server";
import { AudioUploadError, audioKey, readAudioFacts, setSongAudio } from "./audio.server";
import { requireMemberSong } from "./song-access.server";
import { createSong, saveWriters, SongEditError, updateSong, writersTotalProblem } from "./song-editor.server";
import { listAllSongs, listMemberSongPage } from "./song-list.server";
import { percentToBps, SongDetailsSchema, WritersSchema } from "./song-schemas";

useTestDatabase();

let mia: User;
let admin: User;
let stranger: User;
let artistId: number;

const details = (overrides: Record<string, unknown> = {}) => SongDetailsSchema.parse({ title: "Night Bus", ...overrides });

async function tempFile(name: string, content: Buffer | string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "backline-audio-"));
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return file;
}

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  admin = (await findUserByEmail("admin@example.com"))!;
  stranger = await createSignedMember("Stan");
  artistId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
});

describe("schemas", () => {
  it("reads shares as percentages with up to two decimals", () => {
    expect(percentToBps("50")).toBe(5000);
    expect(percentToBps("33.33")).toBe(3333);
    expect(percentToBps("0,5")).toBe(50);
    expect(percentToBps("100")).toBe(10_000);
    expect(percentToBps("100.01")).toBeNull();
    expect(percentToBps("12.345")).toBeNull();
    expect(percentToBps("abc")).toBeNull();
  });

  it("drops trailing blank writer rows only, and says how far off 100 % the shares are", () => {
    const parsed = WritersSchema.parse({ writers: [{ name: "Mia", share: "60" }, { name: "Paul", share: "30" }, {}, {}] });
    expect(parsed.writers).toHaveLength(2);
    expect(writersTotalProblem(parsed)).toBe("The shares total 90%: 10% short of 100%.");
    expect(
      writersTotalProblem(
        WritersSchema.parse({
          writers: [
            { name: "Mia", share: "60" },
            { name: "Paul", share: "50" },
          ],
        }),
      ),
    ).toBe("The shares total 110%: 10% over 100%.");
    expect(
      writersTotalProblem(
        WritersSchema.parse({
          writers: [
            { name: "Mia", share: "66.67" },
            { name: "Paul", share: "33.33" },
          ],
        }),
      ),
    ).toBeNull();
    expect(WritersSchema.safeParse({ writers: [{}, {}] }).success).toBe(false);
    expect(WritersSchema.safeParse({ writers: [{ name: "Mia", share: "100", ipi: "123" }] }).success).toBe(false);
  });
});

describe("editing", () => {
  it("creates a song; refuses a malformed or taken ISRC and a wrong ISWC check digit, beside each field", async () => {
    const song = await createSong(mia, artistId, details({ title: "Night Bus", isrc: "us-bl1-26-99999", iswc: "T-345.246.800-3" }));
    expect(song.isrc).toBe("USBL12699999");
    expect(song.iswc).toBe("T-345.246.800-3");

    const taken = await createSong(mia, artistId, details({ isrc: "USBL12600001" })).catch((e) => e);
    expect(taken).toBeInstanceOf(SongEditError);
    expect(taken.errors.fields.isrc[0]).toContain("Another recording already uses this ISRC");
    const bad = await createSong(mia, artistId, details({ isrc: "XX1", iswc: "T-345.246.800-4" })).catch((e) => e);
    expect(Object.keys(bad.errors.fields).sort()).toEqual(["isrc", "iswc"]);
    // A song keeps its own ISRC when saved again.
    await updateSong((await findSong(song.id))!, details({ title: "Night Bus (2)", isrc: "USBL12699999" }));
    expect((await findSong(song.id))!.title).toBe("Night Bus (2)");
  });

  it("saves writers with shares in basis points and refuses totals other than 100 %", async () => {
    const song = await createSong(mia, artistId, details({ title: "Writers Test" }));
    const detail = (await findSong(song.id))!;
    await expect(saveWriters(detail, WritersSchema.parse({ writers: [{ name: "Mia", share: "50" }] }))).rejects.toThrow("short of 100%");
    await saveWriters(
      detail,
      WritersSchema.parse({
        writers: [
          { name: "Mia Member", share: "66.67", ipi: "00123456789" },
          { name: "Paul Producer", share: "33.33" },
        ],
      }),
    );
    expect((await findSong(song.id))!.writers.map((w) => [w.name, w.shareBps, w.ipi])).toEqual([
      ["Mia Member", 6667, "00123456789"],
      ["Paul Producer", 3333, null],
    ]);
  });

  it("locks a song that is on a release in distribution", async () => {
    const lateTrains = (await db().select({ id: songs.id }).from(songs).where(eq(songs.isrc, "USBL12600001")))[0]!.id;
    const song = (await findSong(lateTrains))!;
    await expect(updateSong(song, details({ title: "Changed" }))).rejects.toMatchObject({ status: 409 });
  });

  it("opens a song to its artist's editors and admins; 404 to anyone else", async () => {
    const song = await createSong(mia, artistId, details({ title: "Access Test" }));
    expect((await requireMemberSong(mia, String(song.id))).rights).toBe("owner");
    expect((await requireMemberSong(admin, String(song.id))).rights).toBe("admin");
    await expect(requireMemberSong(stranger, String(song.id))).rejects.toMatchObject({ init: { status: 404 } });
    await expect(requireMemberSong(mia, "abc")).rejects.toMatchObject({ init: { status: 404 } });
  });

  it("lists the member's songs with search and paging, and all songs for admins, in one statement", async () => {
    const mine = await listMemberSongPage(mia.id, { q: "", page: 1 });
    expect(mine.total).toBeGreaterThanOrEqual(5);
    expect((await listMemberSongPage(mia.id, { q: "USBL12600005", page: 1 })).rows.map((r) => r.title)).toEqual(["Northbound"]);
    expect((await listMemberSongPage(stranger.id, { q: "", page: 1 })).total).toBe(0);
    expect((await listAllSongs({ q: "northbound", page: 1 })).rows[0]).toMatchObject({ title: "Northbound", writerCount: 2, releaseCount: 1, hasAudio: true });
  });
});

describe("audio", () => {
  it("reads a real WAV's properties and duration; refuses under 16-bit / 44.1 kHz and what is not audio", async () => {
    await expect(readAudioFacts(await tempFile("ok.wav", wav({ seconds: 2 })))).resolves.toEqual({
      format: "wav",
      bitDepth: 16,
      sampleRate: 44_100,
      channels: 2,
      durationSeconds: 2,
    });
    await expect(readAudioFacts(await tempFile("hi.wav", wav({ bitDepth: 24, sampleRate: 96_000, seconds: 1 })))).resolves.toMatchObject({
      bitDepth: 24,
      sampleRate: 96_000,
    });
    await expect(readAudioFacts(await tempFile("low.wav", wav({ bitDepth: 8 })))).rejects.toThrow("8-bit / 44.1 kHz: stores need at least 16-bit / 44.1 kHz");
    await expect(readAudioFacts(await tempFile("slow.wav", wav({ sampleRate: 22_050 })))).rejects.toThrow("16-bit / 22.05 kHz");
    await expect(readAudioFacts(await tempFile("text.wav", "this is not audio at all, only text"))).rejects.toBeInstanceOf(AudioUploadError);
  });

  it("stores the audio under the song, updates its properties and replaces the previous file", async () => {
    const created = await createSong(mia, artistId, details({ title: "Audio Test" }));
    const first = await setSongAudio((await findSong(created.id))!, await tempFile("a.wav", wav({ seconds: 3 })));
    expect(first.durationSeconds).toBe(3);
    const stored = (await findSong(created.id))!;
    expect(stored).toMatchObject({ audioFormat: "wav", audioBitDepth: 16, audioSampleRate: 44_100, audioChannels: 2, durationSeconds: 3 });
    const firstKey = audioKey(stored.audioPath)!;
    expect(firstKey).toMatch(new RegExp(`^audio/${created.id}-[0-9a-f]{32}\\.wav$`));
    expect((await storage().stat(firstKey))!.size).toBe(wav({ seconds: 3 }).length);

    await setSongAudio(stored, await tempFile("b.wav", wav({ seconds: 4 })));
    const replaced = (await findSong(created.id))!;
    expect(replaced.durationSeconds).toBe(4);
    expect(await storage().exists(firstKey)).toBe(false);

    // A refused file changes nothing.
    await expect(setSongAudio(replaced, await tempFile("c.wav", wav({ bitDepth: 8 })))).rejects.toBeInstanceOf(AudioUploadError);
    expect((await findSong(created.id))!.audioPath).toBe(replaced.audioPath);
  });

  it("only accepts paths of its own files", () => {
    expect(audioKey(`audio/12-${"b".repeat(32)}.flac`)).toBe(`audio/12-${"b".repeat(32)}.flac`);
    expect(audioKey("audio/../secret.wav")).toBeNull();
    expect(audioKey("/etc/passwd")).toBeNull();
    expect(audioKey(null)).toBeNull();
  });
});
