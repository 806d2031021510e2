CREATE TABLE "artist_members" (
	"artist_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"can_edit" boolean DEFAULT false NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_members_artist_id_user_id_pk" PRIMARY KEY("artist_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "band_invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" integer NOT NULL,
	"email" text NOT NULL,
	"can_edit" boolean DEFAULT false NOT NULL,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manager_artists" (
	"manager_id" integer NOT NULL,
	"artist_id" integer NOT NULL,
	CONSTRAINT "manager_artists_manager_id_artist_id_pk" PRIMARY KEY("manager_id","artist_id")
);
--> statement-breakpoint
CREATE TABLE "managers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "managers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_rates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profile_rates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"profile_id" integer NOT NULL,
	"label" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"unit" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "profile_rates_amount_nonnegative" CHECK ("profile_rates"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "profile_reference_values" (
	"profile_id" integer NOT NULL,
	"value_id" integer NOT NULL,
	CONSTRAINT "profile_reference_values_profile_id_value_id_pk" PRIMARY KEY("profile_id","value_id")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profiles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sample_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"credits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"avatar_img" text,
	"hero_img" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"rejection_reason" text,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" integer,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reference_values" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reference_values_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"country" text,
	"website" text,
	"code" text,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "venues" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "venues_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venues_capacity_positive" CHECK ("venues"."capacity" is null or "venues"."capacity" > 0)
);
--> statement-breakpoint
ALTER TABLE "artist_members" ADD CONSTRAINT "artist_members_artist_id_profiles_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_members" ADD CONSTRAINT "artist_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "band_invites" ADD CONSTRAINT "band_invites_artist_id_profiles_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "band_invites" ADD CONSTRAINT "band_invites_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "band_invites" ADD CONSTRAINT "band_invites_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_artists" ADD CONSTRAINT "manager_artists_manager_id_managers_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."managers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_artists" ADD CONSTRAINT "manager_artists_artist_id_profiles_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_rates" ADD CONSTRAINT "profile_rates_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_reference_values" ADD CONSTRAINT "profile_reference_values_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_reference_values" ADD CONSTRAINT "profile_reference_values_value_id_reference_values_id_fk" FOREIGN KEY ("value_id") REFERENCES "public"."reference_values"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "artist_members_user_idx" ON "artist_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "band_invites_artist_idx" ON "band_invites" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "band_invites_email_idx" ON "band_invites" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "manager_artists_artist_idx" ON "manager_artists" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "managers_name_idx" ON "managers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "profile_rates_profile_idx" ON "profile_rates" USING btree ("profile_id","position");--> statement-breakpoint
CREATE INDEX "profile_reference_values_value_idx" ON "profile_reference_values" USING btree ("value_id","profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_type_username_unique" ON "profiles" USING btree ("type",lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_one_provider_per_owner" ON "profiles" USING btree ("owner_id","type") WHERE "profiles"."type" <> 'artist';--> statement-breakpoint
CREATE INDEX "profiles_owner_idx" ON "profiles" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "profiles_type_status_name_idx" ON "profiles" USING btree ("type","status","name");--> statement-breakpoint
CREATE INDEX "profiles_type_status_published_idx" ON "profiles" USING btree ("type","status","published_at");--> statement-breakpoint
CREATE INDEX "profiles_search_trgm_idx" ON "profiles" USING gin (lower("name" || ' ' || "username") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_location_trgm_idx" ON "profiles" USING gin (lower("location") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "reference_values_kind_name_unique" ON "reference_values" USING btree ("kind",lower("name"));--> statement-breakpoint
CREATE INDEX "reference_values_kind_name_idx" ON "reference_values" USING btree ("kind","name");--> statement-breakpoint
CREATE INDEX "venues_name_idx" ON "venues" USING btree ("name");