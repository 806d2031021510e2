/**
 * Fixtures of tests/e2e/legal-admin, created before the server starts by tests/e2e/support/prepare-legal-admin.ts
 * (called last from prepare.ts, once every other prepared account exists). No app imports: specs import this.
 *
 * Publishing a new version of a required document asks every user to agree again, and the e2e database is
 * shared by specs running in parallel. So the one publication of these specs (publish.spec.ts) is of a document
 * of their own, "E2E Gate Notice", whose next version (2) every prepared account has agreed to ahead, except
 * the gate member: publishing it sends only them through the agreement gate. The spec withdraws it afterwards.
 */
export const LEGAL_ADMIN_PASSWORD = "legal-admin-pass-123";

export const LEGAL_MEMBERS = {
  /** Agreed to version 1 of the gate document only: sent through the gate when version 2 is published. */
  gate: "legal-gate@example.test",
  /** Agreed to everything, version 2 included: never sent through the gate by these specs. */
  bystander: "legal-bystander@example.test",
} as const;

export const legalMemberName = (key: keyof typeof LEGAL_MEMBERS) => ({ name: "Lea", lastName: `Legal ${key}` });

/** The document publish.spec.ts publishes: required, withdrawn after version 1, its text on record. */
export const GATE_DOCUMENT = {
  name: "E2E Gate Notice",
  slug: "e2e-gate-notice",
  v1: "<h2>Notice</h2><p>Members keep their recordings private until they share them.</p><p>Disputes go to mediation first.</p>",
} as const;

/** A document nobody but these specs touches: drafts on it are never published. */
export const DRAFT_DOCUMENT = {
  name: "E2E Draft Only Policy",
  slug: "e2e-draft-only-policy",
  v1: "<p>This policy is never published by the e2e suite.</p>",
} as const;
