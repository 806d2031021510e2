/**
 * Accounts and projects for tests/e2e/marketplace/projects.spec.ts, created before the server starts by
 * project-fixtures.ts through the marketplace services (work request → estimate → accepted project, then
 * funded, delivered or completed as each test needs). Each test owns its pair of members and its project.
 * No app imports here: spec files import this.
 */
export const PROJECT_PASSWORD = "project-pass-123";

/** $200.00 of mixing with one revision included; the platform fee is 10 %, so the provider receives $180.00. */
export const PROJECT_AMOUNT_CENTS = 20_000;

export const PROJECT_SCENARIOS = {
  /** Accepted, not funded: the whole flow through the pages. */
  flow: "accepted",
  /** Funded and delivered: the client approves without JavaScript. */
  nojs: "delivered",
  /** Funded and delivered: an administrator resolves it with a split. */
  split: "delivered",
  /** Completed and paid: bad review input; a stranger gets 404 on it and its deliverable. */
  done: "completed",
  /** Funded, in progress: bad uploads. */
  upload: "funded",
  /** Accepted, not funded: the client pays by card through Stripe Checkout (the stand-in). */
  card: "accepted",
  /** Accepted: the message thread reaches an administrator watching the project live. */
  live: "accepted",
  /** Funded, not delivered: the client cancels it and the escrow is refunded. */
  cancel: "funded",
  /** Accepted: an administrator without two-factor is refused when confirming its funding. */
  refusal: "accepted",
  /** Delivered, for a song of the client's with 2.5 % points: approving proposes them as a split version. */
  points: "delivered",
  /** Accepted; the client has $300.00 of earnings: they pay it from their Backline balance. */
  balance: "accepted",
  /** Accepted; the client has $50.00 of earnings: not enough to pay from the balance. */
  short: "accepted",
} as const;
export type ProjectScenario = keyof typeof PROJECT_SCENARIOS;

/** The clients' earnings (their Backline balance) in the pay-from-balance scenarios, in cents. */
export const PROJECT_CLIENT_EARNINGS_CENTS: Partial<Record<ProjectScenario, number>> = { balance: 30_000, short: 5_000 };

/** The points scenario's song and the points its estimate carries (2.5 %). */
export const PROJECT_POINTS_SONG = "Points Song";
export const PROJECT_POINTS_BPS = 250;

export const projectClient = (key: ProjectScenario) => `pj-${key}-client@example.test`;
export const projectProvider = (key: ProjectScenario) => `pj-${key}-provider@example.test`;
export const projectProfileName = (key: ProjectScenario) => `Projects ${key[0]!.toUpperCase()}${key.slice(1)} Producer`;
/** A member who is party to none of them. */
export const PROJECT_STRANGER = "pj-stranger@example.test";
/** Funds the prepared projects (the fixtures' administrator; the spec's own needs two-factor). */
export const PROJECT_FIXTURE_ADMIN = "pj-admin@example.test";
