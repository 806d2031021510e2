CREATE TABLE "estimates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "estimates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"work_request_id" integer NOT NULL,
	"version" smallint NOT NULL,
	"line_items" jsonb NOT NULL,
	"total_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"delivery_days" smallint NOT NULL,
	"revisions_included" smallint NOT NULL,
	"points_bps" integer,
	"note" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'awaiting_approval' NOT NULL,
	"response_note" text,
	"responded_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "estimates_status_valid" CHECK ("estimates"."status" in ('awaiting_approval', 'accepted', 'declined', 'revision_requested', 'canceled')),
	CONSTRAINT "estimates_total_positive" CHECK ("estimates"."total_cents" > 0),
	CONSTRAINT "estimates_delivery_days_range" CHECK ("estimates"."delivery_days" between 1 and 365),
	CONSTRAINT "estimates_revisions_range" CHECK ("estimates"."revisions_included" between 0 and 20),
	CONSTRAINT "estimates_points_range" CHECK ("estimates"."points_bps" is null or "estimates"."points_bps" between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "marketplace_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "marketplace_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"work_request_id" integer NOT NULL,
	"project_id" integer,
	"sender_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_messages_body_length" CHECK (char_length("marketplace_messages"."body") between 1 and 5000)
);
--> statement-breakpoint
CREATE TABLE "project_deliverables" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "project_deliverables_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"uploaded_by" integer,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"mime" text NOT NULL,
	"sha256" text,
	"round" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_deliverables_bytes_positive" CHECK ("project_deliverables"."bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "project_reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "project_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"provider_profile_id" integer NOT NULL,
	"rating" smallint NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_reviews_rating_range" CHECK ("project_reviews"."rating" between 1 and 5),
	CONSTRAINT "project_reviews_body_length" CHECK (char_length("project_reviews"."body") <= 5000)
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"work_request_id" integer NOT NULL,
	"estimate_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"provider_profile_id" integer NOT NULL,
	"provider_owner_id" integer NOT NULL,
	"service" text NOT NULL,
	"song_id" integer,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"fee_bps" integer NOT NULL,
	"points_bps" integer,
	"revisions_included" smallint NOT NULL,
	"revisions_used" smallint DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"stage" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"funding_status" text DEFAULT 'unfunded' NOT NULL,
	"funded_micros" bigint DEFAULT 0 NOT NULL,
	"released_micros" bigint DEFAULT 0 NOT NULL,
	"fee_micros" bigint DEFAULT 0 NOT NULL,
	"refunded_micros" bigint DEFAULT 0 NOT NULL,
	"funding_reference" text,
	"fund_entry_id" bigint,
	"settle_entry_id" bigint,
	"first_delivered_at" timestamp with time zone,
	"funded_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"resolution" text,
	"resolved_by" integer,
	"split_version_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_service_valid" CHECK ("projects"."service" in ('recording', 'session_work', 'production', 'mixing', 'mastering', 'mixing_and_mastering')),
	CONSTRAINT "projects_stage_valid" CHECK ("projects"."stage" in ('in_recording', 'in_session_work', 'in_production', 'in_mixing', 'in_mastering', 'in_mixing_and_mastering', 'mixed', 'production_completed', 'completed')),
	CONSTRAINT "projects_status_valid" CHECK ("projects"."status" in ('in_progress', 'awaiting_approval', 'revision_requested', 'completed', 'canceled')),
	CONSTRAINT "projects_funding_status_valid" CHECK ("projects"."funding_status" in ('unfunded', 'funded', 'released', 'refunded', 'split')),
	CONSTRAINT "projects_amount_positive" CHECK ("projects"."amount_cents" > 0),
	CONSTRAINT "projects_fee_bps_range" CHECK ("projects"."fee_bps" between 0 and 10000),
	CONSTRAINT "projects_revisions" CHECK ("projects"."revisions_used" >= 0 and "projects"."revisions_used" <= "projects"."revisions_included"),
	CONSTRAINT "projects_money_parts" CHECK ("projects"."released_micros" >= 0 and "projects"."fee_micros" >= 0 and "projects"."refunded_micros" >= 0 and "projects"."released_micros" + "projects"."fee_micros" + "projects"."refunded_micros" <= "projects"."funded_micros"),
	CONSTRAINT "projects_settled_sum" CHECK ("projects"."funding_status" not in ('released', 'refunded', 'split') or "projects"."released_micros" + "projects"."fee_micros" + "projects"."refunded_micros" = "projects"."funded_micros")
);
--> statement-breakpoint
CREATE TABLE "work_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "work_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"provider_profile_id" integer NOT NULL,
	"provider_owner_id" integer NOT NULL,
	"service" text NOT NULL,
	"description" text NOT NULL,
	"reference_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"budget_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"deadline" date NOT NULL,
	"song_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_requests_service_valid" CHECK ("work_requests"."service" in ('recording', 'session_work', 'production', 'mixing', 'mastering', 'mixing_and_mastering')),
	CONSTRAINT "work_requests_status_valid" CHECK ("work_requests"."status" in ('pending', 'awaiting_approval', 'revision_requested', 'accepted', 'declined', 'canceled')),
	CONSTRAINT "work_requests_budget_positive" CHECK ("work_requests"."budget_cents" > 0),
	CONSTRAINT "work_requests_not_self" CHECK ("work_requests"."client_id" <> "work_requests"."provider_owner_id")
);
--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_work_request_id_work_requests_id_fk" FOREIGN KEY ("work_request_id") REFERENCES "public"."work_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimates" ADD CONSTRAINT "estimates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_messages" ADD CONSTRAINT "marketplace_messages_work_request_id_work_requests_id_fk" FOREIGN KEY ("work_request_id") REFERENCES "public"."work_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_messages" ADD CONSTRAINT "marketplace_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_messages" ADD CONSTRAINT "marketplace_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_deliverables" ADD CONSTRAINT "project_deliverables_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_deliverables" ADD CONSTRAINT "project_deliverables_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_reviews" ADD CONSTRAINT "project_reviews_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_reviews" ADD CONSTRAINT "project_reviews_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_reviews" ADD CONSTRAINT "project_reviews_provider_profile_id_profiles_id_fk" FOREIGN KEY ("provider_profile_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_work_request_id_work_requests_id_fk" FOREIGN KEY ("work_request_id") REFERENCES "public"."work_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_estimate_id_estimates_id_fk" FOREIGN KEY ("estimate_id") REFERENCES "public"."estimates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_provider_profile_id_profiles_id_fk" FOREIGN KEY ("provider_profile_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_provider_owner_id_users_id_fk" FOREIGN KEY ("provider_owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_fund_entry_id_journal_entries_id_fk" FOREIGN KEY ("fund_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_settle_entry_id_journal_entries_id_fk" FOREIGN KEY ("settle_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_split_version_id_split_versions_id_fk" FOREIGN KEY ("split_version_id") REFERENCES "public"."split_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_requests" ADD CONSTRAINT "work_requests_client_id_users_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_requests" ADD CONSTRAINT "work_requests_provider_profile_id_profiles_id_fk" FOREIGN KEY ("provider_profile_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_requests" ADD CONSTRAINT "work_requests_provider_owner_id_users_id_fk" FOREIGN KEY ("provider_owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_requests" ADD CONSTRAINT "work_requests_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "estimates_request_version_unique" ON "estimates" USING btree ("work_request_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "estimates_one_live" ON "estimates" USING btree ("work_request_id") WHERE "estimates"."status" in ('awaiting_approval', 'accepted');--> statement-breakpoint
CREATE INDEX "marketplace_messages_thread_idx" ON "marketplace_messages" USING btree ("work_request_id","created_at","id");--> statement-breakpoint
CREATE INDEX "project_deliverables_project_idx" ON "project_deliverables" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "project_reviews_project_unique" ON "project_reviews" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "project_reviews_profile_idx" ON "project_reviews" USING btree ("provider_profile_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "projects_work_request_unique" ON "projects" USING btree ("work_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_estimate_unique" ON "projects" USING btree ("estimate_id");--> statement-breakpoint
CREATE INDEX "projects_client_idx" ON "projects" USING btree ("client_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "projects_provider_owner_idx" ON "projects" USING btree ("provider_owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "projects_provider_profile_idx" ON "projects" USING btree ("provider_profile_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "projects_status_idx" ON "projects" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_client_idx" ON "work_requests" USING btree ("client_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_provider_owner_idx" ON "work_requests" USING btree ("provider_owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_provider_profile_idx" ON "work_requests" USING btree ("provider_profile_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_status_idx" ON "work_requests" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_created_idx" ON "work_requests" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_requests_song_idx" ON "work_requests" USING btree ("song_id") WHERE "work_requests"."song_id" is not null;