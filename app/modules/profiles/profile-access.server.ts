import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { artistMembers, profiles, type Profile, type ProfileType, type User } from "~/db/schema";
import { notFound, parseId } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";

/**
 * Who may change a profile: its owner, an administrator, and for an artist page a band member the
 * owner gave editing rights. Everyone else gets 404 (never a hint that the profile exists).
 */
export type ProfileRights = "owner" | "editor" | "admin";

export async function profileRights(user: Pick<User, "id" | "acctType">, profile: Pick<Profile, "id" | "type" | "ownerId">): Promise<ProfileRights | null> {
  if (profile.ownerId === user.id) return "owner";
  if (isAdminAccount(user)) return "admin";
  if (profile.type !== "artist") return null;
  const [membership] = await db()
    .select({ canEdit: artistMembers.canEdit })
    .from(artistMembers)
    .where(and(eq(artistMembers.artistId, profile.id), eq(artistMembers.userId, user.id)))
    .limit(1);
  return membership?.canEdit ? "editor" : null;
}

/** The profile of `type` with the id from the URL, when `user` may edit it; otherwise throws a 404. */
export async function requireEditableProfile(
  user: Pick<User, "id" | "acctType">,
  type: ProfileType,
  idParam: string | undefined,
): Promise<{ profile: Profile; rights: ProfileRights }> {
  const id = parseId(idParam);
  if (id === null) throw notFound();
  const [profile] = await db()
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, id), eq(profiles.type, type)))
    .limit(1);
  if (!profile) throw notFound();
  const rights = await profileRights(user, profile);
  if (!rights) throw notFound();
  return { profile, rights };
}
