/** Affiliates, referrals and clicks: tables of this feature, re-exported by schema.ts (one file per feature keeps parallel work apart). */
import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { journalEntries, postings, statementLines, users } from "./core";

/** How the affiliate wants to be paid (the payout methods, decision 018; declared here rather than imported from the payouts module, which the schema must not depend on). */
export const affiliatePayoutMethods = ["manual", "stripe"] as const;

/**
 * An affiliate's lifecycle: `pending_approval` when applied; an administrator approves (a code is given) or
 * rejects it with a reason; an approved affiliate may be suspended (no more clicks, referrals or commission)
 * and approved again.
 */
export const affiliateStatuses = ["pending_approval", "approved", "rejected", "suspended"] as const;
export type AffiliateStatus = (typeof affiliateStatuses)[number];

/** The default commission rate: basis points of the platform commission earned from referred members. */
export const DEFAULT_AFFILIATE_BPS = 2000;

/** One affiliate per member (the owner); its commissions are posted to the owner's earnings with source `affiliate`. */
export const affiliates = pgTable(
  "affiliates",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: affiliateStatuses }).notNull().default("pending_approval"),
    /** Given at approval; kept through suspension. Upper-case letters and digits. */
    code: text("code"),
    /** The website or audience the affiliate will reach. */
    audience: text("audience").notNull(),
    payoutMethod: text("payout_method", { enum: affiliatePayoutMethods }).notNull(),
    commissionBps: integer("commission_bps").notNull().default(DEFAULT_AFFILIATE_BPS),
    rejectionReason: text("rejection_reason"),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("affiliates_user_unique").on(t.userId),
    uniqueIndex("affiliates_code_unique").on(t.code),
    index("affiliates_status_idx").on(t.status, t.createdAt),
    check("affiliates_status_valid", sql`${t.status} in ('pending_approval', 'approved', 'rejected', 'suspended')`),
    check("affiliates_payout_method_valid", sql`${t.payoutMethod} in ('manual', 'stripe')`),
    check("affiliates_commission_bps_range", sql`${t.commissionBps} between 0 and 10000`),
    check("affiliates_audience_length", sql`char_length(${t.audience}) between 1 and 2000`),
    check("affiliates_code_when_approved", sql`${t.status} not in ('approved', 'suspended') or ${t.code} is not null`),
  ],
);

/** A member brought by an affiliate: bound once, at registration (the user's row is created in the same transaction). */
export const affiliateReferrals = pgTable(
  "affiliate_referrals",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "restrict" }),
    affiliateId: integer("affiliate_id")
      .notNull()
      .references(() => affiliates.id, { onDelete: "restrict" }),
    /** When the visitor first followed the affiliate's link (the cookie's first touch). */
    firstTouchAt: timestamp("first_touch_at", { withTimezone: true }).notNull(),
    /** The sign-up: commissions run for 12 months from here. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("affiliate_referrals_affiliate_idx").on(t.affiliateId, t.createdAt)],
);

/** Clicks on an affiliate's links, counted per day and landing path: nothing else about the visitor is kept. */
export const affiliateClicks = pgTable(
  "affiliate_clicks",
  {
    affiliateId: integer("affiliate_id")
      .notNull()
      .references(() => affiliates.id, { onDelete: "restrict" }),
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ name: "affiliate_clicks_pk", columns: [t.affiliateId, t.day, t.path] })],
);

/**
 * The trace of each affiliate commission posting (docs/money.md "Traceability"): the posting to the affiliate
 * owner's earnings, the platform commission posting it was computed from, the statement line and the
 * referred member whose income earned it.
 */
export const affiliateCommissions = pgTable(
  "affiliate_commissions",
  {
    postingId: bigint("posting_id", { mode: "number" })
      .primaryKey()
      .references(() => postings.id, { onDelete: "restrict" }),
    entryId: bigint("entry_id", { mode: "number" })
      .notNull()
      .references(() => journalEntries.id, { onDelete: "restrict" }),
    affiliateId: integer("affiliate_id")
      .notNull()
      .references(() => affiliates.id, { onDelete: "restrict" }),
    referredUserId: integer("referred_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    sourcePostingId: bigint("source_posting_id", { mode: "number" })
      .notNull()
      .references(() => postings.id, { onDelete: "restrict" }),
    statementLineId: bigint("statement_line_id", { mode: "number" }).references(() => statementLines.id, { onDelete: "restrict" }),
    /** The referred member's part of the line's platform commission this was computed from. */
    baseMicros: bigint("base_micros", { mode: "bigint" }).notNull(),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    commissionBps: integer("commission_bps").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("affiliate_commissions_affiliate_idx").on(t.affiliateId, t.createdAt), index("affiliate_commissions_source_idx").on(t.sourcePostingId)],
);

export type Affiliate = typeof affiliates.$inferSelect;
export type AffiliateReferral = typeof affiliateReferrals.$inferSelect;
