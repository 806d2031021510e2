/** Post-production jobs: tables of this feature, re-exported by the schema index. */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { escrowAmountColumns, escrowFundingMethods, escrowFundingStatuses } from "./escrow";
import { journalEntries, songs, users } from "./core";

/** What the engineer does (the marketplace's post-production services). */
export const postProductionServices = ["mixing", "mastering", "mixing_and_mastering"] as const;
export type PostProductionService = (typeof postProductionServices)[number];

/**
 * The job's lifecycle: `pending` until the engineer accepts (or declines); `awaiting_funding` once a priced job is
 * accepted, until the owner's money is in escrow (decision 023); `in_progress` while they work
 * through the stages; `delivered` when a file waits for the owner; `revision_requested` when the owner sent
 * it back; `completed` when the owner accepted a delivery as the song's audio; `canceled`, `declined`.
 */
export const postProductionStatuses = [
  "pending",
  "awaiting_funding",
  "in_progress",
  "delivered",
  "revision_requested",
  "completed",
  "canceled",
  "declined",
] as const;
export type PostProductionStatus = (typeof postProductionStatuses)[number];

/** The stage statuses (the spec's vocabulary, as projects use it); null until the engineer accepts. */
export const postProductionStages = ["in_mixing", "in_mixing_and_mastering", "mixed", "in_mastering", "completed"] as const;
export type PostProductionStage = (typeof postProductionStages)[number];

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/** The song's audio before a delivery replaced it (kept on the job, so nothing is lost). */
export interface PreviousAudio {
  path: string | null;
  format: string | null;
  bitDepth: number | null;
  sampleRate: number | null;
  channels: number | null;
  durationSeconds: number | null;
}

/**
 * A member's mixing or mastering job for one of their songs. The engineer is a member (`engineer_id`), or an
 * address invited by a signed link (`invited_email`; `engineer_id` is set when that address's account opens it).
 */
export const postProductionJobs = pgTable(
  "post_production_jobs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    songId: integer("song_id")
      .notNull()
      .references(() => songs.id, { onDelete: "restrict" }),
    service: text("service", { enum: postProductionServices }).notNull(),
    engineerId: integer("engineer_id").references(() => users.id, { onDelete: "restrict" }),
    /** The address invited by email (lowercased), when the engineer had no account; kept after binding. */
    invitedEmail: text("invited_email"),
    invitedAt: timestamp("invited_at", { withTimezone: true }),
    /** When the invited address's account was bound to the job. */
    boundAt: timestamp("bound_at", { withTimezone: true }),
    status: text("status", { enum: postProductionStatuses }).notNull().default("pending"),
    stage: text("stage", { enum: postProductionStages }),
    notes: text("notes").notNull().default(""),
    revisionNote: text("revision_note"),
    revisions: smallint("revisions").notNull().default(0),
    acceptedDeliveryId: integer("accepted_delivery_id"),
    previousAudio: jsonb("previous_audio").$type<PreviousAudio>(),
    /**
     * The price the owner offers (whole cents) and the platform fee kept on it when the job is made; null on jobs
     * made before jobs had a price, which run without escrow. Funding and settlement as a project's (decision 023).
     */
    amountCents: bigint("amount_cents", { mode: "number" }),
    feeBps: integer("fee_bps"),
    fundingStatus: text("funding_status", { enum: escrowFundingStatuses }).notNull().default("unfunded"),
    fundingMethod: text("funding_method", { enum: escrowFundingMethods }),
    fundingReference: text("funding_reference"),
    /** The owner's latest Stripe Checkout Session (card funding, as a project's); one open session at a time. */
    checkoutSessionId: text("checkout_session_id"),
    ...escrowAmountColumns(),
    fundEntryId: bigint("fund_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    settleEntryId: bigint("settle_entry_id", { mode: "number" }).references(() => journalEntries.id, { onDelete: "restrict" }),
    fundedAt: timestamp("funded_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    canceledBy: integer("canceled_by").references(() => users.id, { onDelete: "set null" }),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    firstDeliveredAt: timestamp("first_delivered_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("post_production_jobs_owner_idx").on(t.ownerId, t.createdAt),
    index("post_production_jobs_engineer_idx").on(t.engineerId, t.createdAt),
    index("post_production_jobs_invited_email_idx").on(sql`lower(${t.invitedEmail})`),
    index("post_production_jobs_status_idx").on(t.status, t.createdAt),
    check("post_production_jobs_service_valid", sql`${t.service} in (${list(postProductionServices)})`),
    check("post_production_jobs_status_valid", sql`${t.status} in (${list(postProductionStatuses)})`),
    check("post_production_jobs_stage_valid", sql`${t.stage} is null or ${t.stage} in (${list(postProductionStages)})`),
    check("post_production_jobs_engineer_named", sql`${t.engineerId} is not null or ${t.invitedEmail} is not null`),
    check("post_production_jobs_not_own_engineer", sql`${t.engineerId} is null or ${t.engineerId} <> ${t.ownerId}`),
    check("post_production_jobs_notes_length", sql`char_length(${t.notes}) <= 2000`),
    check("post_production_jobs_amount", sql`(${t.amountCents} is null and ${t.feeBps} is null) or (${t.amountCents} > 0 and ${t.feeBps} between 0 and 10000)`),
    check("post_production_jobs_funding_status_valid", sql`${t.fundingStatus} in (${list(escrowFundingStatuses)})`),
    check("post_production_jobs_funding_method_valid", sql`${t.fundingMethod} is null or ${t.fundingMethod} in (${list(escrowFundingMethods)})`),
    check("post_production_jobs_funded_priced", sql`${t.fundingStatus} = 'unfunded' or (${t.amountCents} is not null and ${t.fundingMethod} is not null)`),
    check(
      "post_production_jobs_money_parts",
      sql`${t.releasedMicros} >= 0 and ${t.feeMicros} >= 0 and ${t.refundedMicros} >= 0 and ${t.releasedMicros} + ${t.feeMicros} + ${t.refundedMicros} <= ${t.fundedMicros}`,
    ),
    // The invariant, as on projects: a settled job paid out exactly what it held.
    check(
      "post_production_jobs_settled_sum",
      sql`${t.fundingStatus} not in ('released', 'refunded', 'split') or ${t.releasedMicros} + ${t.feeMicros} + ${t.refundedMicros} = ${t.fundedMicros}`,
    ),
  ],
);

/** A file the engineer delivered (stored under `post-production/<jobId>/`), with what its audio really is. */
export const postProductionDeliveries = pgTable(
  "post_production_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    jobId: integer("job_id")
      .notNull()
      .references(() => postProductionJobs.id, { onDelete: "restrict" }),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    /** Relative to the storage folder. */
    filePath: text("file_path").notNull(),
    fileName: text("file_name").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    mime: text("mime").notNull(),
    sha256: text("sha256"),
    format: text("format", { enum: ["wav", "flac"] }).notNull(),
    bitDepth: smallint("bit_depth").notNull(),
    sampleRate: integer("sample_rate").notNull(),
    channels: smallint("channels").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    /** Revisions requested before it was delivered (0 for the first delivery). */
    round: smallint("round").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("post_production_deliveries_job_idx").on(t.jobId, t.createdAt),
    check("post_production_deliveries_bytes_positive", sql`${t.bytes} > 0`),
    check("post_production_deliveries_format_valid", sql`${t.format} in ('wav', 'flac')`),
  ],
);

export type PostProductionJob = typeof postProductionJobs.$inferSelect;
export type PostProductionDelivery = typeof postProductionDeliveries.$inferSelect;
