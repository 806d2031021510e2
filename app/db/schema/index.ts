/**
 * The database schema (drizzle), one file per area: the core tables (accounts, profiles, catalogue,
 * ledger, marketplace) and the later features' tables. Import from `~/db/schema`; the area files import
 * only from `./core`, never from this index, so the schema has no import cycle.
 */
export * from "./core";
export * from "./post-production";
export * from "./escrow";
export * from "./legal-documents";
export * from "./affiliates";
export * from "./reconciliations";
export * from "./admin-sales";
