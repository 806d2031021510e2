CREATE TABLE "match_aliases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_aliases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"key_type" text NOT NULL,
	"key" text NOT NULL,
	"song_id" integer,
	"release_id" integer,
	"member_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_aliases_key_type_valid" CHECK ("match_aliases"."key_type" in ('isrc', 'upc', 'iswc', 'ipi', 'title')),
	CONSTRAINT "match_aliases_target" CHECK ("match_aliases"."song_id" is not null or "match_aliases"."release_id" is not null or "match_aliases"."member_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "member_pro_identities" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"ipi_cae" text NOT NULL,
	"pro" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_pro_identities_ipi_format" CHECK ("member_pro_identities"."ipi_cae" ~ '^[0-9]{9,11}$')
);
--> statement-breakpoint
ALTER TABLE "match_aliases" ADD CONSTRAINT "match_aliases_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_aliases" ADD CONSTRAINT "match_aliases_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_aliases" ADD CONSTRAINT "match_aliases_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_aliases" ADD CONSTRAINT "match_aliases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_pro_identities" ADD CONSTRAINT "member_pro_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "match_aliases_key_unique" ON "match_aliases" USING btree ("kind","key_type","key");--> statement-breakpoint
CREATE UNIQUE INDEX "member_pro_identities_ipi_unique" ON "member_pro_identities" USING btree ("ipi_cae");