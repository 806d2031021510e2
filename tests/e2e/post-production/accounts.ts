/**
 * Accounts and songs for the post-production specs (tests/e2e/post-production/), created before the server
 * starts by tests/e2e/support/prepare-post-production.ts. No app imports here: spec files import this.
 */
export const PP_PASSWORD = "post-prod-pass-123";

/** Owns "Harbour Lights" (no audio yet) and $200.00 of earnings: the member-engineer flow, paid from the balance; and the form's bad input. */
export const PP_OWNER = "pp-owner@example.test";
export const PP_OWNER_NAME = "Olive Owner";
export const PP_SONG = "Harbour Lights";
/** A member: the engineer of the first flow. */
export const PP_ENGINEER = "pp-engineer@example.test";
export const PP_ENGINEER_NAME = "Eddie Engineer";
/** A member who is party to nothing: 404 everywhere. */
export const PP_THIRD = "pp-third@example.test";
/** Owns "Paper Boats" and has no job yet (no menu entry): the invited-engineer flow. */
export const PP_FRESH = "pp-fresh@example.test";
export const PP_FRESH_NAME = "Fay Fresh";
export const PP_FRESH_SONG = "Paper Boats";
/** The owner's earnings (their Backline balance), in cents: enough for the first flow's $150.00 job. */
export const PP_OWNER_EARNINGS_CENTS = 20_000;
/** Owns "Night Ferry" and pays its job by card on the Stripe stand-in (the engineer is PP_ENGINEER). */
export const PP_CARD_OWNER = "pp-card-owner@example.test";
export const PP_CARD_SONG = "Night Ferry";
export const PP_CARD_ARTIST = "Ferry Band";
