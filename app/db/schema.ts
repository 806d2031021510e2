import { sql } from "drizzle-orm";
import type { NotificationColor } from "../modules/notifications/colors";
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** The text the admin member search matches (lower-cased); the trigram index is built on exactly this. */
export function userSearchText(t: { name: AnyPgColumn; lastName: AnyPgColumn; email: AnyPgColumn }) {
  return sql`lower(${t.name} || ' ' || ${t.lastName} || ' ' || ${t.email})`;
}

/** acct_type 1 member, 2 admin; role_id 1 super admin .. 5 user (spec section 6). */
export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    avatarImg: text("avatar_img"),
    acctType: smallint("acct_type").notNull().default(1),
    roleId: smallint("role_id").notNull().default(5),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_created_at_idx").on(t.createdAt),
    // Admin member search: a case-insensitive substring match on "name last_name email" (pg_trgm).
    index("users_search_trgm_idx").using("gin", sql`${userSearchText(t)} gin_trgm_ops`),
  ],
);

/** Server-side sessions: the cookie carries a signed id; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    ...timestamps,
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_expires_at_idx").on(t.expiresAt)],
);

export const tokenPurposes = ["password_reset", "email_verification", "email_change", "activation"] as const;
export type TokenPurpose = (typeof tokenPurposes)[number];

/** One-time tokens, stored as SHA-256 hashes; single use, with an expiry. */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: tokenPurposes }).notNull(),
    /** For email_change: the address that becomes the account's once the link is opened. */
    newEmail: text("new_email"),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_unique").on(t.tokenHash),
    index("one_time_tokens_user_purpose_idx").on(t.userId, t.purpose),
  ],
);

export const legalDocuments = pgTable(
  "legal_documents",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    content: text("content").notNull(),
    version: integer("version").notNull().default(1),
    required: boolean("required").notNull().default(true),
    published: boolean("published").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("legal_documents_slug_unique").on(t.slug)],
);

/** A user's agreement to one version of a document. */
export const signatures = pgTable(
  "signatures",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    documentId: integer("document_id")
      .notNull()
      .references(() => legalDocuments.id, { onDelete: "cascade" }),
    documentVersion: integer("document_version").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [uniqueIndex("signatures_user_document_version_unique").on(t.userId, t.documentId, t.documentVersion)],
);

/** Key-value settings the product serves as its config (spec section 7, GET config). */
export const appConfig = pgTable("app_config", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Fixed-window counters shared by every app node. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull().default(0),
});

/** A member's message to the administrators (Contact us). */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contact_messages_user_id_idx").on(t.userId)],
);

export { notificationColors, type NotificationColor } from "../modules/notifications/colors";

/** What a notification carries (spec section 3): the message and where clicking it leads. */
export interface NotificationData {
  message: string;
  color: NotificationColor;
  route_name: string | null;
  resource_id: string | number | null;
  route_hash: string | null;
}

/**
 * Notifications: a member's own (`user_id` set), or the administrators' shared list (`audience` admin,
 * the private admin-notifications channel is shared too). `type` names the kind, e.g. "Announcement".
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    audience: text("audience", { enum: ["member", "admin"] }).notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<NotificationData>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    index("notifications_audience_created_idx").on(t.audience, t.createdAt),
  ],
);

/** Published app versions ("What's new"): sanitised HTML content. */
export const appVersions = pgTable(
  "app_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    content: text("content").notNull(),
    publishedBy: integer("published_by").references(() => users.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("app_versions_published_at_idx").on(t.publishedAt)],
);

/** Who has seen which version's What's new. */
export const appVersionViews = pgTable(
  "app_version_views",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => appVersions.id, { onDelete: "cascade" }),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.versionId] }), index("app_version_views_version_id_idx").on(t.versionId)],
);

export type User = typeof users.$inferSelect;
export type LegalDocument = typeof legalDocuments.$inferSelect;
