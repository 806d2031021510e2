import { sql } from "drizzle-orm";
import type { NotificationColor } from "../modules/notifications/colors";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
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

/* ---------------------------------------------------------------- community (issue 5) */

/** Reference data: one table, one admin pattern. `pro` rows use country, website and code. */
export const referenceKinds = ["genre", "skill", "instrument", "language", "pro"] as const;
export type ReferenceKind = (typeof referenceKinds)[number];

export const referenceValues = pgTable(
  "reference_values",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: referenceKinds }).notNull(),
    name: text("name").notNull(),
    country: text("country"),
    website: text("website"),
    code: text("code"),
    /** A retired value stays on the records that carry it but cannot be chosen anew. */
    retiredAt: timestamp("retired_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("reference_values_kind_name_unique").on(t.kind, sql`lower(${t.name})`),
    index("reference_values_kind_name_idx").on(t.kind, t.name),
  ],
);

/** Artist pages and the four provider profile types share one table (one directory, one moderation flow). */
export const profileTypes = ["artist", "musician", "audio_engineer", "music_producer", "studio"] as const;
export type ProfileType = (typeof profileTypes)[number];
export const profileStatuses = ["draft", "pending_approval", "published", "unpublished", "rejected"] as const;
export type ProfileStatus = (typeof profileStatuses)[number];

export interface ProfileLink {
  label: string;
  url: string;
}
export interface ProfileCredit {
  title: string;
  role: string;
  year: number | null;
}

/** The text the directory search matches (lower-cased); the trigram index is built on exactly this. */
export function profileSearchText(t: { name: AnyPgColumn; username: AnyPgColumn }) {
  return sql`lower(${t.name} || ' ' || ${t.username})`;
}

export const profiles = pgTable(
  "profiles",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    type: text("type", { enum: profileTypes }).notNull(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Used in URLs (`musicians/{username}`); unique per type, case-insensitively. */
    username: text("username").notNull(),
    bio: text("bio").notNull().default(""),
    location: text("location").notNull().default(""),
    links: jsonb("links").$type<ProfileLink[]>().notNull().default([]),
    sampleLinks: jsonb("sample_links").$type<ProfileLink[]>().notNull().default([]),
    credits: jsonb("credits").$type<ProfileCredit[]>().notNull().default([]),
    /** Public path of the 256x256 avatar variant (artists). */
    avatarImg: text("avatar_img"),
    /** The stored hero image's id; its paths are built from the profile id and this (728x410 variant). */
    heroImg: text("hero_img"),
    status: text("status", { enum: profileStatuses }).notNull().default("draft"),
    rejectionReason: text("rejection_reason"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("profiles_type_username_unique").on(t.type, sql`lower(${t.username})`),
    // At most one profile of each provider type per member; any number of artists.
    uniqueIndex("profiles_one_provider_per_owner").on(t.ownerId, t.type).where(sql`${t.type} <> 'artist'`),
    index("profiles_owner_idx").on(t.ownerId),
    index("profiles_type_status_name_idx").on(t.type, t.status, t.name),
    index("profiles_type_status_published_idx").on(t.type, t.status, t.publishedAt),
    index("profiles_search_trgm_idx").using("gin", sql`${profileSearchText(t)} gin_trgm_ops`),
    index("profiles_location_trgm_idx").using("gin", sql`lower(${t.location}) gin_trgm_ops`),
  ],
);

/** Genres, skills, instruments and languages a profile carries. */
export const profileReferenceValues = pgTable(
  "profile_reference_values",
  {
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    valueId: integer("value_id")
      .notNull()
      .references(() => referenceValues.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.valueId] }), index("profile_reference_values_value_idx").on(t.valueId, t.profileId)],
);

export const rateUnits = ["per_song", "per_hour", "per_day", "per_project"] as const;
export type RateUnit = (typeof rateUnits)[number];

/** A provider's prices, in integer cents. */
export const profileRates = pgTable(
  "profile_rates",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    profileId: integer("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    unit: text("unit", { enum: rateUnits }).notNull(),
    position: smallint("position").notNull().default(0),
  },
  (t) => [
    index("profile_rates_profile_idx").on(t.profileId, t.position),
    check("profile_rates_amount_nonnegative", sql`${t.amountCents} >= 0`),
  ],
);

export const bandRoles = ["owner", "member"] as const;
export type BandRole = (typeof bandRoles)[number];

/** Who is in a band (artist page). The owner's row mirrors profiles.owner_id. */
export const artistMembers = pgTable(
  "artist_members",
  {
    artistId: integer("artist_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: bandRoles }).notNull().default("member"),
    /** A member with rights may edit the artist page (never remove the owner or delete the page). */
    canEdit: boolean("can_edit").notNull().default(false),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.artistId, t.userId] }), index("artist_members_user_idx").on(t.userId)],
);

/** An invitation to join a band, accepted through a signed link to /band-invite/{id}. */
export const bandInvites = pgTable(
  "band_invites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    artistId: integer("artist_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    canEdit: boolean("can_edit").notNull().default(false),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: integer("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("band_invites_artist_idx").on(t.artistId), index("band_invites_email_idx").on(sql`lower(${t.email})`)],
);

/** Industry managers, a directory administrators maintain. */
export const managers = pgTable(
  "managers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    company: text("company").notNull().default(""),
    email: text("email").notNull().default(""),
    phone: text("phone").notNull().default(""),
    website: text("website").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("managers_name_idx").on(t.name)],
);

/** The artist pages a manager represents. */
export const managerArtists = pgTable(
  "manager_artists",
  {
    managerId: integer("manager_id")
      .notNull()
      .references(() => managers.id, { onDelete: "cascade" }),
    artistId: integer("artist_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.managerId, t.artistId] }), index("manager_artists_artist_idx").on(t.artistId)],
);

/** Venues, a directory administrators maintain. */
export const venues = pgTable(
  "venues",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    city: text("city").notNull().default(""),
    country: text("country").notNull().default(""),
    capacity: integer("capacity"),
    email: text("email").notNull().default(""),
    phone: text("phone").notNull().default(""),
    website: text("website").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("venues_name_idx").on(t.name), check("venues_capacity_positive", sql`${t.capacity} is null or ${t.capacity} > 0`)],
);

export type ReferenceValue = typeof referenceValues.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type ProfileRate = typeof profileRates.$inferSelect;
export type Manager = typeof managers.$inferSelect;
export type Venue = typeof venues.$inferSelect;

export type User = typeof users.$inferSelect;
export type LegalDocument = typeof legalDocuments.$inferSelect;
