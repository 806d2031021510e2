import { randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { songs } from "~/db/schema";
import { storage } from "~/modules/storage/storage.server";
import { audioContentType } from "./songs/audio.server";
import { pcmWav } from "./songs/wav-file";

/**
 * The demo songs' audio (docs/demo-data.md "Catalogue"): every demo song that shows audio gets a real file,
 * generated at seed time, so playing it, delivering it or handing it to post-production has something to download.
 * A short tone in the properties the songs record (WAV, 24-bit, 48 kHz, stereo), its pitch per song, stored through
 * app/modules/storage under the key a song's upload gets (`audio/<songId>-<random>.wav`). The recorded duration stays
 * the track's (the file is an excerpt: a full-length master per song would make every seeded database hundreds of MB).
 */

export const DEMO_TONE_SECONDS = 2;
const SAMPLE_RATE = 48_000;

/** A sine tone as a 24-bit PCM WAV file, faded in and out so it does not click. */
export function toneWav(frequency: number, seconds = DEMO_TONE_SECONDS): Buffer {
  const frames = Math.round(SAMPLE_RATE * seconds);
  const fade = Math.round(SAMPLE_RATE * 0.05);
  const peak = 0.3 * (2 ** 23 - 1);
  return pcmWav({
    bitDepth: 24,
    sampleRate: SAMPLE_RATE,
    channels: 2,
    frames,
    sample: (i) => Math.round(peak * Math.min(1, i / fade, (frames - 1 - i) / fade) * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE)),
  });
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
