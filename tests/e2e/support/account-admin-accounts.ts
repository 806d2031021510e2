/**
 * Accounts for tests/e2e/account and tests/e2e/admin, created before the server starts by
 * prepare-account-admin.ts (called from prepare.ts). Each belongs to exactly one test, so tests that
 * change an account (names, email, password, avatar, suspension, access) never share state.
 * No app imports here: spec files import this.
 */
export const READY_PASSWORD = "ready-pass-123";

/** Verified, activated, agreed to every published document; named "Rita" / "Ready <key>". */
export const READY = {
  profileNames: "ready-profile-names@example.test",
  profileNamesNoJs: "ready-profile-names-nojs@example.test",
  profileEmail: "ready-profile-email@example.test",
  profileEmailTaken: "ready-profile-email-taken@example.test",
  profilePasswordWrong: "ready-profile-password-wrong@example.test",
  profilePassword: "ready-profile-password@example.test",
  profileAvatar: "ready-profile-avatar@example.test",
  profileAvatarBad: "ready-profile-avatar-bad@example.test",
  contact: "ready-contact@example.test",
  contactNoJs: "ready-contact-nojs@example.test",
  adminAccess: "ready-admin-access@example.test",
  adminSuspend: "ready-admin-suspend@example.test",
} as const;
export type ReadyKey = keyof typeof READY;
export const readyName = (key: ReadyKey) => ({ name: "Rita", lastName: `Ready ${key}`, fullname: `Rita Ready ${key}` });

/** Registered with a password (activated) but the email address not verified: "Resend verification email". */
export const UNVERIFIED_RESEND = { email: "unverified-resend@example.test", fullname: "Ulla Unverified" } as const;
/** Created without a password (pending activation): "Resend activation link". */
export const PENDING_RESEND = { email: "pending-resend@example.test", fullname: "Pia Pending" } as const;

/**
 * Plain members for the admin list's pagination, inserted in one statement in this order (no mail):
 * "Bulk Listing 01" <bulk-listing-01@example.test> ... "Bulk Listing 30". The list is newest first.
 */
export const BULK_COUNT = 30;
export const bulkMember = (n: number) => {
  const nn = String(n).padStart(2, "0");
  return { name: "Bulk", lastName: `Listing ${nn}`, fullname: `Bulk Listing ${nn}`, email: `bulk-listing-${nn}@example.test` };
};
