CREATE TABLE "stripe_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_requests" DROP CONSTRAINT "payout_requests_status_valid";--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "reversed_micros" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "reversal_entry_id" bigint;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_reversal_entry_id_journal_entries_id_fk" FOREIGN KEY ("reversal_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_requests_stripe_reference_unique" ON "payout_requests" USING btree ("reference") WHERE "payout_requests"."method" = 'stripe' and "payout_requests"."reference" is not null;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_reversed" CHECK ("payout_requests"."reversed_micros" >= 0 and "payout_requests"."reversed_micros" <= "payout_requests"."net_micros");--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_status_valid" CHECK ("payout_requests"."status" in ('pending', 'approved', 'paid', 'rejected', 'canceled', 'reversed'));