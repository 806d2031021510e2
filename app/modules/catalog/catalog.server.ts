import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Db } from "~/db/client.server";
import {
  artistMembers,
  profiles,
  referenceValues,
  releaseStatusHistory,
  releaseTracks,
  releases,
  songCredits,
  songWriters,
  songs,
  users,
  type AudioFormat,
  type CreditRole,
  type CreditStatus,
  type Release,
  type ReleaseStatus,
  type ReleaseType,
  type Song,
} from "~/db/schema";

/**
 * The catalogue's reads (releases, their ordered tracks, songs with writers and credits) and the one rule
 * the database leaves to the services: a song's writers' shares total 10,000 basis points.
 * Every read is a fixed number of statements whatever the size of the lists (noted on each).
 */

/* ------------------------------------------------------------------ display tags */

/**
 * The tag a release shows (spec: tag_ready_for_distribution, upcoming_release; the general published):
 * approved shows as ready for distribution; in distribution, upcoming before its date and published from it.
 */
export type ReleaseTag = Exclude<ReleaseStatus, "approved" | "in_distribution"> | "tag_ready_for_distribution" | "upcoming_release" | "published";

/** Today as YYYY-MM-DD in UTC (release dates are calendar dates). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function releaseTag(status: ReleaseStatus, releaseDate: string | null, today = todayUtc()): ReleaseTag {
  if (status === "approved") return "tag_ready_for_distribution";
  if (status === "in_distribution") return releaseDate && releaseDate <= today ? "published" : "upcoming_release";
  return status;
}

/* ------------------------------------------------------------------ shared shapes */

export interface ArtistRef {
  id: number;
  name: string;
  username: string;
}

export interface AudioProperties {
  format: AudioFormat;
  bitDepth: number;
  sampleRate: number;
  channels: number;
}

/**
 * A song has audio once its properties were read from a file (they are stored together or not at all).
 * The demo songs carry properties without a stored file (`path` null): they count as having audio.
 */
function audioOf(song: Pick<Song, "audioFormat" | "audioBitDepth" | "audioSampleRate" | "audioChannels">): AudioProperties | null {
  if (!song.audioFormat || song.audioBitDepth == null || song.audioSampleRate == null || song.audioChannels == null) return null;
  return { format: song.audioFormat, bitDepth: song.audioBitDepth, sampleRate: song.audioSampleRate, channels: song.audioChannels };
}

const artistColumns = { id: profiles.id, name: profiles.name, username: profiles.username };

/** The artist pages a member belongs to (the owner's row is in artist_members too). */
function memberArtistIds(userId: number) {
  return db().select({ id: artistMembers.artistId }).from(artistMembers).where(eq(artistMembers.userId, userId));
}

/* ------------------------------------------------------------------ lists */

export interface ReleaseListItem {
  id: number;
  title: string;
  slug: string;
  type: ReleaseType;
  upc: string | null;
  releaseDate: string | null;
  status: ReleaseStatus;
  tag: ReleaseTag;
  coverArtPath: string | null;
  trackCount: number;
  createdAt: Date;
  artist: ArtistRef;
}

export interface ListOptions {
  limit?: number;
  offset?: number;
  /** YYYY-MM-DD for the tags; today (UTC) by default. */
  today?: string;
}

/** The releases of every artist page the member belongs to, newest first, with the total. One statement. */
export async function listMemberReleases(userId: number, options: ListOptions = {}): Promise<{ rows: ReleaseListItem[]; total: number }> {
  const { limit = 50, offset = 0, today = todayUtc() } = options;
  const rows = await db()
    .select({
      id: releases.id,
      title: releases.title,
      slug: releases.slug,
      type: releases.type,
      upc: releases.upc,
      releaseDate: releases.releaseDate,
      status: releases.status,
      coverArtPath: releases.coverArtPath,
      createdAt: releases.createdAt,
      artist: artistColumns,
      trackCount: sql<number>`(select count(*)::int from ${releaseTracks} where ${releaseTracks.releaseId} = ${releases.id})`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.artistId))
    .where(inArray(releases.artistId, memberArtistIds(userId)))
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(limit)
    .offset(offset);
  return {
    rows: rows.map(({ total: _total, ...row }) => ({ ...row, tag: releaseTag(row.status, row.releaseDate, today) })),
    total: rows[0]?.total ?? 0,
  };
}

export interface SongListItem {
  id: number;
  title: string;
  version: string;
  isrc: string | null;
  iswc: string | null;
  durationSeconds: number | null;
  explicit: boolean;
  isCover: boolean;
  hasAudio: boolean;
  releaseCount: number;
  artist: ArtistRef;
}

/** The songs of every artist page the member belongs to, by title, with the total. One statement. */
export async function listMemberSongs(userId: number, options: Omit<ListOptions, "today"> = {}): Promise<{ rows: SongListItem[]; total: number }> {
  const { limit = 50, offset = 0 } = options;
  const rows = await db()
    .select({
      id: songs.id,
      title: songs.title,
      version: songs.version,
      isrc: songs.isrc,
      iswc: songs.iswc,
      durationSeconds: songs.durationSeconds,
      explicit: songs.explicit,
      isCover: songs.isCover,
      hasAudio: sql<boolean>`${songs.audioFormat} is not null`,
      releaseCount: sql<number>`(select count(*)::int from ${releaseTracks} where ${releaseTracks.songId} = ${songs.id})`,
      artist: artistColumns,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(inArray(songs.artistId, memberArtistIds(userId)))
    .orderBy(sql`lower(${songs.title})`, asc(songs.version), asc(songs.id))
    .limit(limit)
    .offset(offset);
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
}

/* ------------------------------------------------------------------ a release */

export interface TrackItem {
  position: number;
  songId: number;
  title: string;
  version: string;
  isrc: string | null;
  iswc: string | null;
  durationSeconds: number | null;
  explicit: boolean;
  isCover: boolean;
  coverLicenceProvider: string | null;
  coverLicenceId: string | null;
  audioPath: string | null;
  audio: AudioProperties | null;
}

export interface ReleaseDetail extends Release {
  tag: ReleaseTag;
  artist: ArtistRef & { ownerId: number };
  primaryGenre: string | null;
  secondaryGenre: string | null;
  language: string | null;
  /** In position order. */
  tracks: TrackItem[];
}

const primaryGenre = alias(referenceValues, "primary_genre");
const secondaryGenre = alias(referenceValues, "secondary_genre");
const releaseLanguage = alias(referenceValues, "release_language");

async function loadRelease(where: SQL | undefined, today: string): Promise<ReleaseDetail | null> {
  const [row] = await db()
    .select({
      release: releases,
      artist: { ...artistColumns, ownerId: profiles.ownerId },
      primaryGenre: primaryGenre.name,
      secondaryGenre: secondaryGenre.name,
      language: releaseLanguage.name,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.artistId))
    .leftJoin(primaryGenre, eq(primaryGenre.id, releases.primaryGenreId))
    .leftJoin(secondaryGenre, eq(secondaryGenre.id, releases.secondaryGenreId))
    .leftJoin(releaseLanguage, eq(releaseLanguage.id, releases.languageId))
    .where(where)
    .limit(1);
  if (!row) return null;
  const tracks = await loadTracks(row.release.id);
  return {
    ...row.release,
    tag: releaseTag(row.release.status, row.release.releaseDate, today),
    artist: row.artist,
    primaryGenre: row.primaryGenre,
    secondaryGenre: row.secondaryGenre,
    language: row.language,
    tracks,
  };
}

/** A release's tracks in order. One statement. */
export async function loadTracks(releaseId: number): Promise<TrackItem[]> {
  const rows = await db()
    .select({ position: releaseTracks.position, song: songs })
    .from(releaseTracks)
    .innerJoin(songs, eq(songs.id, releaseTracks.songId))
    .where(eq(releaseTracks.releaseId, releaseId))
    .orderBy(asc(releaseTracks.position));
  return rows.map(({ position, song }) => ({
    position,
    songId: song.id,
    title: song.title,
    version: song.version,
    isrc: song.isrc,
    iswc: song.iswc,
    durationSeconds: song.durationSeconds,
    explicit: song.explicit,
    isCover: song.isCover,
    coverLicenceProvider: song.coverLicenceProvider,
    coverLicenceId: song.coverLicenceId,
    audioPath: song.audioPath,
    audio: audioOf(song),
  }));
}

/** A release with its artist, reference names and ordered tracks. Two statements. */
export function findRelease(id: number, today = todayUtc()): Promise<ReleaseDetail | null> {
  return loadRelease(eq(releases.id, id), today);
}

/** By the URL's slugs (`{artistSlug}/{releaseSlug}`), both case-insensitively. Two statements. */
export function findReleaseBySlugs(artistSlug: string, releaseSlug: string, today = todayUtc()): Promise<ReleaseDetail | null> {
  return loadRelease(
    and(
      eq(profiles.type, "artist"),
      eq(sql`lower(${profiles.username})`, artistSlug.toLowerCase()),
      eq(sql`lower(${releases.slug})`, releaseSlug.toLowerCase()),
    ),
    today,
  );
}

export interface StatusChangeItem {
  id: number;
  fromStatus: ReleaseStatus | null;
  toStatus: ReleaseStatus;
  reason: string | null;
  createdAt: Date;
  actor: { id: number; name: string; lastName: string } | null;
}

/** Who changed the release's status, when and why, oldest first. One statement. */
export async function releaseHistory(releaseId: number): Promise<StatusChangeItem[]> {
  const rows = await db()
    .select({
      id: releaseStatusHistory.id,
      fromStatus: releaseStatusHistory.fromStatus,
      toStatus: releaseStatusHistory.toStatus,
      reason: releaseStatusHistory.reason,
      createdAt: releaseStatusHistory.createdAt,
      actorId: users.id,
      actorName: users.name,
      actorLastName: users.lastName,
    })
    .from(releaseStatusHistory)
    .leftJoin(users, eq(users.id, releaseStatusHistory.actorId))
    .where(eq(releaseStatusHistory.releaseId, releaseId))
    .orderBy(asc(releaseStatusHistory.createdAt), asc(releaseStatusHistory.id));
  return rows.map(({ actorId, actorName, actorLastName, ...row }) => ({
    ...row,
    actor: actorId == null ? null : { id: actorId, name: actorName!, lastName: actorLastName! },
  }));
}

/* ------------------------------------------------------------------ songs: writers and credits */

export interface WriterItem {
  id: number;
  name: string;
  userId: number | null;
  shareBps: number;
  ipi: string | null;
  pro: { id: number; name: string; code: string | null } | null;
  position: number;
}

export interface CreditItem {
  id: string;
  role: CreditRole;
  email: string;
  status: CreditStatus;
  verifiedAt: Date | null;
  expiresAt: Date;
  /** The credited member, when known. */
  user: { id: number; name: string; lastName: string } | null;
  /** A pending invitation's addressee when the address is a member's (verified) account: named before they answer. */
  invitee: { id: number; name: string; lastName: string } | null;
}

export interface SongPeople {
  writers: WriterItem[];
  credits: CreditItem[];
}

/** Writers (in order, with their PRO) and credits of several songs. Two statements whatever the count. */
export async function loadSongPeople(songIds: readonly number[]): Promise<Map<number, SongPeople>> {
  const people = new Map<number, SongPeople>(songIds.map((id) => [id, { writers: [], credits: [] }]));
  if (songIds.length === 0) return people;
  const ids = [...new Set(songIds)];
  const [writers, credits] = await Promise.all([
    db()
      .select({
        songId: songWriters.songId,
        id: songWriters.id,
        name: songWriters.name,
        userId: songWriters.userId,
        shareBps: songWriters.shareBps,
        ipi: songWriters.ipi,
        position: songWriters.position,
        proId: referenceValues.id,
        proName: referenceValues.name,
        proCode: referenceValues.code,
      })
      .from(songWriters)
      .leftJoin(referenceValues, eq(referenceValues.id, songWriters.proId))
      .where(inArray(songWriters.songId, ids))
      .orderBy(asc(songWriters.songId), asc(songWriters.position), asc(songWriters.id)),
    db()
      .select({
        songId: songCredits.songId,
        id: songCredits.id,
        role: songCredits.role,
        email: songCredits.email,
        status: songCredits.status,
        verifiedAt: songCredits.verifiedAt,
        expiresAt: songCredits.expiresAt,
        userId: users.id,
        userName: users.name,
        userLastName: users.lastName,
        invitee: sql<{ id: number; name: string; lastName: string } | null>`(select json_build_object('id', u.id, 'name', u.name, 'lastName', u.last_name)
          from ${users} u where ${songCredits.status} = 'pending' and lower(u.email) = lower(${songCredits.email}) and u.email_verified_at is not null)`,
      })
      .from(songCredits)
      .leftJoin(users, eq(users.id, songCredits.userId))
      .where(inArray(songCredits.songId, ids))
      .orderBy(asc(songCredits.songId), asc(songCredits.role), asc(songCredits.createdAt)),
  ]);
  for (const { songId, proId, proName, proCode, ...writer } of writers) {
    people.get(songId)!.writers.push({ ...writer, pro: proId == null ? null : { id: proId, name: proName!, code: proCode } });
  }
  for (const { songId, userId, userName, userLastName, ...credit } of credits) {
    people.get(songId)!.credits.push({ ...credit, user: userId == null ? null : { id: userId, name: userName!, lastName: userLastName! } });
  }
  return people;
}

export interface SongDetail extends Song {
  artist: ArtistRef & { ownerId: number };
  language: string | null;
  audio: AudioProperties | null;
  writers: WriterItem[];
  credits: CreditItem[];
  /** The releases the song is on. */
  releases: Array<{ id: number; title: string; slug: string; status: ReleaseStatus; position: number }>;
}

const songLanguage = alias(referenceValues, "song_language");

/** A song with its artist, writers, credits and the releases it is on. Four statements. */
export async function findSong(id: number): Promise<SongDetail | null> {
  const [row] = await db()
    .select({ song: songs, artist: { ...artistColumns, ownerId: profiles.ownerId }, language: songLanguage.name })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .leftJoin(songLanguage, eq(songLanguage.id, songs.languageId))
    .where(eq(songs.id, id))
    .limit(1);
  if (!row) return null;
  const [people, onReleases] = await Promise.all([
    loadSongPeople([id]),
    db()
      .select({ id: releases.id, title: releases.title, slug: releases.slug, status: releases.status, position: releaseTracks.position })
      .from(releaseTracks)
      .innerJoin(releases, eq(releases.id, releaseTracks.releaseId))
      .where(eq(releaseTracks.songId, id))
      .orderBy(asc(releases.releaseDate), asc(releases.id)),
  ]);
  const { writers, credits } = people.get(id)!;
  return { ...row.song, artist: row.artist, language: row.language, audio: audioOf(row.song), writers, credits, releases: onReleases };
}

export interface VerifiedCreditItem {
  role: CreditRole;
  songId: number;
  songTitle: string;
  release: { id: number; title: string; slug: string; status: ReleaseStatus; releaseDate: string | null };
  artist: ArtistRef;
}

/**
 * A member's verified credits, one per release the credited song is on (the credited member's provider
 * profile links each to its release page). `statuses` narrows the releases (e.g. ["in_distribution"] on public
 * pages). One statement.
 */
export async function listVerifiedCreditsOfUser(userId: number, statuses?: readonly ReleaseStatus[]): Promise<VerifiedCreditItem[]> {
  const rows = await db()
    .select({
      role: songCredits.role,
      songId: songs.id,
      songTitle: songs.title,
      release: { id: releases.id, title: releases.title, slug: releases.slug, status: releases.status, releaseDate: releases.releaseDate },
      artist: artistColumns,
    })
    .from(songCredits)
    .innerJoin(songs, eq(songs.id, songCredits.songId))
    .innerJoin(releaseTracks, eq(releaseTracks.songId, songs.id))
    .innerJoin(releases, eq(releases.id, releaseTracks.releaseId))
    .innerJoin(profiles, eq(profiles.id, releases.artistId))
    .where(and(eq(songCredits.userId, userId), eq(songCredits.status, "accepted"), statuses ? inArray(releases.status, [...statuses]) : undefined))
    .orderBy(desc(releases.releaseDate), asc(releaseTracks.position));
  return rows;
}

/* ------------------------------------------------------------------ writers' shares */

export const FULL_SHARE_BPS = 10_000;

export interface WriterInput {
  name: string;
  userId?: number | null;
  shareBps: number;
  proId?: number | null;
  ipi?: string | null;
}

/** Null when the shares are whole basis points, each 1..10,000, totalling exactly 10,000; else the message. */
export function writerSharesProblem(shares: readonly number[]): string | null {
  if (shares.length === 0) return "Add at least one writer.";
  if (shares.some((s) => !Number.isInteger(s) || s <= 0 || s > FULL_SHARE_BPS)) {
    return "Each writer's share is between 0.01% and 100%.";
  }
  const total = shares.reduce((sum, s) => sum + s, 0);
  return total === FULL_SHARE_BPS ? null : `The writers' shares total ${total / 100}%; they must total 100%.`;
}

export class WriterSharesError extends Error {}

/** Replaces a song's writers, in the given order, refusing shares that do not total 10,000. Two statements. */
export async function replaceSongWriters(songId: number, writers: readonly WriterInput[], database: Db = db()): Promise<void> {
  const problem = writerSharesProblem(writers.map((w) => w.shareBps));
  if (problem) throw new WriterSharesError(problem);
  await database.transaction(async (tx) => {
    await tx.delete(songWriters).where(eq(songWriters.songId, songId));
    await tx.insert(songWriters).values(
      writers.map((w, position) => ({
        songId,
        name: w.name.trim(),
        userId: w.userId ?? null,
        shareBps: w.shareBps,
        proId: w.proId ?? null,
        ipi: w.ipi ?? null,
        position,
      })),
    );
  });
}
