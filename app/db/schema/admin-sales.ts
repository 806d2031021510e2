import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { salesImports } from "./core";

/**
 * The admin sales pages' running totals (decision 028, "Admin reports"): an import's statement lines summed per
 * month, store, territory, match (song, release, member) and, where no match names them, the line's own titles, with
 * the lines' count and the platform commission posted on them. Built per import from its own lines
 * (app/modules/ledger/reports/admin-sales-rollups.server.ts) and rebuilt when the import's unmatched figures change (a
 * match out of suspense moves lines to an artist). subject_id is the artist page (digital, licence: the song's, else the
 * release's) or the member (PRO), 0 when unmatched, as the admin pages group by.
 */
export const adminSalesRollups = pgTable(
  "admin_sales_rollups",
  {
    importId: integer("import_id")
      .notNull()
      .references(() => salesImports.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    store: text("store").notNull(),
    territory: text("territory").notNull(),
    songId: integer("song_id").notNull(),
    releaseId: integer("release_id").notNull(),
    releaseTitle: text("release_title").notNull(),
    trackTitle: text("track_title").notNull(),
    lines: integer("lines").notNull(),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    commissionMicros: bigint("commission_micros", { mode: "bigint" }).notNull(),
  },
  (t) => [
    primaryKey({
      name: "admin_sales_rollups_pk",
      columns: [t.importId, t.subjectId, t.month, t.store, t.territory, t.songId, t.releaseId, t.releaseTitle, t.trackTitle],
    }),
    index("admin_sales_rollups_subject_idx").on(t.kind, t.subjectId),
  ],
);

/** Which imports admin_sales_rollups holds, as of which unmatched figures (a change means: rebuild that import's rows). */
export const adminSalesRollupImports = pgTable("admin_sales_rollup_imports", {
  importId: integer("import_id")
    .primaryKey()
    .references(() => salesImports.id, { onDelete: "cascade" }),
  unmatched: integer("unmatched").notNull(),
  suspenseMicros: bigint("suspense_micros", { mode: "bigint" })
    .notNull()
    .default(sql`0`),
  builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which journal entries touched which member's figures (their own accounts, or the held account of a split party that
 * is theirs): the key of the per-member report cache (app/modules/ledger/reports/member-report-cache.server.ts,
 * decision 028). Written with the entry's running totals (summaries.server.ts addEntryToSummaries), insert-only, so
 * two entries for one member never wait on each other.
 */
export const memberLedgerChanges = pgTable(
  "member_ledger_changes",
  {
    userId: integer("user_id").notNull(),
    entryId: bigint("entry_id", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ name: "member_ledger_changes_pk", columns: [t.userId, t.entryId] })],
);
