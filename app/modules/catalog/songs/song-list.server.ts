import { and, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, releaseTracks, songs, songWriters } from "~/db/schema";
import { editableArtistCondition } from "~/modules/catalog/releases/release-access.server";

/** The songs lists (member: the artist pages they edit; admin: all), searched and paged. One statement. */

export const SONG_PAGE_SIZE = 20;

export interface SongListQuery {
  q: string;
  page: number;
}

export function parseSongListQuery(params: URLSearchParams): SongListQuery {
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const pageParam = Number(params.get("page") ?? 1);
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  return { q, page };
}

export interface SongRow {
  id: number;
  title: string;
  version: string;
  isrc: string | null;
  durationSeconds: number | null;
  explicit: boolean;
  isCover: boolean;
  hasAudio: boolean;
  writerCount: number;
  releaseCount: number;
  artist: { id: number; name: string; username: string };
}

export interface SongList {
  rows: SongRow[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, "\\$&");
}

async function listSongs(scope: SQL | undefined, query: SongListQuery): Promise<SongList> {
  const pattern = `%${escapeLike(query.q)}%`;
  const search = query.q
    ? or(ilike(songs.title, pattern), ilike(profiles.name, pattern), sql`${songs.isrc} like ${`%${escapeLike(query.q.replace(/[\s-]/g, "").toUpperCase())}%`}`)
    : undefined;
  const rows = await db()
    .select({
      id: songs.id,
      title: songs.title,
      version: songs.version,
      isrc: songs.isrc,
      durationSeconds: songs.durationSeconds,
      explicit: songs.explicit,
      isCover: songs.isCover,
      hasAudio: sql<boolean>`(${songs.audioFormat} is not null)`,
      writerCount: sql<number>`(select count(*)::int from ${songWriters} where ${songWriters.songId} = ${songs.id})`,
      releaseCount: sql<number>`(select count(*)::int from ${releaseTracks} where ${releaseTracks.songId} = ${songs.id})`,
      artist: { id: profiles.id, name: profiles.name, username: profiles.username },
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(and(scope, search))
    .orderBy(desc(songs.createdAt), desc(songs.id))
    .limit(SONG_PAGE_SIZE)
    .offset((query.page - 1) * SONG_PAGE_SIZE);
  const total = rows[0]?.total ?? 0;
  return {
    rows: rows.map(({ total: _total, ...row }) => row),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / SONG_PAGE_SIZE)),
    pageSize: SONG_PAGE_SIZE,
  };
}

export function listMemberSongPage(userId: number, query: SongListQuery): Promise<SongList> {
  return listSongs(editableArtistCondition(userId), query);
}

export function listAllSongs(query: SongListQuery): Promise<SongList> {
  return listSongs(undefined, query);
}
