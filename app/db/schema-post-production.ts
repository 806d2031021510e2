/** Post-production jobs (issue 12): tables of this feature, re-exported by schema.ts (one file per feature keeps parallel work apart). */
export {};
