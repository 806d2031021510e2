ALTER TABLE "post_production_jobs" DROP CONSTRAINT "post_production_jobs_status_valid";--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "fee_bps" integer;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "funding_status" text DEFAULT 'unfunded' NOT NULL;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "funding_method" text;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "funding_reference" text;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "funded_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "released_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "fee_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "refunded_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "fund_entry_id" bigint;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "settle_entry_id" bigint;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD COLUMN "funded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_fund_entry_id_journal_entries_id_fk" FOREIGN KEY ("fund_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_settle_entry_id_journal_entries_id_fk" FOREIGN KEY ("settle_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_amount" CHECK (("post_production_jobs"."amount_cents" is null and "post_production_jobs"."fee_bps" is null) or ("post_production_jobs"."amount_cents" > 0 and "post_production_jobs"."fee_bps" between 0 and 10000));--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_funding_status_valid" CHECK ("post_production_jobs"."funding_status" in ('unfunded', 'funded', 'released', 'refunded', 'split'));--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_funding_method_valid" CHECK ("post_production_jobs"."funding_method" is null or "post_production_jobs"."funding_method" in ('manual', 'stripe', 'balance'));--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_funded_priced" CHECK ("post_production_jobs"."funding_status" = 'unfunded' or ("post_production_jobs"."amount_cents" is not null and "post_production_jobs"."funding_method" is not null));--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_money_parts" CHECK ("post_production_jobs"."released_micros" >= 0 and "post_production_jobs"."fee_micros" >= 0 and "post_production_jobs"."refunded_micros" >= 0 and "post_production_jobs"."released_micros" + "post_production_jobs"."fee_micros" + "post_production_jobs"."refunded_micros" <= "post_production_jobs"."funded_micros");--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_settled_sum" CHECK ("post_production_jobs"."funding_status" not in ('released', 'refunded', 'split') or "post_production_jobs"."released_micros" + "post_production_jobs"."fee_micros" + "post_production_jobs"."refunded_micros" = "post_production_jobs"."funded_micros");--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_status_valid" CHECK ("post_production_jobs"."status" in ('pending', 'awaiting_funding', 'in_progress', 'delivered', 'revision_requested', 'completed', 'canceled', 'declined'));