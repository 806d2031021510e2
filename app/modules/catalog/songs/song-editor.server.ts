import { and, eq, ne } from "drizzle-orm";
import { db } from "~/db/client.server";
import { songs, type Song, type User } from "~/db/schema";
import { isUniqueViolation } from "~/db/errors";
import { replaceSongWriters, type SongDetail } from "~/modules/catalog/catalog.server";
import { isrcProblem, iswcProblem, normalizeIsrc, normalizeIswc } from "~/modules/catalog/validators/codes";
import { isSongLocked } from "./song-access.server";
import { percentToBps, type SongDetailsValue, type WritersValue } from "./song-schemas";

/** Field errors (and a status) the song forms show beside their fields. */
export class SongEditError extends Error {
  constructor(
    readonly errors: { form?: string[]; fields?: Record<string, string[]> },
    readonly status = 400,
  ) {
    super(errors.form?.[0] ?? Object.values(errors.fields ?? {})[0]?.[0] ?? "The song could not be saved.");
    this.name = "SongEditError";
  }
}

export const SONG_LOCKED_MESSAGE = "This song is on a release under review or in distribution: it can no longer be changed.";

const fieldError = (field: string, message: string) => new SongEditError({ fields: { [field]: [message] } });

export function assertSongEditable(song: Pick<SongDetail, "releases">) {
  if (isSongLocked(song)) throw new SongEditError({ form: [SONG_LOCKED_MESSAGE] }, 409);
}

/** Checks and normalises the codes: the ISRC (format, unique across the catalogue) and the ISWC (check digit). */
async function checkedCodes(value: SongDetailsValue, songId: number | null): Promise<{ isrc: string | null; iswc: string | null }> {
  const fields: Record<string, string[]> = {};
  let isrc: string | null = null;
  if (value.isrc) {
    const problem = isrcProblem(value.isrc);
    if (problem) fields.isrc = [problem];
    else {
      isrc = normalizeIsrc(value.isrc);
      const [taken] = await db()
        .select({ id: songs.id })
        .from(songs)
        .where(and(eq(songs.isrc, isrc), songId ? ne(songs.id, songId) : undefined))
        .limit(1);
      if (taken) fields.isrc = ["Another recording already uses this ISRC: each recording has its own."];
    }
  }
  let iswc: string | null = null;
  if (value.iswc) {
    const problem = iswcProblem(value.iswc);
    if (problem) fields.iswc = [problem];
    else iswc = normalizeIswc(value.iswc);
  }
  if (Object.keys(fields).length) throw new SongEditError({ fields });
  return { isrc, iswc };
}

function detailColumns(value: SongDetailsValue) {
  return {
    title: value.title,
    version: value.version,
    explicit: value.explicit,
    languageId: value.languageId ?? null,
    lyrics: value.lyrics,
    isCover: value.isCover,
    coverLicenceProvider: value.isCover ? value.coverLicenceProvider || null : null,
    coverLicenceId: value.isCover ? value.coverLicenceId || null : null,
    coverOriginalWriters: value.isCover ? value.coverOriginalWriters || null : null,
  };
}

function uniqueIsrc(error: unknown): SongEditError | null {
  return isUniqueViolation(error) ? fieldError("isrc", "Another recording already uses this ISRC: each recording has its own.") : null;
}

/** A new song of an artist page the actor may edit (checked by the caller). Without an ISRC, submission assigns one. */
export async function createSong(actor: Pick<User, "id">, artistId: number, value: SongDetailsValue): Promise<Song> {
  const codes = await checkedCodes(value, null);
  try {
    const [song] = await db()
      .insert(songs)
      .values({ artistId, ...detailColumns(value), ...codes, createdBy: actor.id })
      .returning();
    return song!;
  } catch (error) {
    throw uniqueIsrc(error) ?? error;
  }
}

export async function updateSong(song: SongDetail, value: SongDetailsValue): Promise<void> {
  assertSongEditable(song);
  const codes = await checkedCodes(value, song.id);
  try {
    await db()
      .update(songs)
      .set({ ...detailColumns(value), ...codes, updatedAt: new Date() })
      .where(eq(songs.id, song.id));
  } catch (error) {
    throw uniqueIsrc(error) ?? error;
  }
}

/** The writers' shares as entered, or the message saying how far off 100 % they are. */
export function writersTotalProblem(value: WritersValue): string | null {
  const total = value.writers.reduce((sum, w) => sum + (percentToBps(w.share) ?? 0), 0);
  if (total === 10_000) return null;
  const off = Math.abs(10_000 - total) / 100;
  return `The shares total ${total / 100}%: ${off}% ${total < 10_000 ? "short of" : "over"} 100%.`;
}

export async function saveWriters(song: SongDetail, value: WritersValue): Promise<void> {
  assertSongEditable(song);
  const problem = writersTotalProblem(value);
  if (problem) throw new SongEditError({ form: [problem] });
  // A writer keeps the member account linked to their row when the name is unchanged.
  const linked = new Map(song.writers.filter((w) => w.userId).map((w) => [w.name.toLowerCase(), w.userId]));
  await replaceSongWriters(
    song.id,
    value.writers.map((w) => ({
      name: w.name,
      shareBps: percentToBps(w.share)!,
      proId: w.proId ?? null,
      ipi: w.ipi || null,
      userId: linked.get(w.name.toLowerCase()) ?? null,
    })),
  );
}
