CREATE TABLE "release_status_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "release_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"release_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" integer,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_status_history_from_valid" CHECK ("release_status_history"."from_status" is null or "release_status_history"."from_status" in ('draft', 'pending_approval', 'approved', 'rejected', 'in_distribution', 'takedown_requested', 'taken_down')),
	CONSTRAINT "release_status_history_to_valid" CHECK ("release_status_history"."to_status" in ('draft', 'pending_approval', 'approved', 'rejected', 'in_distribution', 'takedown_requested', 'taken_down'))
);
--> statement-breakpoint
CREATE TABLE "release_tracks" (
	"release_id" integer NOT NULL,
	"song_id" integer NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "release_tracks_release_id_position_pk" PRIMARY KEY("release_id","position"),
	CONSTRAINT "release_tracks_position_positive" CHECK ("release_tracks"."position" >= 1)
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "releases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"artist_id" integer NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"type" text NOT NULL,
	"upc" text,
	"label" text DEFAULT '' NOT NULL,
	"p_line" text DEFAULT '' NOT NULL,
	"c_line" text DEFAULT '' NOT NULL,
	"primary_genre_id" integer,
	"secondary_genre_id" integer,
	"language_id" integer,
	"release_date" date,
	"previously_released" boolean DEFAULT false NOT NULL,
	"previous_release_date" date,
	"parental_advisory" boolean DEFAULT false NOT NULL,
	"cover_art_path" text,
	"stores" text[] DEFAULT '{}'::text[] NOT NULL,
	"territories" text[] DEFAULT '{WW}'::text[] NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"rejection_reasons" jsonb,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "releases_type_valid" CHECK ("releases"."type" in ('single', 'ep', 'album')),
	CONSTRAINT "releases_status_valid" CHECK ("releases"."status" in ('draft', 'pending_approval', 'approved', 'rejected', 'in_distribution', 'takedown_requested', 'taken_down')),
	CONSTRAINT "releases_upc_format" CHECK ("releases"."upc" is null or "releases"."upc" ~ '^[0-9]{12,13}$')
);
--> statement-breakpoint
CREATE TABLE "song_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"song_id" integer NOT NULL,
	"role" text NOT NULL,
	"email" text NOT NULL,
	"user_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"responded_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "song_credits_role_valid" CHECK ("song_credits"."role" in ('producer', 'featured_artist')),
	CONSTRAINT "song_credits_status_valid" CHECK ("song_credits"."status" in ('pending', 'accepted', 'declined', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "song_writers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "song_writers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"song_id" integer NOT NULL,
	"name" text NOT NULL,
	"user_id" integer,
	"share_bps" integer NOT NULL,
	"pro_id" integer,
	"ipi" text,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "song_writers_share_range" CHECK ("song_writers"."share_bps" between 0 and 10000),
	CONSTRAINT "song_writers_ipi_format" CHECK ("song_writers"."ipi" is null or "song_writers"."ipi" ~ '^[0-9]{9,11}$')
);
--> statement-breakpoint
CREATE TABLE "songs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "songs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"artist_id" integer NOT NULL,
	"title" text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"isrc" text,
	"iswc" text,
	"duration_seconds" integer,
	"explicit" boolean DEFAULT false NOT NULL,
	"language_id" integer,
	"lyrics" text DEFAULT '' NOT NULL,
	"is_cover" boolean DEFAULT false NOT NULL,
	"cover_licence_provider" text,
	"cover_licence_id" text,
	"cover_original_writers" text,
	"audio_path" text,
	"audio_format" text,
	"audio_bit_depth" smallint,
	"audio_sample_rate" integer,
	"audio_channels" smallint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "songs_isrc_format" CHECK ("songs"."isrc" is null or "songs"."isrc" ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'),
	CONSTRAINT "songs_iswc_format" CHECK ("songs"."iswc" is null or "songs"."iswc" ~ '^T-[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]$'),
	CONSTRAINT "songs_duration_positive" CHECK ("songs"."duration_seconds" is null or "songs"."duration_seconds" > 0),
	CONSTRAINT "songs_audio_format_valid" CHECK ("songs"."audio_format" is null or "songs"."audio_format" in ('wav', 'flac')),
	CONSTRAINT "songs_audio_properties_together" CHECK (("songs"."audio_format" is null and "songs"."audio_bit_depth" is null and "songs"."audio_sample_rate" is null and "songs"."audio_channels" is null)
        or ("songs"."audio_format" is not null and "songs"."audio_bit_depth" is not null and "songs"."audio_sample_rate" is not null
          and "songs"."audio_channels" is not null and "songs"."audio_bit_depth" > 0 and "songs"."audio_sample_rate" > 0 and "songs"."audio_channels" > 0)),
	CONSTRAINT "songs_audio_path_has_properties" CHECK ("songs"."audio_path" is null or "songs"."audio_format" is not null)
);
--> statement-breakpoint
ALTER TABLE "release_status_history" ADD CONSTRAINT "release_status_history_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_status_history" ADD CONSTRAINT "release_status_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_tracks" ADD CONSTRAINT "release_tracks_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_tracks" ADD CONSTRAINT "release_tracks_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_artist_id_profiles_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_primary_genre_id_reference_values_id_fk" FOREIGN KEY ("primary_genre_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_secondary_genre_id_reference_values_id_fk" FOREIGN KEY ("secondary_genre_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_language_id_reference_values_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_credits" ADD CONSTRAINT "song_credits_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_credits" ADD CONSTRAINT "song_credits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_credits" ADD CONSTRAINT "song_credits_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_writers" ADD CONSTRAINT "song_writers_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_writers" ADD CONSTRAINT "song_writers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_writers" ADD CONSTRAINT "song_writers_pro_id_reference_values_id_fk" FOREIGN KEY ("pro_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_artist_id_profiles_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_language_id_reference_values_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_status_history_release_idx" ON "release_status_history" USING btree ("release_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "release_tracks_release_song_unique" ON "release_tracks" USING btree ("release_id","song_id");--> statement-breakpoint
CREATE INDEX "release_tracks_song_idx" ON "release_tracks" USING btree ("song_id");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_artist_slug_unique" ON "releases" USING btree ("artist_id",lower("slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "releases_upc_unique" ON "releases" USING btree (ltrim("upc", '0'));--> statement-breakpoint
CREATE INDEX "releases_artist_created_idx" ON "releases" USING btree ("artist_id","created_at");--> statement-breakpoint
CREATE INDEX "releases_status_created_idx" ON "releases" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "releases_created_at_idx" ON "releases" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "song_credits_song_idx" ON "song_credits" USING btree ("song_id","role");--> statement-breakpoint
CREATE INDEX "song_credits_user_idx" ON "song_credits" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "song_credits_email_idx" ON "song_credits" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "song_credits_live_unique" ON "song_credits" USING btree ("song_id","role",lower("email")) WHERE "song_credits"."status" in ('pending', 'accepted');--> statement-breakpoint
CREATE INDEX "song_writers_song_idx" ON "song_writers" USING btree ("song_id","position");--> statement-breakpoint
CREATE INDEX "song_writers_user_idx" ON "song_writers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "songs_isrc_unique" ON "songs" USING btree ("isrc");--> statement-breakpoint
CREATE INDEX "songs_iswc_idx" ON "songs" USING btree ("iswc");--> statement-breakpoint
CREATE INDEX "songs_artist_title_idx" ON "songs" USING btree ("artist_id",lower("title"));--> statement-breakpoint
CREATE INDEX "songs_created_at_idx" ON "songs" USING btree ("created_at");