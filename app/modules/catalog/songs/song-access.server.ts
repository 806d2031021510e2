import type { User } from "~/db/schema";
import { parseId } from "~/modules/accounts/guards.server";
import { findSong, type SongDetail } from "~/modules/catalog/catalog.server";
import { artistReleaseRights, type ReleaseRights } from "~/modules/catalog/releases/release-access.server";
import { notFound } from "~/modules/http/route-errors.server";

/**
 * A song is edited by those who edit its artist page's releases (the owner, band members with editing
 * rights, administrators); to anyone else its id does not exist (404).
 */
export async function requireMemberSong(
  actor: Pick<User, "id" | "acctType">,
  idParam: string | undefined,
): Promise<{ song: SongDetail; rights: ReleaseRights }> {
  const id = parseId(idParam);
  if (id === null) throw notFound();
  const song = await findSong(id);
  if (!song) throw notFound();
  const rights = await artistReleaseRights(actor, song.artist);
  if (!rights) throw notFound();
  return { song, rights };
}

/** A song on a release under review or beyond is what the stores have: it no longer changes. */
export const LOCKED_RELEASE_STATUSES = ["pending_approval", "approved", "in_distribution", "takedown_requested"] as const;

export function isSongLocked(song: Pick<SongDetail, "releases">): boolean {
  return song.releases.some((r) => (LOCKED_RELEASE_STATUSES as readonly string[]).includes(r.status));
}
