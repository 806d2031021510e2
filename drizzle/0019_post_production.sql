CREATE TABLE "post_production_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "post_production_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"job_id" integer NOT NULL,
	"uploaded_by" integer,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"mime" text NOT NULL,
	"sha256" text,
	"format" text NOT NULL,
	"bit_depth" smallint NOT NULL,
	"sample_rate" integer NOT NULL,
	"channels" smallint NOT NULL,
	"duration_seconds" integer NOT NULL,
	"round" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_production_deliveries_bytes_positive" CHECK ("post_production_deliveries"."bytes" > 0),
	CONSTRAINT "post_production_deliveries_format_valid" CHECK ("post_production_deliveries"."format" in ('wav', 'flac'))
);
--> statement-breakpoint
CREATE TABLE "post_production_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "post_production_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"service" text NOT NULL,
	"engineer_id" integer,
	"invited_email" text,
	"invited_at" timestamp with time zone,
	"bound_at" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"stage" text,
	"notes" text DEFAULT '' NOT NULL,
	"revision_note" text,
	"revisions" smallint DEFAULT 0 NOT NULL,
	"accepted_delivery_id" integer,
	"previous_audio" jsonb,
	"cancel_reason" text,
	"canceled_by" integer,
	"accepted_at" timestamp with time zone,
	"first_delivered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_production_jobs_service_valid" CHECK ("post_production_jobs"."service" in ('mixing', 'mastering', 'mixing_and_mastering')),
	CONSTRAINT "post_production_jobs_status_valid" CHECK ("post_production_jobs"."status" in ('pending', 'in_progress', 'delivered', 'revision_requested', 'completed', 'canceled', 'declined')),
	CONSTRAINT "post_production_jobs_stage_valid" CHECK ("post_production_jobs"."stage" is null or "post_production_jobs"."stage" in ('in_mixing', 'in_mixing_and_mastering', 'mixed', 'in_mastering', 'completed')),
	CONSTRAINT "post_production_jobs_engineer_named" CHECK ("post_production_jobs"."engineer_id" is not null or "post_production_jobs"."invited_email" is not null),
	CONSTRAINT "post_production_jobs_not_own_engineer" CHECK ("post_production_jobs"."engineer_id" is null or "post_production_jobs"."engineer_id" <> "post_production_jobs"."owner_id"),
	CONSTRAINT "post_production_jobs_notes_length" CHECK (char_length("post_production_jobs"."notes") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "post_production_deliveries" ADD CONSTRAINT "post_production_deliveries_job_id_post_production_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."post_production_jobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_deliveries" ADD CONSTRAINT "post_production_deliveries_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_engineer_id_users_id_fk" FOREIGN KEY ("engineer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_production_jobs" ADD CONSTRAINT "post_production_jobs_canceled_by_users_id_fk" FOREIGN KEY ("canceled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_production_deliveries_job_idx" ON "post_production_deliveries" USING btree ("job_id","created_at");--> statement-breakpoint
CREATE INDEX "post_production_jobs_owner_idx" ON "post_production_jobs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "post_production_jobs_engineer_idx" ON "post_production_jobs" USING btree ("engineer_id","created_at");--> statement-breakpoint
CREATE INDEX "post_production_jobs_invited_email_idx" ON "post_production_jobs" USING btree (lower("invited_email"));--> statement-breakpoint
CREATE INDEX "post_production_jobs_status_idx" ON "post_production_jobs" USING btree ("status","created_at");
