/**
 * Accounts for tests/e2e/versions and tests/e2e/admin/announcements.spec.ts, created before the server
 * starts by prepare-versions.ts (called from prepare.ts). Each belongs to exactly one test: a version is
 * shown once per user, so a test that expects "What's new" needs a user who has never seen it.
 * No app imports here: spec files import this.
 */
export const VERSION_PASSWORD = "version-pass-123";

/** Members: verified, activated, agreed to every published document; named "Vera" / "Version <key>". */
export const VERSION_MEMBERS = {
  /** Sees the modal once, then never again (reload, navigation, a new browser). */
  once: "version-once@example.test",
  /** A second member who sees the same version once too. */
  second: "version-second@example.test",
  /** On the dashboard while a version is published: the modal opens live. */
  live: "version-live@example.test",
  /** GET /api/versions/latest before and after the modal. */
  api: "version-api@example.test",
  /** The modal shows sanitised notes (no script, no onclick). */
  sanitised: "version-sanitised@example.test",
  /** The service worker's sessionStorage handoff. */
  handoff: "version-handoff@example.test",
  /** The handoff's refetch result opens the modal. */
  handoffFetch: "version-handoff-fetch@example.test",
} as const;
export type VersionMemberKey = keyof typeof VERSION_MEMBERS;

/** Members for tests/e2e/admin/announcements.spec.ts; named "Anna" / "Announce <key>". */
export const ANNOUNCE_MEMBERS = {
  /** Receives an announcement sent to them alone. */
  one: "announce-one@example.test",
  /** Receives the announcement to all members. */
  all: "announce-all@example.test",
  /** Whose admin page's "Send a notification" link pre-fills the form. */
  prefill: "announce-prefill@example.test",
} as const;
export type AnnounceMemberKey = keyof typeof ANNOUNCE_MEMBERS;

export const versionMemberName = (key: VersionMemberKey) => ({ name: "Vera", lastName: `Version ${key}`, fullname: `Vera Version ${key}` });
export const announceMemberName = (key: AnnounceMemberKey) => ({ name: "Anna", lastName: `Announce ${key}`, fullname: `Anna Announce ${key}` });
