import { alias } from "drizzle-orm/pg-core";
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, songs, splitEvents, splitParties, splitVersions, users, type SplitPartyStatus, type User } from "~/db/schema";
import { todayUtc } from "~/modules/catalog/catalog.server";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { dayBefore } from "./split-rules";
import { partyOfUser } from "./splits.server";

/**
 * The split sheet as every party sees it: each version with its dates, parties, shares and answers, and
 * the history. Three statements.
 */

/** proposed; scheduled (confirmed, starts later); in_force; superseded (a later one is in force); withdrawn. */
export type SplitVersionState = "proposed" | "scheduled" | "in_force" | "superseded" | "withdrawn";

export const SPLIT_VERSION_STATE_LABELS: Record<SplitVersionState, string> = {
  proposed: "Proposed",
  scheduled: "Confirmed, starts later",
  in_force: "In force",
  superseded: "Superseded",
  withdrawn: "Withdrawn",
};

export interface SplitPartyView {
  id: string;
  name: string;
  /** Shown for addresses without an account (their name is the address anyway). */
  email: string | null;
  shareBps: number;
  status: SplitPartyStatus;
  answeredAt: string | null;
  /** The recoup amount paid to this party first ("$1,500.00"), or null. */
  recoup: string | null;
  isViewer: boolean;
  /** The artist page's owner's own share (confirming the version accepts it). */
  isOwner: boolean;
  /** Only for the signed PDF (never sent to a page): the address, the answer's IP and the recoup amount. */
  evidence?: { email: string; ip: string | null; recoupMicros: bigint };
}

export interface SplitVersionView {
  id: number;
  number: number;
  state: SplitVersionState;
  effectiveFrom: string;
  /** The last day it is in force (the day before the next confirmed version), or null when open-ended. */
  effectiveTo: string | null;
  note: string;
  proposedBy: string | null;
  proposedAt: string;
  confirmedBy: string | null;
  confirmedAt: string | null;
  parties: SplitPartyView[];
}

export interface SplitSheetView {
  versions: SplitVersionView[];
  history: Array<{ id: number; message: string; at: string }>;
  /** The version in force today, if any. */
  inForceId: number | null;
}

const proposer = alias(users, "split_proposer");
const confirmer = alias(users, "split_confirmer");

const name = (u: { name: string | null; lastName: string | null }) => (u.name === null ? null : `${u.name} ${u.lastName ?? ""}`.trim());

export async function loadSplitSheet(
  songId: number,
  viewer: Pick<User, "id" | "email" | "emailVerifiedAt">,
  options: { today?: string; withEvidence?: boolean } = {},
): Promise<SplitSheetView> {
  const today = options.today ?? todayUtc();
  const [versionRows, history] = await Promise.all([
    db()
      .select({
        version: splitVersions,
        proposerName: proposer.name,
        proposerLastName: proposer.lastName,
        confirmerName: confirmer.name,
        confirmerLastName: confirmer.lastName,
      })
      .from(splitVersions)
      .leftJoin(proposer, eq(proposer.id, splitVersions.proposedBy))
      .leftJoin(confirmer, eq(confirmer.id, splitVersions.confirmedBy))
      .where(eq(splitVersions.songId, songId))
      .orderBy(desc(splitVersions.number)),
    db()
      .select({ id: splitEvents.id, message: splitEvents.message, at: splitEvents.createdAt })
      .from(splitEvents)
      .where(eq(splitEvents.songId, songId))
      .orderBy(desc(splitEvents.createdAt), desc(splitEvents.id))
      .limit(200),
  ]);
  const ids = versionRows.map((r) => r.version.id);
  const partyRows = ids.length
    ? await db()
        .select({
          party: splitParties,
          isViewer: sql<boolean>`${partyOfUser(viewer)}`,
          // The song's owner, in the same statement (the page has a statement budget).
          isOwner: sql<boolean>`coalesce(${splitParties.userId} = (select p.owner_id from songs s join profiles p on p.id = s.artist_id where s.id = ${songId}), false)`,
        })
        .from(splitParties)
        .where(inArray(splitParties.versionId, ids))
        .orderBy(asc(splitParties.versionId), asc(splitParties.position))
    : [];

  const confirmed = versionRows
    .filter((r) => r.version.status === "confirmed")
    .map((r) => r.version)
    .sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  const inForce = confirmed.filter((v) => v.effectiveFrom <= today).at(-1) ?? null;
  const versions = versionRows.map(({ version, ...names }): SplitVersionView => {
    let state: SplitVersionState = version.status === "proposed" ? "proposed" : version.status === "withdrawn" ? "withdrawn" : "superseded";
    let effectiveTo: string | null = null;
    if (version.status === "confirmed") {
      const next = confirmed.find((v) => v.effectiveFrom > version.effectiveFrom);
      effectiveTo = next ? dayBefore(next.effectiveFrom) : null;
      state = version.effectiveFrom > today ? "scheduled" : version.id === inForce?.id ? "in_force" : "superseded";
    }
    return {
      id: version.id,
      number: version.number,
      state,
      effectiveFrom: version.effectiveFrom,
      effectiveTo,
      note: version.note,
      proposedBy: name({ name: names.proposerName, lastName: names.proposerLastName }),
      proposedAt: version.proposedAt.toISOString(),
      confirmedBy: name({ name: names.confirmerName, lastName: names.confirmerLastName }),
      confirmedAt: version.confirmedAt?.toISOString() ?? null,
      parties: partyRows
        .filter((p) => p.party.versionId === version.id)
        .map(({ party, isViewer, isOwner }) => ({
          id: party.id,
          name: party.name,
          email: party.userId ? null : party.email,
          shareBps: party.shareBps,
          status: party.status,
          answeredAt: party.answeredAt?.toISOString() ?? null,
          recoup: party.recoupMicros > 0n ? formatCents(microsToCentsFloor(party.recoupMicros)) : null,
          isViewer: Boolean(isViewer),
          isOwner: Boolean(isOwner),
          ...(options.withEvidence ? { evidence: { email: party.email, ip: party.answeredIp, recoupMicros: party.recoupMicros } } : {}),
        })),
    };
  });
  return { versions, history: history.map((h) => ({ id: h.id, message: h.message, at: h.at.toISOString() })), inForceId: inForce?.id ?? null };
}

/* ------------------------------------------------------------------ what a member is party to */

export interface PendingSplitTask {
  partyId: string;
  songId: number;
  songTitle: string;
  artistName: string;
  versionNumber: number;
  shareBps: number;
  effectiveFrom: string;
}

/** The proposals waiting for the member's answer (the dashboard's tasks). One statement. */
export async function pendingSplitTasks(user: Pick<User, "id" | "email" | "emailVerifiedAt">): Promise<PendingSplitTask[]> {
  return db()
    .select({
      partyId: splitParties.id,
      songId: songs.id,
      songTitle: songs.title,
      artistName: profiles.name,
      versionNumber: splitVersions.number,
      shareBps: splitParties.shareBps,
      effectiveFrom: splitVersions.effectiveFrom,
    })
    .from(splitParties)
    .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
    .innerJoin(songs, eq(songs.id, splitVersions.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(and(partyOfUser(user), eq(splitParties.status, "pending"), ne(splitVersions.status, "withdrawn")))
    .orderBy(desc(splitVersions.proposedAt))
    .limit(50);
}

export interface MemberShare {
  shareBps: number;
  status: SplitPartyStatus;
  /** 0 when no split was ever confirmed (the artist page's owner receives 100 %). */
  versionNumber: number;
  effectiveFrom: string | null;
}

export interface MemberShareRow {
  songId: number;
  songTitle: string;
  artistName: string;
  isrc: string | null;
  /** The member's share in the version in force today; null when they are not a party of it any more. */
  current: MemberShare | null;
  /** Their share in the newest proposal or confirmed version not in force yet. */
  next: (MemberShare & { state: "proposed" | "scheduled" }) | null;
}

/** Song titles in reading order, case-insensitively (one collator: building one per comparison is slow). */
const titleOrder = new Intl.Collator("en", { sensitivity: "base" });

/**
 * The songs a member has (or is offered) a share in, for Income & Shares; songs of artist pages they own
 * without a split in force are listed at 100 %, as allocation pays them. Two statements.
 */
export async function memberShares(user: Pick<User, "id" | "email" | "emailVerifiedAt">, today = todayUtc()): Promise<MemberShareRow[]> {
  const inForceVersion = sql`(select v.id from ${splitVersions} v where v.song_id = ${songs.id} and v.status = 'confirmed' and v.effective_from <= ${today}
    order by v.effective_from desc limit 1)`;
  const [rows, owned] = await Promise.all([
    db()
      .select({
        songId: songs.id,
        songTitle: songs.title,
        artistName: profiles.name,
        isrc: songs.isrc,
        shareBps: splitParties.shareBps,
        status: splitParties.status,
        versionNumber: splitVersions.number,
        versionStatus: splitVersions.status,
        effectiveFrom: splitVersions.effectiveFrom,
        inForce: sql<boolean>`${splitVersions.id} = ${inForceVersion}`,
      })
      .from(splitParties)
      .innerJoin(splitVersions, eq(splitVersions.id, splitParties.versionId))
      .innerJoin(songs, eq(songs.id, splitVersions.songId))
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(and(partyOfUser(user), ne(splitVersions.status, "withdrawn")))
      .orderBy(desc(splitVersions.number))
      .limit(2000),
    db()
      .select({ songId: songs.id, songTitle: songs.title, artistName: profiles.name, isrc: songs.isrc, hasSplit: sql<boolean>`${inForceVersion} is not null` })
      .from(songs)
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(eq(profiles.ownerId, user.id))
      .limit(2000),
  ]);
  const bySong = new Map<number, MemberShareRow>();
  for (const song of owned) {
    bySong.set(song.songId, {
      songId: song.songId,
      songTitle: song.songTitle,
      artistName: song.artistName,
      isrc: song.isrc,
      current: song.hasSplit ? null : { shareBps: 10_000, status: "accepted", versionNumber: 0, effectiveFrom: null },
      next: null,
    });
  }
  for (const row of rows) {
    const entry = bySong.get(row.songId) ?? {
      songId: row.songId,
      songTitle: row.songTitle,
      artistName: row.artistName,
      isrc: row.isrc,
      current: null,
      next: null,
    };
    bySong.set(row.songId, entry);
    const share = { shareBps: row.shareBps, status: row.status, versionNumber: row.versionNumber, effectiveFrom: row.effectiveFrom };
    if (row.inForce) entry.current = share;
    // Rows come newest version first: the first open one is the next.
    else if (!entry.next && (row.versionStatus === "proposed" || (row.versionStatus === "confirmed" && row.effectiveFrom > today))) {
      entry.next = { ...share, state: row.versionStatus === "proposed" ? "proposed" : "scheduled" };
    }
  }
  const withParties = new Set(rows.map((row) => row.songId));
  return [...bySong.values()]
    .filter((r) => r.current || r.next || withParties.has(r.songId))
    .sort((a, b) => titleOrder.compare(a.songTitle, b.songTitle) || a.songId - b.songId);
}

/* ------------------------------------------------------------------ a release's tracks at a glance */

export interface TrackSplitSummary {
  songId: number;
  /** The version in force today, with its parties; null when none was ever confirmed (the owner's 100 %). */
  inForce: { number: number; effectiveFrom: string; parties: Array<{ name: string; shareBps: number; status: SplitPartyStatus }> } | null;
  /** A confirmed version that starts later, or an open proposal, if any. */
  upcoming: { number: number; effectiveFrom: string; state: "scheduled" | "proposed"; pendingAnswers: number } | null;
}

/** For the release profile: each track's split in force and what comes next. One statement. */
export async function releaseSplitSummaries(songIds: number[], today = todayUtc()): Promise<TrackSplitSummary[]> {
  if (songIds.length === 0) return [];
  const rows = await db()
    .select({
      versionId: splitVersions.id,
      songId: splitVersions.songId,
      number: splitVersions.number,
      versionStatus: splitVersions.status,
      effectiveFrom: splitVersions.effectiveFrom,
      partyName: splitParties.name,
      shareBps: splitParties.shareBps,
      partyStatus: splitParties.status,
    })
    .from(splitVersions)
    .innerJoin(splitParties, eq(splitParties.versionId, splitVersions.id))
    .where(and(inArray(splitVersions.songId, songIds), ne(splitVersions.status, "withdrawn")))
    .orderBy(asc(splitVersions.songId), asc(splitVersions.effectiveFrom), asc(splitParties.position));
  return songIds.map((songId) => {
    const own = rows.filter((r) => r.songId === songId);
    const confirmed = own.filter((r) => r.versionStatus === "confirmed");
    const current = confirmed.filter((r) => r.effectiveFrom <= today).at(-1);
    const later = confirmed.find((r) => r.effectiveFrom > today) ?? own.find((r) => r.versionStatus === "proposed");
    const partiesOf = (versionId: number) => own.filter((r) => r.versionId === versionId);
    return {
      songId,
      inForce: current
        ? {
            number: current.number,
            effectiveFrom: current.effectiveFrom,
            parties: partiesOf(current.versionId).map((p) => ({ name: p.partyName, shareBps: p.shareBps, status: p.partyStatus })),
          }
        : null,
      upcoming: later
        ? {
            number: later.number,
            effectiveFrom: later.effectiveFrom,
            state: later.versionStatus === "proposed" ? "proposed" : "scheduled",
            pendingAnswers: partiesOf(later.versionId).filter((p) => p.partyStatus === "pending").length,
          }
        : null,
    };
  });
}
