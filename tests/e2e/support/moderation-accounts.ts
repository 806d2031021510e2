/**
 * Accounts and profiles for tests/e2e/community/moderation.spec.ts, created before the server starts by
 * prepare-moderation.ts (called from prepare.ts). Each (case, type) member owns exactly one profile and
 * belongs to exactly one test, so a test can count its own bell and its profile's status.
 * No app imports here: spec files import this. The paths are the product specification's.
 */
import { PROFILE_TYPE_PATHS, type ProfileTypeKey } from "./profile-type-paths";

export const MODERATION_PASSWORD = "moderation-pass-123";

/** The administrator who moderates (account type admin, role Admin). */
export const MODERATION_ADMIN = { email: "moderation-admin@example.test", name: "Moe", lastName: "Moderator" } as const;

/** The types' paths (one table for every community suite). */
export const MODERATION_TYPES = PROFILE_TYPE_PATHS;
export type ModerationType = ProfileTypeKey;

/**
 * What each case starts from: `approve` a complete draft (the member submits it), `reject` and `forbidden`
 * a complete profile waiting for approval, `unpublish` a published one, `incomplete` a draft with a short
 * bio, no genre and no rate, `noJs` a complete draft the member submits and withdraws without JavaScript.
 */
export const MODERATION_CASES = {
  approve: "draft",
  reject: "pending_approval",
  unpublish: "published",
  incomplete: "draft",
  forbidden: "pending_approval",
  noJs: "draft",
} as const;
export type ModerationCase = keyof typeof MODERATION_CASES;

const slug = (type: ModerationType) => MODERATION_TYPES[type].directory;
const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** The member and profile of one case and type. */
export function moderationAccount(kase: ModerationCase, type: ModerationType) {
  const label = MODERATION_TYPES[type].label;
  return {
    email: `moderation-${kase.toLowerCase()}-${slug(type)}@example.test`,
    name: "Max",
    lastName: `${capital(kase)} ${label}`,
    fullname: `Max ${capital(kase)} ${label}`,
    profileName: `Moderation ${capital(kase)} ${label}`,
    username: `mod-${kase.toLowerCase()}-${slug(type)}`,
  };
}

/** A complete profile's bio (at least 20 characters) and the incomplete one's. */
export const COMPLETE_BIO = "Prepared by the moderation suite: a bio long enough to be published.";
export const SHORT_BIO = "Too short.";
