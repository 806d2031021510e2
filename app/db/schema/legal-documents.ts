/**
 * Legal document versions and drafts (decision 024): tables of this feature, re-exported by schema.ts
 * (one file per feature keeps parallel work apart).
 *
 * `legal_documents` (schema.ts) stays the published state that the gate, the public pages and registration
 * read: its `content` and `version` are those of the version in force. Every published version is kept here
 * with its text (what a user agreed to, and what a diff compares), and an administrator's unpublished edit
 * lives in a draft row until it is published as the next version.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { legalDocuments, users } from "./core";

/** One published version of a document: its name and sanitised HTML as published. Never changed afterwards. */
export const legalDocumentVersions = pgTable(
  "legal_document_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer("document_id")
      .notNull()
      .references(() => legalDocuments.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    name: text("name").notNull(),
    content: text("content").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    publishedBy: integer("published_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("legal_document_versions_document_version_unique").on(t.documentId, t.version),
    check("legal_document_versions_version_positive", sql`${t.version} > 0`),
  ],
);

/** The text an administrator is editing, not yet published (one per document; gone once published or discarded). */
export const legalDocumentDrafts = pgTable(
  "legal_document_drafts",
  {
    documentId: integer("document_id")
      .primaryKey()
      .references(() => legalDocuments.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("legal_document_drafts_updated_by_idx").on(t.updatedBy)],
);

export type LegalDocumentVersion = typeof legalDocumentVersions.$inferSelect;
export type LegalDocumentDraft = typeof legalDocumentDrafts.$inferSelect;
