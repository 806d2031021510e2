import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { parseFile } from "music-metadata";
import { db } from "~/db/client.server";
import { songs, type AudioFormat } from "~/db/schema";
import { env } from "~/env.server";
import type { SongDetail } from "~/modules/catalog/catalog.server";
import { receiveStreamedUpload, StreamedUploadError, type StreamedUpload } from "~/modules/security/streamed-upload.server";
import { assertSongEditable } from "./song-editor.server";

/**
 * A song's audio: WAV or FLAC only, streamed to disk while it arrives (busboy: an album's masters never
 * sit in memory), capped at AUDIO_MAX_BYTES, then read by music-metadata for what the file really is (the
 * name and the browser's type prove nothing): below 16-bit / 44.1 kHz is refused, and the duration comes
 * from the file. Stored as `audio/<songId>-<random>.<ext>` under STORAGE_DIR; replacing deletes the old one.
 */

export const AUDIO_MAX_BYTES = 250 * 1024 * 1024;
export const AUDIO_MIN_BIT_DEPTH = 16;
export const AUDIO_MIN_SAMPLE_RATE = 44_100;

export class AudioUploadError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "AudioUploadError";
  }
}

export function audioRoot(): string {
  return path.resolve(env().STORAGE_DIR, "audio");
}

/** The file on disk behind a song's recorded audio path; null when it is not one of ours. */
export function audioFilePath(recorded: string | null): string | null {
  if (!recorded || !/^audio\/[1-9][0-9]*-[0-9a-f]{32}\.(wav|flac)$/.test(recorded)) return null;
  return path.resolve(env().STORAGE_DIR, recorded);
}

export type ReceivedUpload = StreamedUpload;

/** Streams a multipart body's `audio` file to a temporary file and collects its (small) fields. */
export async function receiveAudioUpload(request: Request): Promise<ReceivedUpload> {
  try {
    return await receiveStreamedUpload(request, {
      fileField: "audio",
      maxBytes: AUDIO_MAX_BYTES,
      tmpDir: path.join(audioRoot(), "tmp"),
      messages: {
        noFile: "Choose a WAV or FLAC file.",
        unreadable: "The upload was interrupted or could not be read. Choose the file again.",
        tooLarge: `The audio file can be at most ${AUDIO_MAX_BYTES / 1024 / 1024} MB.`,
      },
    });
  } catch (error) {
    if (error instanceof StreamedUploadError) throw new AudioUploadError(error.message, error.status);
    throw error;
  }
}

export interface AudioFacts {
  format: AudioFormat;
  bitDepth: number;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
}

/** What the file really is, or the reason it is refused. */
export async function readAudioFacts(file: string): Promise<AudioFacts> {
  let metadata: Awaited<ReturnType<typeof parseFile>>;
  try {
    metadata = await parseFile(file, { duration: true, skipCovers: true });
  } catch {
    throw new AudioUploadError("This file is not a WAV or FLAC audio file.");
  }
  const { container, codec, bitsPerSample, sampleRate, numberOfChannels, duration } = metadata.format;
  const format: AudioFormat | null = container === "WAVE" && /PCM/i.test(codec ?? "") ? "wav" : container === "FLAC" ? "flac" : null;
  if (!format) throw new AudioUploadError("Only WAV (PCM) or FLAC audio is accepted: stores need lossless masters.");
  if (!bitsPerSample || !sampleRate || !numberOfChannels) throw new AudioUploadError("This file's audio properties cannot be read.");
  if (bitsPerSample < AUDIO_MIN_BIT_DEPTH || sampleRate < AUDIO_MIN_SAMPLE_RATE) {
    throw new AudioUploadError(
      `This file is ${bitsPerSample}-bit / ${(sampleRate / 1000).toLocaleString("en-US")} kHz: stores need at least 16-bit / 44.1 kHz.`,
    );
  }
  const durationSeconds = Math.round(duration ?? 0);
  if (durationSeconds < 1) throw new AudioUploadError("This file has no audio (its length is under a second).");
  return { format, bitDepth: bitsPerSample, sampleRate, channels: numberOfChannels, durationSeconds };
}

/** Checks the received file and makes it the song's audio; the temporary file is gone either way. */
export async function setSongAudio(song: Pick<SongDetail, "id" | "audioPath" | "releases">, tmpPath: string): Promise<AudioFacts> {
  try {
    assertSongEditable(song);
    const facts = await readAudioFacts(tmpPath);
    const recorded = `audio/${song.id}-${randomBytes(16).toString("hex")}.${facts.format}`;
    const target = path.resolve(env().STORAGE_DIR, recorded);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // The upload's temporary file is under the same folder (one rename); a file from elsewhere is copied.
    await fs.rename(tmpPath, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EXDEV") throw error;
      await fs.copyFile(tmpPath, target);
    });
    await db()
      .update(songs)
      .set({
        audioPath: recorded,
        audioFormat: facts.format,
        audioBitDepth: facts.bitDepth,
        audioSampleRate: facts.sampleRate,
        audioChannels: facts.channels,
        durationSeconds: facts.durationSeconds,
        updatedAt: new Date(),
      })
      .where(eq(songs.id, song.id));
    const previous = audioFilePath(song.audioPath);
    if (previous) await fs.rm(previous, { force: true });
    return facts;
  } finally {
    await fs.rm(tmpPath, { force: true });
  }
}
