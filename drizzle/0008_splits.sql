CREATE TABLE "split_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "split_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"song_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"party_id" uuid,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"actor_id" integer,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "split_events_kind_valid" CHECK ("split_events"."kind" in ('proposed', 'accepted', 'declined', 'confirmed', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "split_parties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version_id" integer NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"share_bps" integer NOT NULL,
	"recoup_micros" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answered_at" timestamp with time zone,
	"answered_ip" text,
	"answered_user_agent" text,
	"position" smallint NOT NULL,
	CONSTRAINT "split_parties_share_range" CHECK ("split_parties"."share_bps" between 1 and 10000),
	CONSTRAINT "split_parties_recoup_non_negative" CHECK ("split_parties"."recoup_micros" >= 0),
	CONSTRAINT "split_parties_status_valid" CHECK ("split_parties"."status" in ('pending', 'accepted', 'declined')),
	CONSTRAINT "split_parties_answer_recorded" CHECK ("split_parties"."status" = 'pending' or "split_parties"."answered_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "split_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "split_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"song_id" integer NOT NULL,
	"number" smallint NOT NULL,
	"effective_from" date NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"proposed_by" integer,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" integer,
	"confirmed_at" timestamp with time zone,
	"withdrawn_by" integer,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "split_versions_status_valid" CHECK ("split_versions"."status" in ('proposed', 'confirmed', 'withdrawn'))
);
--> statement-breakpoint
ALTER TABLE "split_events" ADD CONSTRAINT "split_events_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_events" ADD CONSTRAINT "split_events_version_id_split_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."split_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_events" ADD CONSTRAINT "split_events_party_id_split_parties_id_fk" FOREIGN KEY ("party_id") REFERENCES "public"."split_parties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_events" ADD CONSTRAINT "split_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_parties" ADD CONSTRAINT "split_parties_version_id_split_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."split_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_parties" ADD CONSTRAINT "split_parties_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "split_versions" ADD CONSTRAINT "split_versions_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "split_events_song_idx" ON "split_events" USING btree ("song_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "split_parties_version_email_unique" ON "split_parties" USING btree ("version_id",lower("email"));--> statement-breakpoint
CREATE INDEX "split_parties_version_idx" ON "split_parties" USING btree ("version_id","position");--> statement-breakpoint
CREATE INDEX "split_parties_user_idx" ON "split_parties" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "split_parties_email_idx" ON "split_parties" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "split_versions_song_number_unique" ON "split_versions" USING btree ("song_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "split_versions_confirmed_date_unique" ON "split_versions" USING btree ("song_id","effective_from") WHERE "split_versions"."status" = 'confirmed';--> statement-breakpoint
CREATE UNIQUE INDEX "split_versions_one_proposal" ON "split_versions" USING btree ("song_id") WHERE "split_versions"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "split_versions_song_date_idx" ON "split_versions" USING btree ("song_id","status","effective_from");