import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { songs, type Song, type User } from "~/db/schema";
import { replaceSongWriters, type ReleaseDetail } from "~/modules/catalog/catalog.server";
import { audioKey, AudioUploadError, setSongAudio, type AudioFacts } from "~/modules/catalog/songs/audio.server";
import { storage } from "~/modules/storage/storage.server";
import { createSong, SongEditError } from "~/modules/catalog/songs/song-editor.server";
import { SongDetailsSchema } from "~/modules/catalog/songs/song-schemas";
import { EDITABLE_STATUSES } from "./release-options";
import { addTrack, MAX_TRACKS, NOT_EDITABLE_MESSAGE, ReleaseEditError } from "./release-editor.server";
import type { NewTrackValue } from "./release-schemas";

/**
 * A new track made in place (the distribution flow's Tracks step, decision 014): a song of the release's artist
 * with its title, its ISRC or none (one from the platform's range is assigned at submission), its writers and its
 * audio, added at the end of the release. It reuses the song pages' code (createSong, setSongAudio,
 * replaceSongWriters) and the tracks editor's (addTrack), so a track made here is exactly one made there.
 * All or nothing: when the audio is refused, or the track cannot be added, the song just made is deleted again.
 */

/** Writers' names as typed (commas or lines), with equal shares in basis points; the first ones take the remainder. */
export function equalWriterShares(names: readonly string[]): Array<{ name: string; shareBps: number }> {
  const base = Math.floor(10_000 / names.length);
  const extra = 10_000 - base * names.length;
  return names.map((name, index) => ({ name, shareBps: base + (index < extra ? 1 : 0) }));
}

export function writerNames(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((name) => name.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

export async function addNewTrack(
  actor: Pick<User, "id">,
  release: Pick<ReleaseDetail, "id" | "artistId" | "status" | "tracks">,
  value: NewTrackValue,
  audioTmpPath: string | null,
): Promise<{ song: Song; audio: AudioFacts | null }> {
  try {
    // Checked before anything is made: a track the release cannot take makes no song.
    if (!EDITABLE_STATUSES.includes(release.status)) throw new ReleaseEditError({ form: [NOT_EDITABLE_MESSAGE] }, 409);
    if (release.tracks.length >= MAX_TRACKS) throw new ReleaseEditError({ form: [`A release has at most ${MAX_TRACKS} tracks.`] });
    const names = writerNames(value.writers);
    if (names.some((name) => name.length > 200)) throw new ReleaseEditError({ fields: { writers: ["A writer's name can be at most 200 characters."] } });
    const details = SongDetailsSchema.parse({
      title: value.title,
      version: value.version,
      isrc: value.isrcChoice === "have" ? value.isrc : undefined,
      explicit: value.explicit,
    });
    const song = await createSong(actor, release.artistId, details);
    try {
      const audio = audioTmpPath ? await setSongAudio({ id: song.id, audioPath: null, releases: [] }, audioTmpPath) : null;
      if (names.length) await replaceSongWriters(song.id, equalWriterShares(names));
      await addTrack(release, song.id);
      return { song, audio };
    } catch (error) {
      // Nothing points to the new song yet but its writers (deleted with it) and, maybe, its audio file.
      const [gone] = await db().delete(songs).where(eq(songs.id, song.id)).returning({ audioPath: songs.audioPath });
      const key = audioKey(gone?.audioPath ?? null);
      if (key) await storage().delete(key);
      throw error;
    }
  } catch (error) {
    if (error instanceof AudioUploadError) throw new ReleaseEditError({ fields: { audio: [error.message] } }, error.status);
    if (error instanceof SongEditError) throw new ReleaseEditError({ form: error.errors.form, fields: error.errors.fields }, error.status);
    throw error;
  } finally {
    if (audioTmpPath) await fs.rm(audioTmpPath, { force: true });
  }
}
