import { boolean, integer, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";
import { salesImports } from "./core";

/** One mismatch a reconcile found (app/modules/ledger/reconcile.server.ts): what was compared, what it should be and what it is, in micro-units. */
export interface ReconcileMismatch {
  /** account: line parts vs postings; line: a line's parts vs the line; summary: running totals vs postings; entry: the entry's balance. */
  check: "account" | "line" | "summary" | "entry";
  label: string;
  expectedMicros: string;
  foundMicros: string;
}

/**
 * The last reconcile of an import (docs/money.md "Grain"): whether its lines' parts sum exactly to its postings, and
 * the mismatches found, if any. One row per import, replaced by each run (the job after the import, the admin's button).
 */
export const importReconciliations = pgTable("import_reconciliations", {
  importId: integer("import_id")
    .primaryKey()
    .references(() => salesImports.id, { onDelete: "cascade" }),
  reconciled: boolean("reconciled").notNull(),
  linesChecked: integer("lines_checked").notNull(),
  accountsChecked: integer("accounts_checked").notNull(),
  /** Every mismatch of the accounts, at most 50 lines' (mismatchedLines counts them all). */
  mismatches: jsonb("mismatches").$type<ReconcileMismatch[]>().notNull(),
  mismatchedLines: integer("mismatched_lines").notNull(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
});

export type ImportReconciliation = typeof importReconciliations.$inferSelect;
