import { and, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, releaseStatuses, releaseTracks, releases, type ReleaseStatus, type ReleaseType } from "~/db/schema";
import { releaseTag, todayUtc, type ReleaseTag } from "~/modules/catalog/catalog.server";
import { editableArtistCondition } from "./release-access.server";

/**
 * The release lists: a member's (the releases of the artist pages they may edit) and the administrators'
 * (every release). Search by title, UPC or artist; filter by status; paged. One statement each, the total
 * included (a window count), whatever the page size.
 */
export const RELEASE_PAGE_SIZE = 20;

export interface ReleaseListQuery {
  q: string;
  status: ReleaseStatus | null;
  page: number;
}

export function parseReleaseListQuery(params: URLSearchParams): ReleaseListQuery {
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const statusParam = params.get("status");
  const status = statusParam && (releaseStatuses as readonly string[]).includes(statusParam) ? (statusParam as ReleaseStatus) : null;
  const pageParam = Number(params.get("page") ?? 1);
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  return { q, status, page };
}

export interface ReleaseRow {
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
  submittedAt: Date | null;
  createdAt: Date;
  artist: { id: number; name: string; username: string };
}

export interface ReleaseList {
  rows: ReleaseRow[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, "\\$&");
}

async function listReleases(scope: SQL | undefined, query: ReleaseListQuery, today: string): Promise<ReleaseList> {
  const pattern = `%${escapeLike(query.q)}%`;
  const search = query.q
    ? or(ilike(releases.title, pattern), ilike(profiles.name, pattern), sql`${releases.upc} like ${`%${escapeLike(query.q.replace(/[\s-]/g, ""))}%`}`)
    : undefined;
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
      submittedAt: releases.submittedAt,
      createdAt: releases.createdAt,
      artist: { id: profiles.id, name: profiles.name, username: profiles.username },
      trackCount: sql<number>`(select count(*)::int from ${releaseTracks} where ${releaseTracks.releaseId} = ${releases.id})`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(releases)
    .innerJoin(profiles, eq(profiles.id, releases.artistId))
    .where(and(scope, query.status ? eq(releases.status, query.status) : undefined, search))
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .limit(RELEASE_PAGE_SIZE)
    .offset((query.page - 1) * RELEASE_PAGE_SIZE);
  const total = rows[0]?.total ?? 0;
  return {
    rows: rows.map(({ total: _total, ...row }) => ({ ...row, tag: releaseTag(row.status, row.releaseDate, today) })),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / RELEASE_PAGE_SIZE)),
    pageSize: RELEASE_PAGE_SIZE,
  };
}

/** The releases of the artist pages the member owns or may edit. One statement. */
export function listMemberReleasePage(userId: number, query: ReleaseListQuery, today = todayUtc()): Promise<ReleaseList> {
  return listReleases(editableArtistCondition(userId), query, today);
}

/** Every release (administrators). One statement. */
export function listAllReleases(query: ReleaseListQuery, today = todayUtc()): Promise<ReleaseList> {
  return listReleases(undefined, query, today);
}

/** `/member/{m}/releases/{artistSlug}/{releaseSlug}`: the owner's status page. */
export function releaseStatusPath(memberId: number, release: { slug: string; artist: { username: string } }): string {
  return `/member/${memberId}/releases/${encodeURIComponent(release.artist.username)}/${encodeURIComponent(release.slug)}`;
}
