/** Accounts and data for tests/e2e/community/profile-editor.spec.ts, created by prepare.ts before the server starts. */
import { db } from "../../../app/db/client.server";
import { artistMembers, profiles } from "../../../app/db/schema";
import { createReadyMembers } from "./community-members.server";
import {
  PROFILE_EDITOR_TYPES,
  PROFILE_PURPOSES,
  profileAccount,
  PROFILES_ADMIN,
  PROFILES_HOLDER,
  PROFILES_NO_JS,
  PROFILES_OTHER,
  PROFILES_PASSWORD,
  takenUsername,
  type ProfileEditorType,
} from "./profile-accounts";

export async function prepareProfilesData(): Promise<string> {
  const types = Object.keys(PROFILE_EDITOR_TYPES) as ProfileEditorType[];
  const owners = types.flatMap((type) => PROFILE_PURPOSES.map((purpose) => profileAccount(type, purpose)));
  const ids = await createReadyMembers([{ ...PROFILES_ADMIN, acctType: 2 }, PROFILES_OTHER, PROFILES_HOLDER, PROFILES_NO_JS, ...owners], PROFILES_PASSWORD);
  // The usernames the edit tests try to take (one profile per type: the one-per-type rule allows it).
  const holderId = ids.get(PROFILES_HOLDER.email)!;
  const held = await db()
    .insert(profiles)
    .values(types.map((type) => ({ type, ownerId: holderId, name: `Held ${PROFILE_EDITOR_TYPES[type].label}`, username: takenUsername(type) })))
    .returning({ id: profiles.id, type: profiles.type });
  // An artist's band always lists its owner (as createProfile does).
  const artist = held.find((p) => p.type === "artist")!;
  await db().insert(artistMembers).values({ artistId: artist.id, userId: holderId, role: "owner", canEdit: true });
  return `${ids.size} profile editor accounts and ${types.length} profiles holding usernames`;
}
