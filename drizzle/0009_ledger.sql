CREATE TABLE "journal_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"import_id" integer,
	"reverses_entry_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"user_id" integer,
	"split_party_id" uuid,
	"sub_kind" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_key_unique" UNIQUE NULLS NOT DISTINCT("kind","user_id","split_party_id","sub_kind","currency"),
	CONSTRAINT "ledger_accounts_kind_valid" CHECK ("ledger_accounts"."kind" in ('receipts', 'earnings', 'held', 'suspense', 'commission', 'payouts_reserved', 'payouts_paid', 'withholding', 'escrow', 'affiliate_commission'))
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"amount_micros" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"statement_line_id" bigint,
	"source" text,
	"split_version_id" integer,
	"recoup_micros" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "postings_source_valid" CHECK ("postings"."source" is null or "postings"."source" in ('digital', 'pro', 'license', 'marketplace', 'affiliate'))
);
--> statement-breakpoint
CREATE TABLE "sales_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sales_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"layout" text,
	"file_name" text NOT NULL,
	"file_path" text NOT NULL,
	"file_sha256" text NOT NULL,
	"file_bytes" bigint NOT NULL,
	"statement_id" text,
	"exchange_rate" text,
	"lines" integer DEFAULT 0 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"unmatched" integer DEFAULT 0 NOT NULL,
	"total_micros" bigint DEFAULT 0 NOT NULL,
	"suspense_micros" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "sales_imports_kind_valid" CHECK ("sales_imports"."kind" in ('digital', 'pro', 'license')),
	CONSTRAINT "sales_imports_status_valid" CHECK ("sales_imports"."status" in ('queued', 'processing', 'completed', 'failed', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "statement_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"import_id" integer NOT NULL,
	"line_no" integer NOT NULL,
	"kind" text NOT NULL,
	"statement_id" text,
	"sale_period_start" date NOT NULL,
	"sale_period_end" date NOT NULL,
	"source" text NOT NULL,
	"territory" text,
	"artist" text,
	"release_title" text,
	"track_title" text,
	"isrc" text,
	"upc" text,
	"iswc" text,
	"ipi" text,
	"quantity" integer,
	"original_amount_micros" bigint NOT NULL,
	"original_currency" text NOT NULL,
	"exchange_rate" text,
	"amount_micros" bigint NOT NULL,
	"song_id" integer,
	"release_id" integer,
	"member_id" integer,
	"matched_by" text,
	"raw" jsonb NOT NULL,
	CONSTRAINT "statement_lines_kind_valid" CHECK ("statement_lines"."kind" in ('digital', 'pro', 'license'))
);
--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_reverses_entry_id_journal_entries_id_fk" FOREIGN KEY ("reverses_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_split_party_id_split_parties_id_fk" FOREIGN KEY ("split_party_id") REFERENCES "public"."split_parties"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_statement_line_id_statement_lines_id_fk" FOREIGN KEY ("statement_line_id") REFERENCES "public"."statement_lines"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_split_version_id_split_versions_id_fk" FOREIGN KEY ("split_version_id") REFERENCES "public"."split_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_imports" ADD CONSTRAINT "sales_imports_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_entries_import_idx" ON "journal_entries" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "journal_entries_created_idx" ON "journal_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_accounts_user_idx" ON "ledger_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "postings_account_idx" ON "postings" USING btree ("account_id","source");--> statement-breakpoint
CREATE INDEX "postings_entry_idx" ON "postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "postings_line_idx" ON "postings" USING btree ("statement_line_id");--> statement-breakpoint
CREATE INDEX "postings_split_version_idx" ON "postings" USING btree ("split_version_id") WHERE "postings"."split_version_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_imports_file_unique" ON "sales_imports" USING btree ("file_sha256") WHERE "sales_imports"."status" in ('queued', 'processing', 'completed');--> statement-breakpoint
CREATE UNIQUE INDEX "sales_imports_statement_unique" ON "sales_imports" USING btree ("layout","statement_id") WHERE "sales_imports"."statement_id" is not null and "sales_imports"."status" in ('queued', 'processing', 'completed');--> statement-breakpoint
CREATE INDEX "sales_imports_kind_created_idx" ON "sales_imports" USING btree ("kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_import_line_unique" ON "statement_lines" USING btree ("import_id","line_no");--> statement-breakpoint
CREATE INDEX "statement_lines_song_period_idx" ON "statement_lines" USING btree ("song_id","sale_period_start");--> statement-breakpoint
CREATE INDEX "statement_lines_release_period_idx" ON "statement_lines" USING btree ("release_id","sale_period_start");--> statement-breakpoint
CREATE INDEX "statement_lines_member_idx" ON "statement_lines" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "statement_lines_unmatched_idx" ON "statement_lines" USING btree ("import_id") WHERE "statement_lines"."matched_by" is null;