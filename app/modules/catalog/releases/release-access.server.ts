import { and, asc, eq, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { artistMembers, profiles, type User } from "~/db/schema";
import { notFound, parseId } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { findRelease, findReleaseBySlugs, type ReleaseDetail } from "~/modules/catalog/catalog.server";

/**
 * Who may change a release: an administrator, the owner of its artist page, or a band member the owner
 * gave editing rights (the same rule as the artist page itself, profile-access.server.ts). Everyone else
 * gets 404, never a hint that the release exists.
 */
export type ReleaseRights = "owner" | "editor" | "admin";
export type Actor = Pick<User, "id" | "acctType">;

/** The actor's rights on an artist page's releases. One statement (none for an admin or the owner). */
export async function artistReleaseRights(actor: Actor, artist: { id: number; ownerId: number }): Promise<ReleaseRights | null> {
  if (artist.ownerId === actor.id) return "owner";
  if (isAdminAccount(actor)) return "admin";
  const [membership] = await db()
    .select({ canEdit: artistMembers.canEdit })
    .from(artistMembers)
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, actor.id)))
    .limit(1);
  return membership?.canEdit ? "editor" : null;
}

/** SQL: the artist pages whose releases the member may edit (owned, or band editing rights). */
export function editableArtistCondition(userId: number) {
  return or(
    eq(profiles.ownerId, userId),
    sql`exists (select 1 from ${artistMembers} where ${artistMembers.artistId} = ${profiles.id} and ${artistMembers.userId} = ${userId} and ${artistMembers.canEdit})`,
  );
}

/** The artist pages the member may create releases for, by name. One statement. */
export async function editableArtists(userId: number): Promise<Array<{ id: number; name: string; username: string }>> {
  return db()
    .select({ id: profiles.id, name: profiles.name, username: profiles.username })
    .from(profiles)
    .where(and(eq(profiles.type, "artist"), editableArtistCondition(userId)))
    .orderBy(asc(sql`lower(${profiles.name})`), asc(profiles.id));
}

/** The release with the id from the URL, when the actor may change it; otherwise a 404. Two or three statements. */
export async function requireMemberRelease(actor: Actor, idParam: string | undefined): Promise<{ release: ReleaseDetail; rights: ReleaseRights }> {
  const id = parseId(idParam);
  if (id === null) throw notFound();
  const release = await findRelease(id);
  if (!release) throw notFound();
  const rights = await artistReleaseRights(actor, release.artist);
  if (!rights) throw notFound();
  return { release, rights };
}

/** The same, by the status page's slugs (`releases/{artistSlug}/{releaseSlug}`). */
export async function requireMemberReleaseBySlugs(
  actor: Actor,
  artistSlug: string | undefined,
  releaseSlug: string | undefined,
): Promise<{ release: ReleaseDetail; rights: ReleaseRights }> {
  if (!artistSlug || !releaseSlug || artistSlug.length > 100 || releaseSlug.length > 100) throw notFound();
  const release = await findReleaseBySlugs(artistSlug, releaseSlug);
  if (!release) throw notFound();
  const rights = await artistReleaseRights(actor, release.artist);
  if (!rights) throw notFound();
  return { release, rights };
}

/** Whether the member may create a release for that artist page (a 404 otherwise, see requireMemberRelease). */
export async function requireEditableArtist(actor: Actor, artistId: number): Promise<{ id: number; name: string; username: string; ownerId: number }> {
  const [artist] = await db()
    .select({ id: profiles.id, name: profiles.name, username: profiles.username, ownerId: profiles.ownerId })
    .from(profiles)
    .where(and(eq(profiles.id, artistId), eq(profiles.type, "artist")))
    .limit(1);
  if (!artist || !(await artistReleaseRights(actor, artist))) throw notFound();
  return artist;
}
