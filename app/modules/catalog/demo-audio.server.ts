import { randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { songs } from "~/db/schema";
import { storage } from "~/modules/storage/storage.server";
import { audioContentType } from "./songs/audio.server";

/**
 * The demo songs' audio (docs/demo-data.md "Catalogue"): every demo song that shows audio gets a real file,
 * generated at seed time, so playing it, delivering it or handing it to post-production has something to download.
 * A short tone in the properties the songs record (WAV, 24-bit, 48 kHz, stereo), its pitch per song, stored through
 * app/modules/storage under the key a song's upload gets (`audio/<songId>-<random>.wav`). The recorded duration stays
 * the track's (the file is an excerpt: a full-length master per song would make every seeded database hundreds of MB).
 */

export const DEMO_TONE_SECONDS = 2;
const SAMPLE_RATE = 48_000;
const CHANNELS = 2;
const BYTES_PER_SAMPLE = 3;

/** A sine tone as a 24-bit PCM WAV file (RIFF header, fmt chunk, data chunk), faded in and out so it does not click. */
export function toneWav(frequency: number, seconds = DEMO_TONE_SECONDS): Buffer {
  const frames = Math.round(SAMPLE_RATE * seconds);
  const blockAlign = CHANNELS * BYTES_PER_SAMPLE;
  const data = Buffer.alloc(frames * blockAlign);
  const fade = Math.round(SAMPLE_RATE * 0.05);
  const peak = 0.3 * (2 ** 23 - 1);
  for (let i = 0; i < frames; i++) {
    const envelope = Math.min(1, i / fade, (frames - 1 - i) / fade);
    const sample = Math.round(peak * envelope * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE));
    for (let c = 0; c < CHANNELS; c++) data.writeIntLE(sample, i * blockAlign + c * BYTES_PER_SAMPLE, BYTES_PER_SAMPLE);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(CHANNELS, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(BYTES_PER_SAMPLE * 8, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Stores a tone for each of the artist page's songs that records audio properties but no file (the demo songs; a
 * second seed finds them stored and changes nothing). Inside the seed's transaction: a file stored for a transaction
 * that then rolls back is left unreferenced, as an abandoned upload is.
 */
export async function seedDemoAudio(tx: Db, artistId: number): Promise<void> {
  const silent = await tx
    .select({ id: songs.id })
    .from(songs)
    .where(and(eq(songs.artistId, artistId), isNull(songs.audioPath), eq(songs.audioFormat, "wav"), isNotNull(songs.durationSeconds)))
    .orderBy(songs.id);
  for (const [i, song] of silent.entries()) {
    // A = 220 Hz, then up a whole tone per song: each demo song sounds different.
    const key = `audio/${song.id}-${randomBytes(16).toString("hex")}.wav`;
    await storage().put(key, toneWav(220 * 2 ** ((2 * i) / 12)), { contentType: audioContentType("wav") });
    await tx.update(songs).set({ audioPath: key }).where(eq(songs.id, song.id));
  }
}
