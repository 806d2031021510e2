import { and, asc, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  matchAliases,
  memberProIdentities,
  postings,
  profiles,
  releases,
  releaseTracks,
  songs,
  songWriters,
  splitParties,
  splitVersions,
  type SplitPartyStatus,
} from "~/db/schema";
import type { StatementKind } from "./statement-line";
import { normaliseIpi, normaliseIsrc, normaliseIswc, normaliseUpc } from "./fields";
import type { StatementLine } from "./statement-line";

/**
 * What an import matches its lines against (docs/money.md "Matching"), read once per import: the catalogue's
 * codes, the members' IPI numbers, the remembered aliases and every confirmed split. Lookups are then
 * in memory, so the number of statements an import runs does not grow with its lines.
 */

export interface SplitPartyShare {
  partyId: string;
  userId: number | null;
  status: SplitPartyStatus;
  shareBps: number;
  recoupMicros: bigint;
}

export interface SplitVersionShares {
  id: number;
  effectiveFrom: string;
  parties: SplitPartyShare[];
}

export interface SongShares {
  songId: number;
  /** The artist page's owner: paid 100 % without a split, and a declined party's share. */
  ownerId: number;
  /** Confirmed versions, by effective date ascending. */
  versions: SplitVersionShares[];
}

export type LineMatch =
  | { type: "song"; songId: number; by: "isrc" | "alias" }
  | { type: "release"; releaseId: number; songIds: number[]; by: "upc" | "alias" }
  | { type: "member"; memberId: number; songId: number | null; by: "ipi-iswc" | "ipi-title" | "ipi" | "alias" };

export interface MatchIndex {
  match(line: StatementLine): LineMatch | null;
  song(songId: number): SongShares | undefined;
  /** A release's tracks in order (an album line is spread over them). */
  releaseSongs(releaseId: number): number[];
  /** The recoup already taken under each version with a recoup (version id -> micro-units). */
  recoupedSoFar: Map<number, bigint>;
}

const titleKey = (title: string) => title.trim().toLowerCase().replace(/\s+/g, " ");

export async function loadMatchIndex(tx: Db, kind: StatementKind): Promise<MatchIndex> {
  // One after another: inside the import's transaction these share one connection.
  const songRows = await tx
    .select({ id: songs.id, isrc: songs.isrc, iswc: songs.iswc, title: songs.title, ownerId: profiles.ownerId })
    .from(songs)
    .innerJoin(profiles, eq(profiles.id, songs.artistId));
  const releaseRows = await tx.select({ id: releases.id, upc: releases.upc }).from(releases).where(isNotNull(releases.upc));
  const trackRows = await tx
    .select({ releaseId: releaseTracks.releaseId, songId: releaseTracks.songId })
    .from(releaseTracks)
    .orderBy(asc(releaseTracks.releaseId), asc(releaseTracks.position));
  const identityRows = kind === "pro" ? await tx.select({ userId: memberProIdentities.userId, ipi: memberProIdentities.ipiCae }).from(memberProIdentities) : [];
  const aliasRows = await tx.select().from(matchAliases).where(eq(matchAliases.kind, kind));
  const versionRows = await tx
    .select({
      versionId: splitVersions.id,
      songId: splitVersions.songId,
      effectiveFrom: splitVersions.effectiveFrom,
      partyId: splitParties.id,
      userId: splitParties.userId,
      status: splitParties.status,
      shareBps: splitParties.shareBps,
      recoupMicros: splitParties.recoupMicros,
    })
    .from(splitVersions)
    .innerJoin(splitParties, eq(splitParties.versionId, splitVersions.id))
    .where(eq(splitVersions.status, "confirmed"))
    .orderBy(asc(splitVersions.songId), asc(splitVersions.effectiveFrom), asc(splitParties.position));

  const recoupVersionIds = [...new Set(versionRows.filter((r) => r.recoupMicros > 0n).map((r) => r.versionId))];
  const recoupRows = recoupVersionIds.length
    ? await tx
        .select({ versionId: postings.splitVersionId, recouped: sql<string>`coalesce(sum(${postings.recoupMicros}), 0)::text` })
        .from(postings)
        .where(and(inArray(postings.splitVersionId, recoupVersionIds), ne(postings.recoupMicros, 0n)))
        .groupBy(postings.splitVersionId)
    : [];
  const recoupedSoFar = new Map<number, bigint>(recoupVersionIds.map((id) => [id, 0n]));
  for (const row of recoupRows) recoupedSoFar.set(row.versionId!, BigInt(row.recouped));

  const songById = new Map<number, SongShares>();
  const songByIsrc = new Map<string, number>();
  const songByIswc = new Map<string, number>();
  for (const row of songRows) {
    songById.set(row.id, { songId: row.id, ownerId: row.ownerId, versions: [] });
    const isrc = row.isrc ? normaliseIsrc(row.isrc) : null;
    if (isrc) songByIsrc.set(isrc, row.id);
    const iswc = row.iswc ? normaliseIswc(row.iswc) : null;
    if (iswc) songByIswc.set(iswc, row.id);
  }
  for (const row of versionRows) {
    const song = songById.get(row.songId);
    if (!song) continue;
    let version = song.versions.at(-1);
    if (!version || version.id !== row.versionId) {
      version = { id: row.versionId, effectiveFrom: row.effectiveFrom, parties: [] };
      song.versions.push(version);
    }
    version.parties.push({ partyId: row.partyId, userId: row.userId, status: row.status, shareBps: row.shareBps, recoupMicros: row.recoupMicros });
  }

  const tracksOf = new Map<number, number[]>();
  for (const row of trackRows) {
    const list = tracksOf.get(row.releaseId) ?? [];
    list.push(row.songId);
    tracksOf.set(row.releaseId, list);
  }
  const releaseByUpc = new Map<string, number>();
  for (const row of releaseRows) {
    const upc = row.upc ? normaliseUpc(row.upc) : null;
    if (upc) releaseByUpc.set(upc, row.id);
  }

  const memberByIpi = new Map<string, number>();
  for (const row of identityRows) {
    const ipi = normaliseIpi(row.ipi);
    if (ipi) memberByIpi.set(ipi, row.userId);
  }
  // A member's works for PRO title matching: songs they write, or that belong to artist pages they own.
  const titlesOfMember = new Map<number, Map<string, number>>();
  if (kind === "pro" && identityRows.length) {
    const memberIds = identityRows.map((r) => r.userId);
    const works = await tx
      .selectDistinct({ userId: sql<number>`coalesce(${songWriters.userId}, ${profiles.ownerId})`, songId: songs.id, title: songs.title })
      .from(songs)
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .leftJoin(songWriters, and(eq(songWriters.songId, songs.id), inArray(songWriters.userId, memberIds)))
      .where(or(inArray(songWriters.userId, memberIds), inArray(profiles.ownerId, memberIds)));
    for (const work of works) {
      const titles = titlesOfMember.get(work.userId) ?? new Map<string, number>();
      titles.set(titleKey(work.title), work.songId);
      titlesOfMember.set(work.userId, titles);
    }
  }

  const alias = new Map<string, (typeof aliasRows)[number]>();
  for (const row of aliasRows) alias.set(`${row.keyType}|${row.key}`, row);

  function releaseMatch(releaseId: number, by: "upc" | "alias"): LineMatch | null {
    const songIds = tracksOf.get(releaseId) ?? [];
    return songIds.length ? { type: "release", releaseId, songIds, by } : null;
  }

  function match(line: StatementLine): LineMatch | null {
    if (line.kind === "pro") {
      const ipi = line.ipi ? normaliseIpi(line.ipi) : null;
      const memberId = (ipi && memberByIpi.get(ipi)) ?? (ipi ? alias.get(`ipi|${ipi}`)?.memberId : null) ?? null;
      if (!memberId) return null;
      const byIswc = line.iswc ? (songByIswc.get(line.iswc) ?? alias.get(`iswc|${line.iswc}`)?.songId ?? null) : null;
      if (byIswc) return { type: "member", memberId, songId: byIswc, by: "ipi-iswc" };
      const byTitle = line.trackTitle ? titlesOfMember.get(memberId)?.get(titleKey(line.trackTitle)) : undefined;
      if (byTitle) return { type: "member", memberId, songId: byTitle, by: "ipi-title" };
      return { type: "member", memberId, songId: null, by: "ipi" };
    }
    if (line.isrc) {
      const songId = songByIsrc.get(line.isrc);
      if (songId) return { type: "song", songId, by: "isrc" };
      const known = alias.get(`isrc|${line.isrc}`);
      if (known?.songId) return { type: "song", songId: known.songId, by: "alias" };
      if (known?.releaseId) return releaseMatch(known.releaseId, "alias");
    }
    if (line.upc) {
      const releaseId = releaseByUpc.get(line.upc);
      if (releaseId) return releaseMatch(releaseId, "upc");
      const known = alias.get(`upc|${line.upc}`);
      if (known?.releaseId) return releaseMatch(known.releaseId, "alias");
      if (known?.songId) return { type: "song", songId: known.songId, by: "alias" };
    }
    if (line.trackTitle) {
      const known = alias.get(`title|${titleKey(line.trackTitle)}`);
      if (known?.songId) return { type: "song", songId: known.songId, by: "alias" };
    }
    return null;
  }

  return { match, song: (songId) => songById.get(songId), releaseSongs: (releaseId) => tracksOf.get(releaseId) ?? [], recoupedSoFar };
}

export { titleKey };
