/**
 * Accounts for tests/e2e/community/profile-editor.spec.ts, created before the server starts by
 * prepare-profiles.ts (called from prepare.ts). Every test logs in as accounts of its own and creates its
 * profile through the member directory page, so tests run in any order. No app imports here.
 * The paths are the product specification's.
 */
import { PROFILE_TYPE_PATHS, type ProfileTypeKey } from "./profile-type-paths";

export const PROFILES_PASSWORD = "profiles-pass-123";

/** The types' paths (one table for every community suite). */
export const PROFILE_EDITOR_TYPES = PROFILE_TYPE_PATHS;
export type ProfileEditorType = ProfileTypeKey;

/** The purposes a member is created for, per type: one account per test. */
export const PROFILE_PURPOSES = ["edit", "images"] as const;
export type ProfilePurpose = (typeof PROFILE_PURPOSES)[number];

export function profileAccount(type: ProfileEditorType, purpose: ProfilePurpose) {
  const { directory, label } = PROFILE_EDITOR_TYPES[type];
  return { email: `profiles-${directory}-${purpose}@example.test`, name: label.split(" ")[0]!, lastName: `Profiles ${purpose}` };
}

/** An administrator of its own (account type admin, role Admin). */
export const PROFILES_ADMIN = { email: "profiles-admin@example.test", name: "Pia", lastName: "Profiles Admin" } as const;
/** A member with no profile of their own, who tries to open the others'. */
export const PROFILES_OTHER = { email: "profiles-other@example.test", name: "Otto", lastName: "Other" } as const;
/** Holds one profile of each type whose username the edit tests try to take. */
export const PROFILES_HOLDER = { email: "profiles-holder@example.test", name: "Hal", lastName: "Holder" } as const;
export const takenUsername = (type: ProfileEditorType) => `profiles-taken-${PROFILE_EDITOR_TYPES[type].directory}`;

/** Works through a whole details form without JavaScript. */
export const PROFILES_NO_JS = { email: "profiles-nojs@example.test", name: "Nora", lastName: "No Script" } as const;
