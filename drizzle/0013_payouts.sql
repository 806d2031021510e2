CREATE TABLE "payout_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"method" text NOT NULL,
	"country" text NOT NULL,
	"bank_details_encrypted" text,
	"bank_last4" text,
	"stripe_account_id" text,
	"stripe_onboarding_status" text DEFAULT 'none' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_method_valid" CHECK ("payout_accounts"."method" in ('manual', 'stripe')),
	CONSTRAINT "payout_accounts_country_format" CHECK ("payout_accounts"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "payout_accounts_last4_format" CHECK ("payout_accounts"."bank_last4" is null or "payout_accounts"."bank_last4" ~ '^[0-9A-Z]{4}$'),
	CONSTRAINT "payout_accounts_stripe_status_valid" CHECK ("payout_accounts"."stripe_onboarding_status" in ('none', 'pending', 'complete', 'restricted'))
);
--> statement-breakpoint
CREATE TABLE "payout_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"amount_micros" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"method" text NOT NULL,
	"fee_micros" bigint DEFAULT 0 NOT NULL,
	"withholding_bps" integer DEFAULT 0 NOT NULL,
	"withholding_micros" bigint DEFAULT 0 NOT NULL,
	"net_micros" bigint NOT NULL,
	"reference" text,
	"rejection_reason" text,
	"reserve_entry_id" bigint,
	"release_entry_id" bigint,
	"payment_entry_id" bigint,
	"decided_by" integer,
	"approved_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_requests_status_valid" CHECK ("payout_requests"."status" in ('pending', 'approved', 'paid', 'rejected', 'canceled')),
	CONSTRAINT "payout_requests_method_valid" CHECK ("payout_requests"."method" in ('manual', 'stripe')),
	CONSTRAINT "payout_requests_whole_cents" CHECK ("payout_requests"."amount_micros" > 0 and "payout_requests"."amount_micros" % 10000 = 0),
	CONSTRAINT "payout_requests_net" CHECK ("payout_requests"."net_micros" = "payout_requests"."amount_micros" - "payout_requests"."fee_micros" - "payout_requests"."withholding_micros" and "payout_requests"."net_micros" > 0),
	CONSTRAINT "payout_requests_parts" CHECK ("payout_requests"."fee_micros" >= 0 and "payout_requests"."withholding_micros" >= 0 and "payout_requests"."withholding_bps" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "tax_declarations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tax_declarations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"form" text NOT NULL,
	"legal_name" text NOT NULL,
	"country" text NOT NULL,
	"tin_last4" text NOT NULL,
	"signed_ip" text,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "tax_declarations_form_valid" CHECK ("tax_declarations"."form" in ('w9', 'w8')),
	CONSTRAINT "tax_declarations_tin_last4_format" CHECK ("tax_declarations"."tin_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "tax_declarations_country_format" CHECK ("tax_declarations"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_valid";--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_reserve_entry_id_journal_entries_id_fk" FOREIGN KEY ("reserve_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_release_entry_id_journal_entries_id_fk" FOREIGN KEY ("release_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_payment_entry_id_journal_entries_id_fk" FOREIGN KEY ("payment_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_declarations" ADD CONSTRAINT "tax_declarations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_user_unique" ON "payout_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_stripe_unique" ON "payout_accounts" USING btree ("stripe_account_id");--> statement-breakpoint
CREATE INDEX "payout_requests_user_idx" ON "payout_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_requests_status_idx" ON "payout_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_declarations_current_unique" ON "tax_declarations" USING btree ("user_id") WHERE "tax_declarations"."superseded_at" is null;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_valid" CHECK ("ledger_accounts"."kind" in ('receipts', 'earnings', 'held', 'suspense', 'commission', 'payouts_reserved', 'payouts_paid', 'withholding', 'escrow', 'affiliate_commission', 'payout_fees'));