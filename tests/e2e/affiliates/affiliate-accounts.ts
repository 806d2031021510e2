/**
 * Accounts and data for tests/e2e/affiliates/, created before the server starts by
 * tests/e2e/support/prepare-affiliates.ts. Each test owns its accounts. No app imports here: specs import this.
 */
export const AFF_PASSWORD = "affiliate-pass-123";

export const AFF = {
  /** An approved affiliate (code AFF_CODES.earner) with one referred member, who owns a song (AFF_ISRC). */
  earner: "aff-earner@example.test",
  /** The member referred to the earner: owns the artist page "Affiliate Test Band" and its song AFF_ISRC. */
  referred: "aff-referred@example.test",
  /** Approved (AFF_CODES.first): the first touch of the referred registration test. */
  first: "aff-first@example.test",
  /** Approved (AFF_CODES.second): a later link the same visitor follows; it must not win. */
  second: "aff-second@example.test",
  /** A member without an affiliate who applies through /register/affiliate. */
  applicant: "aff-applicant@example.test",
  /** Pending applications an administrator approves, rejects (and suspends). */
  toApprove: "aff-to-approve@example.test",
  toReject: "aff-to-reject@example.test",
  /** A member who applies without JavaScript (bad input first). */
  noJs: "aff-nojs@example.test",
  /** A pending application an administrator rejects without JavaScript. */
  noJsReject: "aff-nojs-reject@example.test",
  /** A member with no affiliate: gets 404 on others' affiliate pages. */
  stranger: "aff-stranger@example.test",
} as const;

export const AFF_CODES = { earner: "AFFEARN26", first: "AFFFIRST26", second: "AFFSECOND26" } as const;

/** The referred member's song: lines with this ISRC earn the earner its commission. */
export const AFF_ISRC = "QZAFF2600001";
export const AFF_SONG = "Referral Blues";
/** The earner's rate: 2500 basis points (25 %) of the platform commission. */
export const AFF_EARNER_BPS = 2500;
