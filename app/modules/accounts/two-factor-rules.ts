/** Shared by the server and the pages (no server-only imports). Decision 019. */

export const TWO_FACTOR_REQUIRED =
  "Paying, approving and rejecting payouts needs two-factor authentication on your account. Turn it on on your Account page, then come back.";

export const AFFILIATE_TWO_FACTOR_REQUIRED =
  "Approving affiliates and changing their commission rate needs two-factor authentication on your account. Turn it on on your Account page, then come back.";

/** Where a user turns two-factor on: their Account page, at its two-factor section. */
export const twoFactorSetupPath = (userId: number) => `/member/${userId}/profile#two-factor`;
