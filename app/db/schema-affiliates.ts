/** Affiliates, referrals and clicks (issue 13): tables of this feature, re-exported by schema.ts (one file per feature keeps parallel work apart). */
export {};
