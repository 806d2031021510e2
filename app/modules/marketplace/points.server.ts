import { and, desc, eq, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, projects, songs, splitVersions, users } from "~/db/schema";
import { todayUtc } from "~/modules/catalog/catalog.server";
import { largestRemainder } from "~/modules/ledger/allocation";
import { latestPostedSalePeriodStart } from "~/modules/ledger/posted-periods.server";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { dayAfter, formatBps, TOTAL_BPS } from "~/modules/splits/split-rules";
import { proposeSplit, splitInForce, SplitError, type ProposalInput } from "~/modules/splits/splits.server";
import { normalizeEmail } from "~/modules/accounts/accounts.server";
import { isAdmin, validId, type MarketplaceActor } from "./access.server";
import { MarketplaceError, NO_PROJECT } from "./marketplace-errors";
import { PROJECT_ROUTE } from "./notify.server";

/** Where the approval came from (kept by the splits flow as the owner's acceptance evidence). */
export interface SplitMeta {
  ip?: string;
  userAgent?: string;
}

/**
 * The parties of the new split: the split in force today (or the song's owner alone at 100 %) scaled down to
 * make room for the points, and the provider with the points (added to their share when already a party).
 * Shares are whole basis points totalling 10,000 (largest remainder); a "recoup before percentage" carries over.
 */
export function pointsParties(
  current: Array<{ email: string; shareBps: number; recoupMicros: bigint }>,
  provider: { email: string },
  pointsBps: number,
): Pick<ProposalInput, "parties" | "recoup"> {
  const scaled = largestRemainder(
    BigInt(TOTAL_BPS - pointsBps),
    current.map((p) => BigInt(p.shareBps)),
  ).map(Number);
  const parties: Array<{ email: string; shareBps: number; recoupMicros: bigint }> = [];
  current.forEach((p, i) => {
    if (scaled[i]! > 0) parties.push({ email: p.email, shareBps: scaled[i]!, recoupMicros: p.recoupMicros });
  });
  const existing = parties.find((p) => normalizeEmail(p.email) === normalizeEmail(provider.email));
  if (existing) existing.shareBps += pointsBps;
  else parties.push({ email: provider.email, shareBps: pointsBps, recoupMicros: 0n });
  const recoupAt = parties.findIndex((p) => p.recoupMicros > 0n);
  return {
    parties: parties.map((p) => ({ email: p.email, shareBps: p.shareBps })),
    recoup: recoupAt >= 0 ? { partyIndex: recoupAt, amountMicros: parties[recoupAt]!.recoupMicros } : null,
  };
}

/**
 * A completed project's points become a split proposal on its song, through the splits flow
 * (app/modules/splits/splits.server.ts proposeSplit), proposed in the name of the song's owner, who is a
 * party (accepted on the spot) and still has to confirm it; the provider is invited to accept. It starts
 * today, or after the latest confirmed version and the latest posted sale period when those are later.
 * When the splits flow refuses (another proposal is open on the song), the owner is told and can propose it
 * again from the project (`retryPointsSplit`). Returns the proposed version's id, or null.
 */
export async function proposePointsSplit(projectId: number, meta: SplitMeta = {}, now = new Date()): Promise<number | null> {
  const [row] = await db()
    .select({ project: projects, song: { id: songs.id, title: songs.title }, artist: { id: profiles.id, name: profiles.name, ownerId: profiles.ownerId } })
    .from(projects)
    .innerJoin(songs, eq(songs.id, projects.songId))
    .innerJoin(profiles, eq(profiles.id, songs.artistId))
    .where(and(eq(projects.id, projectId), isNull(projects.splitVersionId)));
  if (!row || !row.project.pointsBps || row.project.status !== "completed" || row.project.fundingStatus !== "released") return null;
  const { project, song, artist } = row;
  const [owner] = await db().select().from(users).where(eq(users.id, artist.ownerId));
  const [provider] = await db().select({ email: users.email }).from(users).where(eq(users.id, project.providerOwnerId));
  let effectiveFrom = todayUtc(now);
  const [latest] = await db()
    .select({ effectiveFrom: splitVersions.effectiveFrom })
    .from(splitVersions)
    .where(and(eq(splitVersions.songId, song.id), eq(splitVersions.status, "confirmed")))
    .orderBy(desc(splitVersions.effectiveFrom))
    .limit(1);
  if (latest && latest.effectiveFrom >= effectiveFrom) effectiveFrom = dayAfter(latest.effectiveFrom);
  const posted = await latestPostedSalePeriodStart(song.id);
  if (posted && posted >= effectiveFrom) effectiveFrom = dayAfter(posted);
  // The split the new version replaces: the one in force on its first day.
  const inForce = await splitInForce(song.id, effectiveFrom);
  const current = inForce
    ? inForce.parties.map((p) => ({ email: p.email, shareBps: p.shareBps, recoupMicros: p.recoupMicros }))
    : [{ email: owner!.email, shareBps: TOTAL_BPS, recoupMicros: 0n }];
  const { parties, recoup } = pointsParties(current, provider!, project.pointsBps!);

  try {
    const { version } = await proposeSplit(
      owner!,
      { id: song.id, title: song.title, artist },
      { effectiveFrom, note: `Points from project #${project.id}: ${formatBps(project.pointsBps!)} to the provider.`, parties, recoup },
      { ip: meta.ip ?? "", userAgent: meta.userAgent ?? "" },
    );
    await db()
      .update(projects)
      .set({ splitVersionId: version.id })
      .where(and(eq(projects.id, project.id), isNull(projects.splitVersionId)));
    await notifyMember(owner!.id, {
      type: "ProjectPointsProposed",
      message: `Project #${project.id}'s ${formatBps(project.pointsBps!)} points are proposed as version ${version.number} of the split of “${song.title}”: confirm it once the provider accepts.`,
      color: "blue",
      routeName: "member-song-profile",
      resourceId: song.id,
      routeHash: "splits",
    });
    return version.id;
  } catch (error) {
    if (!(error instanceof SplitError)) throw error;
    await notifyMember(owner!.id, {
      type: "ProjectPointsNotProposed",
      message: `Project #${project.id}'s ${formatBps(project.pointsBps!)} points could not be proposed on “${song.title}” yet: ${error.message} Propose them again from the project.`,
      color: "orange",
      routeName: PROJECT_ROUTE,
      resourceId: project.id,
    });
    return null;
  }
}

/** The song's owner (the client) or an administrator proposes a completed project's points again, after a refusal. */
export async function retryPointsSplit(actor: MarketplaceActor, projectId: number, meta: SplitMeta = {}): Promise<number | null> {
  const [row] = validId(projectId) ? await db().select().from(projects).where(eq(projects.id, projectId)) : [];
  if (!row || !(row.clientId === actor.id || isAdmin(actor))) throw new MarketplaceError(404, NO_PROJECT);
  if (!row.pointsBps || row.fundingStatus !== "released") throw new MarketplaceError(409, "This project has no points to propose.");
  if (row.splitVersionId) throw new MarketplaceError(409, "These points are proposed already.");
  return proposePointsSplit(projectId, meta);
}
