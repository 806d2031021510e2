/**
 * Accounts the preparation step (prepare.ts) creates before the server starts, and the demo logins
 * the server seeds. Each prepared account belongs to exactly one test, so tests never share state.
 */
export const DEMO_PASSWORD = "backline-demo";

export const DEMO = {
  admin: "admin@example.com",
  member: "member@example.com",
  /** Has not agreed to the required documents. Only the agreement test in legal-agreement.spec.ts logs in as it. */
  newcomer: "new@example.com",
  /** Paul Producer: writer and verified producer on the demo catalogue (DEMO.md). */
  producer: "producer@example.com",
} as const;

/** Created without a password, as an administrator or an invitation would; each gets an activation email. */
export const PENDING = {
  js: "pending-js@example.test",
  noJs: "pending-nojs@example.test",
  singleUse: "pending-single-use@example.test",
  badLinks: "pending-bad-links@example.test",
  validation: "pending-validation@example.test",
} as const;

/** Verified, with a password, but without signatures for the required legal documents. */
export const UNSIGNED_PASSWORD = "unsigned-pass-123";
export const UNSIGNED = {
  noJs: "unsigned-nojs@example.test",
  partial: "unsigned-partial@example.test",
  logout: "unsigned-logout@example.test",
  /** tests/e2e/areas/guards.spec.ts: opens its member dashboard before agreeing. */
  guard: "unsigned-guard@example.test",
  /** tests/e2e/shell/progress-bar.spec.ts: one failed login with a wrong password (counts toward its lockout). */
  wrongPassword: "unsigned-wrong-password@example.test",
} as const;

/** The seeded demo users' ids and names (app/db/seed.server.ts seeds them first, in this order). */
export const DEMO_IDS = { admin: 1, member: 2, newcomer: 3, producer: 4 } as const;
export const DEMO_NAMES = { admin: "Ada Admin", member: "Mia Member", newcomer: "Noah Newcomer" } as const;
