import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { profiles, projects, releases, releaseTracks, songs, type MarketplaceService, type ProfileType, type ReleaseStatus } from "~/db/schema";
import { SERVICE_LABELS } from "./marketplace-rules";

/**
 * Verified credits from the marketplace: a provider hired for a song, whose project completed and was
 * paid (released or split), is credited on that song and on their provider profile. Derived from the projects
 * themselves, so a credit exists exactly while the paid project behind it does; nothing to keep in step.
 */

export interface ProjectCredit {
  projectId: number;
  service: string;
  songId: number;
  songTitle: string;
  artistName: string;
  provider: { name: string; type: ProfileType; username: string };
  completedAt: string;
}

const artist = alias(profiles, "credited_song_artist");
const provider = alias(profiles, "credited_provider");

/** One statement. */
async function projectCredits(where: SQL | undefined, limit: number): Promise<ProjectCredit[]> {
  const rows = await db()
    .select({
      projectId: projects.id,
      service: projects.service,
      songId: songs.id,
      songTitle: songs.title,
      artistName: artist.name,
      providerName: provider.name,
      providerType: provider.type,
      providerUsername: provider.username,
      completedAt: projects.updatedAt,
    })
    .from(projects)
    .innerJoin(songs, eq(songs.id, projects.songId))
    .innerJoin(artist, eq(artist.id, songs.artistId))
    .innerJoin(provider, eq(provider.id, projects.providerProfileId))
    .where(and(eq(projects.status, "completed"), inArray(projects.fundingStatus, ["released", "split"]), isNotNull(projects.songId), where))
    .orderBy(desc(projects.updatedAt), desc(projects.id))
    .limit(limit);
  return rows.map((r) => ({
    projectId: r.projectId,
    service: SERVICE_LABELS[r.service as MarketplaceService],
    songId: r.songId,
    songTitle: r.songTitle,
    artistName: r.artistName,
    provider: { name: r.providerName, type: r.providerType, username: r.providerUsername },
    completedAt: r.completedAt.toISOString(),
  }));
}

/**
 * The songs a provider profile was hired for and paid (newest first). A profile page is public: only songs on a
 * release in one of `releaseStatuses` are named there (an unreleased song's title is the client's to share).
 */
export function projectCreditsOfProfile(profileId: number, releaseStatuses: readonly ReleaseStatus[], limit = 10): Promise<ProjectCredit[]> {
  const released = sql`exists (select 1 from ${releaseTracks} join ${releases} on ${releases.id} = ${releaseTracks.releaseId}
    where ${releaseTracks.songId} = ${songs.id} and ${inArray(releases.status, [...releaseStatuses])})`;
  return projectCredits(and(eq(projects.providerProfileId, profileId), released), limit);
}

/** The providers hired and paid for a song. */
export function projectCreditsOfSong(songId: number, limit = 50): Promise<ProjectCredit[]> {
  return projectCredits(eq(projects.songId, songId), limit);
}
