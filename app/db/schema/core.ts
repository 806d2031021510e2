import { sql } from "drizzle-orm";
import type { NotificationColor } from "../../modules/notifications/colors";
import { escrowAmountColumns, escrowFundingMethods, escrowFundingStatuses, type EscrowFundingStatus } from "./escrow";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
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

/** acct_type 1 member, 2 admin; role_id 1 super admin .. 5 user. */
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

export const tokenPurposes = ["password_reset", "email_verification", "email_change", "email_change_cancel", "activation", "idempotency"] as const;
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
    /**
     * For email_change: the address that becomes the account's once the link is opened. For email_change_cancel:
     * the address the change leaves, which the link sent to it puts back.
     */
    newEmail: text("new_email"),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("one_time_tokens_hash_unique").on(t.tokenHash), index("one_time_tokens_user_purpose_idx").on(t.userId, t.purpose)],
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

/** Key-value settings the product serves as its config. */
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

export { notificationColors, type NotificationColor } from "../../modules/notifications/colors";

/** What a notification carries: the message and where clicking it leads. */
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
  (t) => [index("notifications_user_created_idx").on(t.userId, t.createdAt), index("notifications_audience_created_idx").on(t.audience, t.createdAt)],
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

/* ---------------------------------------------------------------- community */

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
  (t) => [uniqueIndex("reference_values_kind_name_unique").on(t.kind, sql`lower(${t.name})`), index("reference_values_kind_name_idx").on(t.kind, t.name)],
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
    uniqueIndex("profiles_one_provider_per_owner")
      .on(t.ownerId, t.type)
      .where(sql`${t.type} <> 'artist'`),
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
  (t) => [index("profile_rates_profile_idx").on(t.profileId, t.position), check("profile_rates_amount_nonnegative", sql`${t.amountCents} >= 0`)],
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

/* ---------------------------------------------------------------- catalogue */

export const releaseTypes = ["single", "ep", "album"] as const;
export type ReleaseType = (typeof releaseTypes)[number];

/**
 * A release's life: draft -> pending_approval -> approved (shown as tag_ready_for_distribution) | rejected;
 * approved -> in_distribution (shown as upcoming_release before its date, published after it); a takedown is
 * requested, then done. Each transition is one conditional UPDATE and a row in release_status_history.
 */
export const releaseStatuses = ["draft", "pending_approval", "approved", "rejected", "in_distribution", "takedown_requested", "taken_down"] as const;
export type ReleaseStatus = (typeof releaseStatuses)[number];

/** What an administrator's rejection says, per field (the field names the preflight uses). */
export interface ReleaseRejectionReason {
  field: string;
  message: string;
}

/** `'a', 'b'` for a CHECK constraint's IN list (fixed vocabularies only, never user input). */
function sqlList(values: readonly string[]) {
  return sql.raw(values.map((v) => `'${v}'`).join(", "));
}

/** A release of an artist page (profiles of type artist; the services check the type). */
export const releases = pgTable(
  "releases",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    artistId: integer("artist_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    /** Used in URLs (`release-page/{artistSlug}/{releaseSlug}`); unique per artist, case-insensitively. */
    slug: text("slug").notNull(),
    type: text("type", { enum: releaseTypes }).notNull(),
    /** UPC-A (12 digits) or EAN-13, digits only; unique across the catalogue, leading zeros ignored. */
    upc: text("upc"),
    label: text("label").notNull().default(""),
    /** ℗ line (the sound recording's owner) and © line (the artwork and packaging's). */
    pLine: text("p_line").notNull().default(""),
    cLine: text("c_line").notNull().default(""),
    primaryGenreId: integer("primary_genre_id").references(() => referenceValues.id, { onDelete: "restrict" }),
    secondaryGenreId: integer("secondary_genre_id").references(() => referenceValues.id, { onDelete: "restrict" }),
    languageId: integer("language_id").references(() => referenceValues.id, { onDelete: "restrict" }),
    /** Nullable until chosen: a draft saves at every step of the distribution flow. */
    releaseDate: date("release_date", { mode: "string" }),
    previouslyReleased: boolean("previously_released").notNull().default(false),
    previousReleaseDate: date("previous_release_date", { mode: "string" }),
    /** The explicit flag. */
    parentalAdvisory: boolean("parental_advisory").notNull().default(false),
    /** The stored cover art's path; null until uploaded. Its size in pixels, read from the file at upload. */
    coverArtPath: text("cover_art_path"),
    coverArtWidth: integer("cover_art_width"),
    coverArtHeight: integer("cover_art_height"),
    /** Store codes chosen for delivery. */
    stores: text("stores")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** ISO 3166-1 alpha-2 codes, or ["WW"] for worldwide. */
    territories: text("territories")
      .array()
      .notNull()
      .default(sql`'{WW}'::text[]`),
    status: text("status", { enum: releaseStatuses }).notNull().default("draft"),
    rejectionReasons: jsonb("rejection_reasons").$type<ReleaseRejectionReason[]>(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: integer("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("releases_artist_slug_unique").on(t.artistId, sql`lower(${t.slug})`),
    // Statement lines match a release by UPC with leading zeros ignored: the same key is unique.
    uniqueIndex("releases_upc_unique").on(sql`ltrim(${t.upc}, '0')`),
    index("releases_artist_created_idx").on(t.artistId, t.createdAt),
    index("releases_status_created_idx").on(t.status, t.createdAt),
    index("releases_created_at_idx").on(t.createdAt),
    check("releases_type_valid", sql`${t.type} in (${sqlList(releaseTypes)})`),
    check("releases_status_valid", sql`${t.status} in (${sqlList(releaseStatuses)})`),
    check("releases_upc_format", sql`${t.upc} is null or ${t.upc} ~ '^[0-9]{12,13}$'`),
  ],
);

/** Who moved a release from one status to another, when and why (append-only). */
export const releaseStatusHistory = pgTable(
  "release_status_history",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    releaseId: integer("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    /** Null for the release's creation. */
    fromStatus: text("from_status", { enum: releaseStatuses }),
    toStatus: text("to_status", { enum: releaseStatuses }).notNull(),
    /** Null when the system made the change (e.g. the date passing). */
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("release_status_history_release_idx").on(t.releaseId, t.createdAt),
    check("release_status_history_from_valid", sql`${t.fromStatus} is null or ${t.fromStatus} in (${sqlList(releaseStatuses)})`),
    check("release_status_history_to_valid", sql`${t.toStatus} in (${sqlList(releaseStatuses)})`),
  ],
);

export const audioFormats = ["wav", "flac"] as const;
export type AudioFormat = (typeof audioFormats)[number];

/**
 * A recording of an artist page. Audio properties are read from the file (music-metadata) and stored
 * together: either all of format, bit depth, sample rate and channels are set, or none ("no audio yet").
 */
export const songs = pgTable(
  "songs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    artistId: integer("artist_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    /** "Radio Edit", "Live", "Acoustic"...; empty for the original. */
    version: text("version").notNull().default(""),
    /** Uppercase, no hyphens (USBL12600001); unique across the catalogue. */
    isrc: text("isrc"),
    /** T-345.246.800-3 (normalizeIswc); recordings of one work may share it. */
    iswc: text("iswc"),
    /** From the audio file. */
    durationSeconds: integer("duration_seconds"),
    explicit: boolean("explicit").notNull().default(false),
    languageId: integer("language_id").references(() => referenceValues.id, { onDelete: "restrict" }),
    lyrics: text("lyrics").notNull().default(""),
    /** A cover records its mechanical licence: provider, licence id and the original writers. */
    isCover: boolean("is_cover").notNull().default(false),
    coverLicenceProvider: text("cover_licence_provider"),
    coverLicenceId: text("cover_licence_id"),
    coverOriginalWriters: text("cover_original_writers"),
    /** The stored audio file's path; null until uploaded. */
    audioPath: text("audio_path"),
    audioFormat: text("audio_format", { enum: audioFormats }),
    audioBitDepth: smallint("audio_bit_depth"),
    audioSampleRate: integer("audio_sample_rate"),
    audioChannels: smallint("audio_channels"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("songs_isrc_unique").on(t.isrc),
    index("songs_iswc_idx").on(t.iswc),
    // A member's songs by title (lists, and PRO lines matched by work title among an artist's songs).
    index("songs_artist_title_idx").on(t.artistId, sql`lower(${t.title})`),
    index("songs_created_at_idx").on(t.createdAt),
    check("songs_isrc_format", sql`${t.isrc} is null or ${t.isrc} ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'`),
    check("songs_iswc_format", sql`${t.iswc} is null or ${t.iswc} ~ '^T-[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]$'`),
    check("songs_duration_positive", sql`${t.durationSeconds} is null or ${t.durationSeconds} > 0`),
    check("songs_audio_format_valid", sql`${t.audioFormat} is null or ${t.audioFormat} in (${sqlList(audioFormats)})`),
    check(
      "songs_audio_properties_together",
      sql`(${t.audioFormat} is null and ${t.audioBitDepth} is null and ${t.audioSampleRate} is null and ${t.audioChannels} is null)
        or (${t.audioFormat} is not null and ${t.audioBitDepth} is not null and ${t.audioSampleRate} is not null
          and ${t.audioChannels} is not null and ${t.audioBitDepth} > 0 and ${t.audioSampleRate} > 0 and ${t.audioChannels} > 0)`,
    ),
    check("songs_audio_path_has_properties", sql`${t.audioPath} is null or ${t.audioFormat} is not null`),
  ],
);

/** A song's writers (the composition). Shares are basis points; the services keep a song's total at 10,000. */
export const songWriters = pgTable(
  "song_writers",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Set when the writer is a member. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    shareBps: integer("share_bps").notNull(),
    proId: integer("pro_id").references(() => referenceValues.id, { onDelete: "restrict" }),
    /** IPI/CAE name number, digits only. */
    ipi: text("ipi"),
    position: smallint("position").notNull().default(0),
  },
  (t) => [
    index("song_writers_song_idx").on(t.songId, t.position),
    index("song_writers_user_idx").on(t.userId),
    check("song_writers_share_range", sql`${t.shareBps} between 0 and 10000`),
    check("song_writers_ipi_format", sql`${t.ipi} is null or ${t.ipi} ~ '^[0-9]{9,11}$'`),
  ],
);

/** A release's ordered songs (positions from 1); a song may be on several releases, once on each. */
export const releaseTracks = pgTable(
  "release_tracks",
  {
    releaseId: integer("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "restrict" }),
    position: smallint("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.releaseId, t.position] }),
    uniqueIndex("release_tracks_release_song_unique").on(t.releaseId, t.songId),
    index("release_tracks_song_idx").on(t.songId),
    check("release_tracks_position_positive", sql`${t.position} >= 1`),
  ],
);

export const creditRoles = ["producer", "featured_artist"] as const;
export type CreditRole = (typeof creditRoles)[number];
export const creditStatuses = ["pending", "accepted", "declined", "revoked"] as const;
export type CreditStatus = (typeof creditStatuses)[number];

/**
 * Producer and featured-artist credits, invited by email through a signed link to
 * `/song-producer-invite/{id}` or `/song-featured-artist-invite/{id}`. An accepted credit is verified.
 */
export const songCredits = pgTable(
  "song_credits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "cascade" }),
    role: text("role", { enum: creditRoles }).notNull(),
    email: text("email").notNull(),
    /** The member the credit belongs to, once accepted (or known at invitation). */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: creditStatuses }).notNull().default("pending"),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("song_credits_song_idx").on(t.songId, t.role),
    index("song_credits_user_idx").on(t.userId),
    index("song_credits_email_idx").on(sql`lower(${t.email})`),
    // One live invitation or credit per person and role on a song.
    uniqueIndex("song_credits_live_unique")
      .on(t.songId, t.role, sql`lower(${t.email})`)
      .where(sql`${t.status} in ('pending', 'accepted')`),
    check("song_credits_role_valid", sql`${t.role} in (${sqlList(creditRoles)})`),
    check("song_credits_status_valid", sql`${t.status} in (${sqlList(creditStatuses)})`),
  ],
);

/**
 * A delivery package built on approval: a DDEX ERN 4.3 NewReleaseMessage with the audio and the art, and
 * their checksums, in one zip under DATA_DIR. What a delivery to a store or aggregator would send.
 */
export const releaseDeliveries = pgTable(
  "release_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    releaseId: integer("release_id")
      .notNull()
      .references(() => releases.id, { onDelete: "cascade" }),
    /** The ERN MessageId, unique per package. */
    messageId: text("message_id").notNull().unique(),
    /** The zip's path under the data folder. */
    packagePath: text("package_path").notNull(),
    /** SHA-256 of the zip, hex. */
    packageSha256: text("package_sha256").notNull(),
    packageBytes: bigint("package_bytes", { mode: "number" }).notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("release_deliveries_release_idx").on(t.releaseId, t.createdAt)],
);

export type Release = typeof releases.$inferSelect;
export type ReleaseStatusChange = typeof releaseStatusHistory.$inferSelect;
export type Song = typeof songs.$inferSelect;
export type SongWriter = typeof songWriters.$inferSelect;
export type ReleaseTrack = typeof releaseTracks.$inferSelect;
export type SongCredit = typeof songCredits.$inferSelect;
export type ReleaseDelivery = typeof releaseDeliveries.$inferSelect;

/* ------------------------------------------------------------------ share splits (master royalties) */

export const splitVersionStatuses = ["proposed", "confirmed", "withdrawn"] as const;
export type SplitVersionStatus = (typeof splitVersionStatuses)[number];
export const splitPartyStatuses = ["pending", "accepted", "declined"] as const;
export type SplitPartyStatus = (typeof splitPartyStatuses)[number];

/**
 * A version of a song's split sheet. Proposed by the song's owner, an editor of its artist page or an
 * administrator; it comes into force on `effective_from` once the owner (or an admin) confirms it, and
 * stays in force until the next confirmed version's date, so confirmed versions never overlap.
 * Allocation uses the version in force on the first day of a line's sale period (docs/money.md).
 */
export const splitVersions = pgTable(
  "split_versions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "cascade" }),
    /** 1, 2, 3... per song, in the order proposed. */
    number: smallint("number").notNull(),
    effectiveFrom: date("effective_from", { mode: "string" }).notNull(),
    status: text("status", { enum: splitVersionStatuses }).notNull().default("proposed"),
    note: text("note").notNull().default(""),
    proposedBy: integer("proposed_by").references(() => users.id, { onDelete: "set null" }),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedBy: integer("confirmed_by").references(() => users.id, { onDelete: "set null" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    withdrawnBy: integer("withdrawn_by").references(() => users.id, { onDelete: "set null" }),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("split_versions_song_number_unique").on(t.songId, t.number),
    // Two confirmed versions of a song never start on the same day (each runs until the next one starts).
    uniqueIndex("split_versions_confirmed_date_unique")
      .on(t.songId, t.effectiveFrom)
      .where(sql`${t.status} = 'confirmed'`),
    // One open proposal per song at a time: a second one would leave parties answering two sheets.
    uniqueIndex("split_versions_one_proposal")
      .on(t.songId)
      .where(sql`${t.status} = 'proposed'`),
    index("split_versions_song_date_idx").on(t.songId, t.status, t.effectiveFrom),
    check("split_versions_status_valid", sql`${t.status} in (${sqlList(splitVersionStatuses)})`),
  ],
);

/**
 * A party of a split version: a member, or an email address invited to `/share-split-proposals/create-account`
 * with a signed link (the id is in the link). Who answered, when and from where is kept for the signed sheet.
 * `recoup_micros` is the optional "recoup before percentage" amount paid to this party first (one party per version).
 */
export const splitParties = pgTable(
  "split_parties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    versionId: integer("version_id")
      .notNull()
      .references(() => splitVersions.id, { onDelete: "cascade" }),
    /** Set for a member (at proposal, or when the invitee creates an account or logs in with the address). */
    userId: integer("user_id").references(() => users.id, { onDelete: "restrict" }),
    email: text("email").notNull(),
    /** The name shown on the sheet, taken at proposal (the member's full name, else the address). */
    name: text("name").notNull(),
    shareBps: integer("share_bps").notNull(),
    recoupMicros: bigint("recoup_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    status: text("status", { enum: splitPartyStatuses }).notNull().default("pending"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    answeredIp: text("answered_ip"),
    answeredUserAgent: text("answered_user_agent"),
    position: smallint("position").notNull(),
  },
  (t) => [
    uniqueIndex("split_parties_version_email_unique").on(t.versionId, sql`lower(${t.email})`),
    index("split_parties_version_idx").on(t.versionId, t.position),
    index("split_parties_user_idx").on(t.userId),
    index("split_parties_email_idx").on(sql`lower(${t.email})`),
    check("split_parties_share_range", sql`${t.shareBps} between 1 and 10000`),
    check("split_parties_recoup_non_negative", sql`${t.recoupMicros} >= 0`),
    check("split_parties_status_valid", sql`${t.status} in (${sqlList(splitPartyStatuses)})`),
    check("split_parties_answer_recorded", sql`${t.status} = 'pending' or ${t.answeredAt} is not null`),
  ],
);

export const splitEventKinds = ["proposed", "accepted", "declined", "confirmed", "withdrawn"] as const;
export type SplitEventKind = (typeof splitEventKinds)[number];

/** A split's history (append-only): every party sees who did what, when. */
export const splitEvents = pgTable(
  "split_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => splitVersions.id, { onDelete: "cascade" }),
    partyId: uuid("party_id").references(() => splitParties.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: splitEventKinds }).notNull(),
    /** The sentence shown in the history, written when it happened (names as they were then). */
    message: text("message").notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("split_events_song_idx").on(t.songId, t.createdAt), check("split_events_kind_valid", sql`${t.kind} in (${sqlList(splitEventKinds)})`)],
);

export type SplitVersion = typeof splitVersions.$inferSelect;
export type SplitParty = typeof splitParties.$inferSelect;
export type SplitEvent = typeof splitEvents.$inferSelect;

/* ------------------------------------------------------------------ the ledger (docs/money.md) */

export const statementKinds = ["digital", "pro", "license"] as const;
export type StatementKindName = (typeof statementKinds)[number];
export const salesImportStatuses = ["queued", "processing", "completed", "failed", "refused"] as const;
export type SalesImportStatus = (typeof salesImportStatuses)[number];

/**
 * An uploaded statement file and its import job. The file is kept under DATA_DIR; a file (by SHA-256) or a
 * statement id from one source is imported once: a live or finished import holds its key.
 */
export const salesImports = pgTable(
  "sales_imports",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: statementKinds }).notNull(),
    status: text("status", { enum: salesImportStatuses }).notNull().default("queued"),
    /** The recognised layout (canonical-digital, distrokid, tunecore, cdbaby, canonical-pro, bmi, ascap, canonical-license). */
    layout: text("layout"),
    fileName: text("file_name").notNull(),
    filePath: text("file_path").notNull(),
    fileSha256: text("file_sha256").notNull(),
    fileBytes: bigint("file_bytes", { mode: "number" }).notNull(),
    /** The statement id the file's lines carry, when they carry one. */
    statementId: text("statement_id"),
    /** The rate the administrator entered for lines in another currency that carry none. */
    exchangeRate: text("exchange_rate"),
    lines: integer("lines").notNull().default(0),
    /** The lines the upload's check read (known from the moment it is queued: the page's progress bar). */
    expectedLines: integer("expected_lines"),
    matched: integer("matched").notNull().default(0),
    unmatched: integer("unmatched").notNull().default(0),
    totalMicros: bigint("total_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    suspenseMicros: bigint("suspense_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    error: text("error"),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("sales_imports_file_unique")
      .on(t.fileSha256)
      .where(sql`${t.status} in ('queued', 'processing', 'completed')`),
    uniqueIndex("sales_imports_statement_unique")
      .on(t.layout, t.statementId)
      .where(sql`${t.statementId} is not null and ${t.status} in ('queued', 'processing', 'completed')`),
    index("sales_imports_kind_created_idx").on(t.kind, t.createdAt),
    check("sales_imports_kind_valid", sql`${t.kind} in (${sqlList(statementKinds)})`),
    check("sales_imports_status_valid", sql`${t.status} in (${sqlList(salesImportStatuses)})`),
  ],
);

/** A parsed statement line, as read (amounts in micro-units), and what it matched. Written only by its import. */
export const statementLines = pgTable(
  "statement_lines",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    importId: integer("import_id")
      .notNull()
      .references(() => salesImports.id, { onDelete: "restrict" }),
    lineNo: integer("line_no").notNull(),
    kind: text("kind", { enum: statementKinds }).notNull(),
    statementId: text("statement_id"),
    salePeriodStart: date("sale_period_start", { mode: "string" }).notNull(),
    salePeriodEnd: date("sale_period_end", { mode: "string" }).notNull(),
    /** Store, society or licensee. */
    source: text("source").notNull(),
    territory: text("territory"),
    artist: text("artist"),
    releaseTitle: text("release_title"),
    trackTitle: text("track_title"),
    isrc: text("isrc"),
    upc: text("upc"),
    iswc: text("iswc"),
    ipi: text("ipi"),
    quantity: integer("quantity"),
    originalAmountMicros: bigint("original_amount_micros", { mode: "bigint" }).notNull(),
    originalCurrency: text("original_currency").notNull(),
    exchangeRate: text("exchange_rate"),
    /** In USD micro-units, after the exchange rate. */
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    songId: integer("song_id").references(() => songs.id, { onDelete: "restrict" }),
    releaseId: integer("release_id").references(() => releases.id, { onDelete: "restrict" }),
    /** PRO lines: the member matched by IPI/CAE. */
    memberId: integer("member_id").references(() => users.id, { onDelete: "restrict" }),
    /** isrc, upc, ipi-iswc, ipi-title, alias or admin; null while in suspense. */
    matchedBy: text("matched_by"),
    /**
     * The code the line is matched and grouped by while in suspense, "type:key" (isrc:, upc:, ipi:, title:), as
     * the alias it teaches is keyed; computed by the database (migration 0025, decision 028).
     */
    suspenseKey: text("suspense_key").generatedAlwaysAs(
      sql`CASE WHEN "kind" = 'pro' THEN coalesce('ipi:' || "ipi", 'title:' || nullif(lower(btrim(regexp_replace("track_title", '\s+', ' ', 'g'))), ''))
  ELSE coalesce('isrc:' || "isrc", 'upc:' || "upc", 'title:' || nullif(lower(btrim(regexp_replace("track_title", '\s+', ' ', 'g'))), '')) END`,
    ),
  },
  (t) => [
    uniqueIndex("statement_lines_import_line_unique").on(t.importId, t.lineNo),
    index("statement_lines_song_period_idx").on(t.songId, t.salePeriodStart),
    index("statement_lines_release_period_idx").on(t.releaseId, t.salePeriodStart),
    index("statement_lines_member_idx").on(t.memberId),
    index("statement_lines_unmatched_idx")
      .on(t.importId)
      .where(sql`${t.matchedBy} is null`),
    index("statement_lines_suspense_key_idx")
      .on(t.kind, t.suspenseKey)
      .where(sql`${t.matchedBy} is null`),
    check("statement_lines_kind_valid", sql`${t.kind} in (${sqlList(statementKinds)})`),
  ],
);

export const ledgerAccountKinds = [
  "receipts",
  "earnings",
  "held",
  "suspense",
  "commission",
  "payouts_reserved",
  "payouts_paid",
  "withholding",
  "escrow",
  "affiliate_commission",
  "payout_fees",
] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];

/**
 * Ledger accounts: per member (earnings, payouts, withholding, affiliate commission), per pending split party
 * (held), and the platform's own (receipts per statement kind, suspense, commission, escrow). One row per key.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ledgerAccountKinds }).notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "restrict" }),
    splitPartyId: uuid("split_party_id").references(() => splitParties.id, { onDelete: "restrict" }),
    /** Receipts are kept per statement kind ("digital", "pro", "license"); empty otherwise. */
    subKind: text("sub_kind").notNull().default(""),
    currency: text("currency").notNull().default("USD"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("ledger_accounts_key_unique").on(t.kind, t.userId, t.splitPartyId, t.subKind, t.currency).nullsNotDistinct(),
    index("ledger_accounts_user_idx").on(t.userId),
    check("ledger_accounts_kind_valid", sql`${t.kind} in (${sqlList(ledgerAccountKinds)})`),
  ],
);

/** A journal entry: two or more postings summing to zero per currency. Append-only; corrected by reversal. */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").notNull(),
    memo: text("memo").notNull().default(""),
    importId: integer("import_id").references(() => salesImports.id, { onDelete: "restrict" }),
    reversesEntryId: bigint("reverses_entry_id", { mode: "number" }).references((): AnyPgColumn => journalEntries.id, { onDelete: "restrict" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("journal_entries_import_idx").on(t.importId), index("journal_entries_created_idx").on(t.createdAt)],
);

export const incomeSources = ["digital", "pro", "license", "marketplace", "affiliate"] as const;
export type IncomeSource = (typeof incomeSources)[number];

/** One side of an entry. Postings from a statement point to their line and the split version that shared it. */
export const postings = pgTable(
  "postings",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint("entry_id", { mode: "number" })
      .notNull()
      .references(() => journalEntries.id, { onDelete: "restrict" }),
    accountId: integer("account_id")
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: "restrict" }),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    statementLineId: bigint("statement_line_id", { mode: "number" }).references(() => statementLines.id, { onDelete: "restrict" }),
    source: text("source", { enum: incomeSources }),
    splitVersionId: integer("split_version_id").references(() => splitVersions.id, { onDelete: "restrict" }),
    /** The song this share was earned on (a release-level line is spread over its tracks, one posting each). */
    songId: integer("song_id").references(() => songs.id, { onDelete: "restrict" }),
    /** The part of this posting that went to a "recoup before percentage" (decision 015). */
    recoupMicros: bigint("recoup_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
  },
  (t) => [
    // Balances sum by (account, source); a member's lines page reads in (line, song) order from it.
    index("postings_account_idx").on(t.accountId, t.source, t.statementLineId, t.songId),
    // An entry's postings in id order (the journal shows the first of an entry of any size without sorting them all).
    index("postings_entry_idx").on(t.entryId, t.id),
    index("postings_line_idx").on(t.statementLineId),
    index("postings_split_version_idx")
      .on(t.splitVersionId)
      .where(sql`${t.splitVersionId} is not null`),
    index("postings_song_idx")
      .on(t.songId)
      .where(sql`${t.songId} is not null`),
    check("postings_source_valid", sql`${t.source} is null or ${t.source} in (${sqlList(incomeSources)})`),
  ],
);

/**
 * A cached running total of the postings (docs/money.md "Balances are derived": written in the same transaction as
 * the postings it sums, by the import and by postEntry; tests prove it equals the sums over postings). One row
 * per account and everything the sales and income pages group on; none is stored as '' (text) or 0 (ids).
 * - month: the first day of the month of the line's sale period, else of the entry (UTC);
 * - release_title / track_title: the line's own titles, kept only when the line has no release / the posting no song;
 * - lines: postings that are the account's first on their statement line (so a sum counts distinct lines);
 *   track_lines: the account's first on their line and song; postings: every posting.
 */
export const postingSummaries = pgTable(
  "posting_summaries",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: "restrict" }),
    source: text("source").notNull().default(""),
    importId: integer("import_id").notNull().default(0),
    month: date("month", { mode: "string" }).notNull(),
    store: text("store").notNull().default(""),
    territory: text("territory").notNull().default(""),
    songId: integer("song_id").notNull().default(0),
    releaseId: integer("release_id").notNull().default(0),
    releaseTitle: text("release_title").notNull().default(""),
    trackTitle: text("track_title").notNull().default(""),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    postings: integer("postings").notNull(),
    lines: integer("lines").notNull(),
    trackLines: integer("track_lines").notNull(),
  },
  (t) => [
    primaryKey({
      name: "posting_summaries_pk",
      columns: [t.accountId, t.source, t.importId, t.month, t.store, t.territory, t.songId, t.releaseId, t.releaseTitle, t.trackTitle],
    }),
  ],
);

/**
 * posting_summaries rolled up for the pages that read a member's whole history (dashboard, income, the sales
 * pages without a store or country filter), kept by triggers on posting_summaries (migration 0015) in the
 * same statement as its changes, so the two always agree. Three kinds of row (`dim`):
 * - '': per account, source, import, month, song, release and titles (store and territory summed away);
 * - 'store' / 'territory': per account, source, month, artist page and that value (dim_value).
 * artist_id is the song's artist page (0 without a song). Read by app/modules/ledger/summaries.server.ts's users.
 */
export const postingRollups = pgTable(
  "posting_rollups",
  {
    accountId: integer("account_id").notNull(),
    source: text("source").notNull(),
    dim: text("dim").notNull(),
    dimValue: text("dim_value").notNull(),
    importId: integer("import_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    songId: integer("song_id").notNull(),
    artistId: integer("artist_id").notNull(),
    releaseId: integer("release_id").notNull(),
    releaseTitle: text("release_title").notNull(),
    trackTitle: text("track_title").notNull(),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    postings: integer("postings").notNull(),
    lines: integer("lines").notNull(),
    trackLines: integer("track_lines").notNull(),
  },
  (t) => [
    primaryKey({
      name: "posting_rollups_pk",
      columns: [t.accountId, t.source, t.dim, t.dimValue, t.importId, t.month, t.songId, t.artistId, t.releaseId, t.releaseTitle, t.trackTitle],
    }),
  ],
);

export type SalesImport = typeof salesImports.$inferSelect;
export type StatementLineRow = typeof statementLines.$inferSelect;
export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type JournalEntry = typeof journalEntries.$inferSelect;
export type Posting = typeof postings.$inferSelect;

/** A member's performing-rights identity: PRO lines match a member by this IPI/CAE number (docs/money.md "Matching"). */
export const memberProIdentities = pgTable(
  "member_pro_identities",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Digits only, 9 to 11 of them, leading zeros kept as written. */
    ipiCae: text("ipi_cae").notNull(),
    /** The society's short name (BMI, ASCAP, ...), as the member gave it. */
    pro: text("pro"),
    ...timestamps,
  },
  (t) => [uniqueIndex("member_pro_identities_ipi_unique").on(t.ipiCae), check("member_pro_identities_ipi_format", sql`${t.ipiCae} ~ '^[0-9]{9,11}$'`)],
);

export const matchKeyTypes = ["isrc", "upc", "iswc", "ipi", "title"] as const;
export type MatchKeyType = (typeof matchKeyTypes)[number];

/**
 * Codes and titles an administrator matched by hand, remembered so later statements match by themselves
 * (docs/money.md "Matched aliases are remembered"). A key points to a song, a release or (PRO) a member.
 */
export const matchAliases = pgTable(
  "match_aliases",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: statementKinds }).notNull(),
    keyType: text("key_type", { enum: matchKeyTypes }).notNull(),
    /** Normalised as statement lines are (uppercase codes without separators; lowercase trimmed titles). */
    key: text("key").notNull(),
    songId: integer("song_id").references(() => songs.id, { onDelete: "cascade" }),
    releaseId: integer("release_id").references(() => releases.id, { onDelete: "cascade" }),
    memberId: integer("member_id").references(() => users.id, { onDelete: "cascade" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("match_aliases_key_unique").on(t.kind, t.keyType, t.key),
    check("match_aliases_key_type_valid", sql`${t.keyType} in (${sqlList(matchKeyTypes)})`),
    check("match_aliases_target", sql`${t.songId} is not null or ${t.releaseId} is not null or ${t.memberId} is not null`),
  ],
);
export type MatchAlias = typeof matchAliases.$inferSelect;

/**
 * A suspense match of a code, run as a background job (decision 028): what an administrator asked for (the
 * line and its target), how far it has gone, and how it ended. The lines themselves move in one transaction.
 */
export const suspenseMatchStatuses = ["queued", "processing", "completed", "failed"] as const;
export const suspenseMatches = pgTable(
  "suspense_matches",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    lineId: bigint("line_id", { mode: "number" })
      .notNull()
      .references(() => statementLines.id, { onDelete: "cascade" }),
    importId: integer("import_id").references(() => salesImports.id, { onDelete: "cascade" }),
    /** `{ songId }`, `{ releaseId }` or `{ memberId, songId? }` (suspense-matching.server.ts MatchTarget). */
    target: jsonb("target").$type<Record<string, number | null>>().notNull(),
    /** The code matched ("isrc:…"), null for a line without one. */
    code: text("code"),
    status: text("status", { enum: suspenseMatchStatuses }).notNull().default("queued"),
    /** The lines in suspense with the code when it was queued (the progress bar's end). */
    expectedLines: integer("expected_lines").notNull().default(1),
    matched: integer("matched").notNull().default(0),
    error: text("error"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("suspense_matches_created_idx").on(t.createdAt),
    check("suspense_matches_status_valid", sql`${t.status} in (${sqlList(suspenseMatchStatuses)})`),
  ],
);
export type SuspenseMatch = typeof suspenseMatches.$inferSelect;

/* ------------------------------------------------------------------ payouts (decision 018) */

export const payoutMethods = ["manual", "stripe"] as const;
export type PayoutMethod = (typeof payoutMethods)[number];
export const stripeOnboardingStatuses = ["none", "pending", "complete", "restricted"] as const;
export type StripeOnboardingStatus = (typeof stripeOnboardingStatuses)[number];

/**
 * How a member is paid: one row per member. Bank details (manual transfers) are stored encrypted with
 * AES-256-GCM (app/modules/payouts/bank-details.server.ts); only the last 4 digits are kept in clear.
 * `country` (ISO 3166-1 alpha-2) is the member's tax residence: it decides which tax form applies.
 */
export const payoutAccounts = pgTable(
  "payout_accounts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    method: text("method", { enum: payoutMethods }).notNull(),
    country: text("country").notNull(),
    /** "v1:" + base64(iv | tag | ciphertext) of the bank details' JSON; null when none are stored. */
    bankDetailsEncrypted: text("bank_details_encrypted"),
    bankLast4: text("bank_last4"),
    stripeAccountId: text("stripe_account_id"),
    stripeOnboardingStatus: text("stripe_onboarding_status", { enum: stripeOnboardingStatuses }).notNull().default("none"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payout_accounts_user_unique").on(t.userId),
    uniqueIndex("payout_accounts_stripe_unique").on(t.stripeAccountId),
    check("payout_accounts_method_valid", sql`${t.method} in (${sqlList(payoutMethods)})`),
    check("payout_accounts_country_format", sql`${t.country} ~ '^[A-Z]{2}$'`),
    check("payout_accounts_last4_format", sql`${t.bankLast4} is null or ${t.bankLast4} ~ '^[0-9A-Z]{4}$'`),
    check("payout_accounts_stripe_status_valid", sql`${t.stripeOnboardingStatus} in (${sqlList(stripeOnboardingStatuses)})`),
  ],
);

export const taxForms = ["w9", "w8"] as const;
export type TaxForm = (typeof taxForms)[number];

/** A member's tax declarations (W-9 for US persons, W-8 otherwise); the newest unsuperseded one is in force. */
export const taxDeclarations = pgTable(
  "tax_declarations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    form: text("form", { enum: taxForms }).notNull(),
    legalName: text("legal_name").notNull(),
    /** The country the declaration certifies residence in (ISO 3166-1 alpha-2). */
    country: text("country").notNull(),
    tinLast4: text("tin_last4").notNull(),
    signedIp: text("signed_ip"),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull().defaultNow(),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("tax_declarations_current_unique")
      .on(t.userId)
      .where(sql`${t.supersededAt} is null`),
    check("tax_declarations_form_valid", sql`${t.form} in (${sqlList(taxForms)})`),
    check("tax_declarations_tin_last4_format", sql`${t.tinLast4} ~ '^[0-9]{4}$'`),
    check("tax_declarations_country_format", sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

/** `reversed`: paid through Stripe, then the whole transfer was reversed (its amount is back in earnings). */
export const payoutStatuses = ["pending", "approved", "paid", "rejected", "canceled", "reversed"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/**
 * A member's payout request (docs/money.md "Money out"). The amount is reserved by a ledger entry when the
 * request is made (reserve_entry_id); a rejection or cancellation releases it (release_entry_id); a payment
 * moves it to paid, withholding and the method fee (payment_entry_id). Whole cents, in micro-units.
 */
export const payoutRequests = pgTable(
  "payout_requests",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    status: text("status", { enum: payoutStatuses }).notNull().default("pending"),
    method: text("method", { enum: payoutMethods }).notNull(),
    feeMicros: bigint("fee_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    withholdingBps: integer("withholding_bps").notNull().default(0),
    withholdingMicros: bigint("withholding_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    netMicros: bigint("net_micros", { mode: "bigint" }).notNull(),
    /** The transfer's reference (manual) or the Stripe transfer id. */
    reference: text("reference"),
    rejectionReason: text("rejection_reason"),
    reserveEntryId: bigint("reserve_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    releaseEntryId: bigint("release_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    paymentEntryId: bigint("payment_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    /** What the provider took back of the net (Stripe transfer reversals, cumulative) and the last reversal's entry. */
    reversedMicros: bigint("reversed_micros", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    reversalEntryId: bigint("reversal_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("payout_requests_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("payout_requests_stripe_reference_unique")
      .on(t.reference)
      .where(sql`${t.method} = 'stripe' and ${t.reference} is not null`),
    check("payout_requests_reversed", sql`${t.reversedMicros} >= 0 and ${t.reversedMicros} <= ${t.netMicros}`),
    index("payout_requests_status_idx").on(t.status, t.createdAt),
    check("payout_requests_status_valid", sql`${t.status} in (${sqlList(payoutStatuses)})`),
    check("payout_requests_method_valid", sql`${t.method} in (${sqlList(payoutMethods)})`),
    check("payout_requests_whole_cents", sql`${t.amountMicros} > 0 and ${t.amountMicros} % 10000 = 0`),
    check("payout_requests_net", sql`${t.netMicros} = ${t.amountMicros} - ${t.feeMicros} - ${t.withholdingMicros} and ${t.netMicros} > 0`),
    check("payout_requests_parts", sql`${t.feeMicros} >= 0 and ${t.withholdingMicros} >= 0 and ${t.withholdingBps} between 0 and 10000`),
  ],
);
/**
 * Stripe webhook events already handled: the event id is inserted in the transaction that applies
 * the event, so a second delivery of the same event does nothing.
 */
export const stripeWebhookEvents = pgTable("stripe_webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export type PayoutAccount = typeof payoutAccounts.$inferSelect;
export type TaxDeclaration = typeof taxDeclarations.$inferSelect;
export type PayoutRequest = typeof payoutRequests.$inferSelect;

/**
 * TOTP two-factor authentication (step-up security, decision 019). One row per user; the secret is
 * AES-256-GCM ciphertext (app/modules/security/sealed.server.ts). `enabled_at` is null while the user is
 * enrolling (the secret shown, no code confirmed yet). `last_used_step` is the last accepted time step, so
 * a code is accepted once.
 */
export const twoFactors = pgTable("two_factors", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  ...timestamps,
});

/** Ten one-time recovery codes per enrolment, stored as SHA-256; a used code keeps its row with `used_at`. */
export const twoFactorRecoveryCodes = pgTable(
  "two_factor_recovery_codes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("two_factor_recovery_codes_user_code_unique").on(t.userId, t.codeHash)],
);

export const payoutDetailChangeKinds = ["bank_details", "tax_status", "method"] as const;
export type PayoutDetailChangeKind = (typeof payoutDetailChangeKinds)[number];

/**
 * Every change of a member's payout details, emailed to them with a signed link to report it.
 * `reported_at` is set when the member says it was not them.
 */
export const payoutDetailChanges = pgTable(
  "payout_detail_changes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: payoutDetailChangeKinds }).notNull(),
    /** What changed, as the email says it (never more than last 4 characters of a number). */
    summary: text("summary").notNull(),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    reportedAt: timestamp("reported_at", { withTimezone: true }),
  },
  (t) => [
    index("payout_detail_changes_user_idx").on(t.userId, t.createdAt),
    check("payout_detail_changes_kind_valid", sql`${t.kind} in (${sqlList(payoutDetailChangeKinds)})`),
  ],
);
export type PayoutDetailChange = typeof payoutDetailChanges.$inferSelect;

/* ------------------------------------------------------------------ hiring marketplace (decision 021) */

/** What a client hires a provider profile for. */
export const marketplaceServices = ["recording", "session_work", "production", "mixing", "mastering", "mixing_and_mastering"] as const;
export type MarketplaceService = (typeof marketplaceServices)[number];

/**
 * A work request's life (the spec's vocabulary): pending (sent, no estimate yet) -> awaiting_approval (an
 * estimate waits for the client) -> accepted (a project opened) | declined | revision_requested (the client
 * asked for a revised estimate; a new one goes back to awaiting_approval); canceled by the client before acceptance.
 */
export const workRequestStatuses = ["pending", "awaiting_approval", "revision_requested", "accepted", "declined", "canceled"] as const;
export type WorkRequestStatus = (typeof workRequestStatuses)[number];

/** An estimate version: awaiting_approval, then accepted | declined | revision_requested; canceled when replaced or its request canceled. */
export const estimateStatuses = ["awaiting_approval", "accepted", "declined", "revision_requested", "canceled"] as const;
export type EstimateStatus = (typeof estimateStatuses)[number];

/** The project's stages (per service, app/modules/marketplace/marketplace-rules.ts); `completed` once the escrow is released. */
export const projectStages = [
  "in_recording",
  "in_session_work",
  "in_production",
  "in_mixing",
  "in_mastering",
  "in_mixing_and_mastering",
  "mixed",
  "production_completed",
  "completed",
] as const;
export type ProjectStage = (typeof projectStages)[number];

/**
 * awaiting_funding (opened by an accepted estimate, until the client's money is in escrow) -> in_progress ->
 * awaiting_approval (a delivery waits for the client) -> revision_requested | completed; canceled.
 */
export const projectStatuses = ["awaiting_funding", "in_progress", "awaiting_approval", "revision_requested", "completed", "canceled"] as const;
export type ProjectStatus = (typeof projectStatuses)[number];

/** Where the client's money is: not yet received, held in escrow, then released, refunded or split between the two. */
export const projectFundingStatuses = escrowFundingStatuses;
export type ProjectFundingStatus = EscrowFundingStatus;

export interface EstimateLineItem {
  description: string;
  amountCents: number;
}

/**
 * A member (the client) asks a provider profile (musician, audio engineer, music producer or studio) for a
 * service. `provider_owner_id` copies the profile's owner at the time of the request, so "my requests as a
 * provider" is one index range; the services check it against the profile's owner.
 */
export const workRequests = pgTable(
  "work_requests",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    providerProfileId: integer("provider_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "restrict" }),
    providerOwnerId: integer("provider_owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    service: text("service", { enum: marketplaceServices }).notNull(),
    description: text("description").notNull(),
    /** http(s) URLs, at most 10. */
    referenceLinks: jsonb("reference_links").$type<string[]>().notNull().default([]),
    budgetCents: bigint("budget_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    deadline: date("deadline", { mode: "string" }).notNull(),
    /** One of the client's songs the work is for (points in an estimate need it). */
    songId: integer("song_id").references(() => songs.id, { onDelete: "restrict" }),
    status: text("status", { enum: workRequestStatuses }).notNull().default("pending"),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("work_requests_client_idx").on(t.clientId, t.createdAt.desc(), t.id.desc()),
    index("work_requests_provider_owner_idx").on(t.providerOwnerId, t.createdAt.desc(), t.id.desc()),
    index("work_requests_provider_profile_idx").on(t.providerProfileId, t.createdAt.desc()),
    index("work_requests_status_idx").on(t.status, t.createdAt.desc(), t.id.desc()),
    index("work_requests_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("work_requests_song_idx")
      .on(t.songId)
      .where(sql`${t.songId} is not null`),
    check("work_requests_service_valid", sql`${t.service} in (${sqlList(marketplaceServices)})`),
    check("work_requests_status_valid", sql`${t.status} in (${sqlList(workRequestStatuses)})`),
    check("work_requests_budget_positive", sql`${t.budgetCents} > 0`),
    check("work_requests_not_self", sql`${t.clientId} <> ${t.providerOwnerId}`),
  ],
);

/**
 * The provider's estimates for a work request, in versions (1, 2, ...): a revision adds a version and leaves
 * the earlier ones as they were answered, so the history stays. At most one version is live
 * (awaiting_approval or accepted) per request.
 */
export const estimates = pgTable(
  "estimates",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    workRequestId: integer("work_request_id")
      .notNull()
      .references(() => workRequests.id, { onDelete: "restrict" }),
    version: smallint("version").notNull(),
    lineItems: jsonb("line_items").$type<EstimateLineItem[]>().notNull(),
    /** The sum of the line items, in cents. */
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    deliveryDays: smallint("delivery_days").notNull(),
    revisionsIncluded: smallint("revisions_included").notNull(),
    /** Points (a share of the master royalties, basis points) on the request's song, when offered. */
    pointsBps: integer("points_bps"),
    note: text("note").notNull().default(""),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: estimateStatuses }).notNull().default("awaiting_approval"),
    /** What the client said when declining or asking for a revision. */
    responseNote: text("response_note"),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("estimates_request_version_unique").on(t.workRequestId, t.version),
    uniqueIndex("estimates_one_live")
      .on(t.workRequestId)
      .where(sql`${t.status} in ('awaiting_approval', 'accepted')`),
    check("estimates_status_valid", sql`${t.status} in (${sqlList(estimateStatuses)})`),
    check("estimates_total_positive", sql`${t.totalCents} > 0`),
    check("estimates_delivery_days_range", sql`${t.deliveryDays} between 1 and 365`),
    check("estimates_revisions_range", sql`${t.revisionsIncluded} between 0 and 20`),
    check("estimates_points_range", sql`${t.pointsBps} is null or ${t.pointsBps} between 1 and 5000`),
  ],
);

/**
 * A project opened by an accepted estimate (one per work request). Money, in micro-units, as the ledger
 * posted it: funded = released (to the provider's earnings) + fee (platform commission) + refunded (to the
 * client), once settled; the project's escrow account holds funded minus the rest. `fee_bps` is the config's
 * marketplace fee when the estimate was accepted.
 */
export const projects = pgTable(
  "projects",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    workRequestId: integer("work_request_id")
      .notNull()
      .references(() => workRequests.id, { onDelete: "restrict" }),
    estimateId: integer("estimate_id")
      .notNull()
      .references(() => estimates.id, { onDelete: "restrict" }),
    clientId: integer("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    providerProfileId: integer("provider_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "restrict" }),
    providerOwnerId: integer("provider_owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    service: text("service", { enum: marketplaceServices }).notNull(),
    songId: integer("song_id").references(() => songs.id, { onDelete: "restrict" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("USD"),
    feeBps: integer("fee_bps").notNull(),
    pointsBps: integer("points_bps"),
    revisionsIncluded: smallint("revisions_included").notNull(),
    revisionsUsed: smallint("revisions_used").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }),
    stage: text("stage", { enum: projectStages }).notNull(),
    status: text("status", { enum: projectStatuses }).notNull().default("awaiting_funding"),
    fundingStatus: text("funding_status", { enum: projectFundingStatuses }).notNull().default("unfunded"),
    /** How the escrow was funded; null while unfunded. */
    fundingMethod: text("funding_method", { enum: escrowFundingMethods }),
    ...escrowAmountColumns(),
    /** The payment's reference (manual: what the administrator saw arrive). */
    fundingReference: text("funding_reference"),
    /** The client's latest Stripe Checkout Session (card funding, decision 022); one open session at a time. */
    checkoutSessionId: text("checkout_session_id"),
    fundEntryId: bigint("fund_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    settleEntryId: bigint("settle_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    /** Set by the first delivery: from then on only an administrator may cancel. */
    firstDeliveredAt: timestamp("first_delivered_at", { withTimezone: true }),
    fundedAt: timestamp("funded_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    /** Why it was canceled or how an administrator resolved it, and who did. */
    resolution: text("resolution"),
    resolvedBy: integer("resolved_by").references(() => users.id, { onDelete: "set null" }),
    /** The split proposal the estimate's points became, once proposed. */
    splitVersionId: integer("split_version_id").references(() => splitVersions.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("projects_work_request_unique").on(t.workRequestId),
    uniqueIndex("projects_estimate_unique").on(t.estimateId),
    index("projects_client_idx").on(t.clientId, t.createdAt.desc(), t.id.desc()),
    index("projects_provider_owner_idx").on(t.providerOwnerId, t.createdAt.desc(), t.id.desc()),
    index("projects_provider_profile_idx").on(t.providerProfileId, t.createdAt.desc()),
    index("projects_status_idx").on(t.status, t.createdAt.desc(), t.id.desc()),
    index("projects_created_idx").on(t.createdAt.desc(), t.id.desc()),
    check("projects_service_valid", sql`${t.service} in (${sqlList(marketplaceServices)})`),
    check("projects_stage_valid", sql`${t.stage} in (${sqlList(projectStages)})`),
    check("projects_status_valid", sql`${t.status} in (${sqlList(projectStatuses)})`),
    check("projects_funding_status_valid", sql`${t.fundingStatus} in (${sqlList(projectFundingStatuses)})`),
    check("projects_funding_method_valid", sql`${t.fundingMethod} is null or ${t.fundingMethod} in (${sqlList(escrowFundingMethods)})`),
    check("projects_funded_has_method", sql`${t.fundingStatus} = 'unfunded' or ${t.fundingMethod} is not null`),
    check("projects_amount_positive", sql`${t.amountCents} > 0`),
    check("projects_fee_bps_range", sql`${t.feeBps} between 0 and 10000`),
    check("projects_revisions", sql`${t.revisionsUsed} >= 0 and ${t.revisionsUsed} <= ${t.revisionsIncluded}`),
    check(
      "projects_money_parts",
      sql`${t.releasedMicros} >= 0 and ${t.feeMicros} >= 0 and ${t.refundedMicros} >= 0 and ${t.releasedMicros} + ${t.feeMicros} + ${t.refundedMicros} <= ${t.fundedMicros}`,
    ),
    // The invariant: a settled project paid out exactly what it held.
    check(
      "projects_settled_sum",
      sql`${t.fundingStatus} not in ('released', 'refunded', 'split') or ${t.releasedMicros} + ${t.feeMicros} + ${t.refundedMicros} = ${t.fundedMicros}`,
    ),
  ],
);

/** A file the provider delivered (kept by the storage module, decision 033; here its record). */
export const projectDeliverables = pgTable(
  "project_deliverables",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "restrict" }),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    /** Relative to the storage folder. */
    filePath: text("file_path").notNull(),
    fileName: text("file_name").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    mime: text("mime").notNull(),
    sha256: text("sha256"),
    /** Revisions used when it was delivered (0 for the first delivery). */
    round: smallint("round").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("project_deliverables_project_idx").on(t.projectId, t.createdAt), check("project_deliverables_bytes_positive", sql`${t.bytes} > 0`)],
);

/**
 * The message thread of a work request, continued by its project (project_id set on messages posted there).
 * Plain text, stored as written; pages escape it when rendering.
 */
export const marketplaceMessages = pgTable(
  "marketplace_messages",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    workRequestId: integer("work_request_id")
      .notNull()
      .references(() => workRequests.id, { onDelete: "restrict" }),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "restrict" }),
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("marketplace_messages_thread_idx").on(t.workRequestId, t.createdAt, t.id),
    check("marketplace_messages_body_length", sql`char_length(${t.body}) between 1 and 5000`),
  ],
);

/** The client's review of a completed, paid project (one per project), shown on the provider's profile as verified. */
export const projectReviews = pgTable(
  "project_reviews",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "restrict" }),
    clientId: integer("client_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    providerProfileId: integer("provider_profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "restrict" }),
    rating: smallint("rating").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("project_reviews_project_unique").on(t.projectId),
    index("project_reviews_profile_idx").on(t.providerProfileId, t.createdAt.desc()),
    check("project_reviews_rating_range", sql`${t.rating} between 1 and 5`),
    check("project_reviews_body_length", sql`char_length(${t.body}) <= 5000`),
  ],
);

export type WorkRequest = typeof workRequests.$inferSelect;
export type Estimate = typeof estimates.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type ProjectDeliverable = typeof projectDeliverables.$inferSelect;
export type MarketplaceMessage = typeof marketplaceMessages.$inferSelect;
export type ProjectReview = typeof projectReviews.$inferSelect;
