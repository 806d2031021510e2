CREATE TABLE "release_deliveries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "release_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"release_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"package_path" text NOT NULL,
	"package_sha256" text NOT NULL,
	"package_bytes" bigint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_deliveries_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "cover_art_width" integer;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "cover_art_height" integer;--> statement-breakpoint
ALTER TABLE "release_deliveries" ADD CONSTRAINT "release_deliveries_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_deliveries" ADD CONSTRAINT "release_deliveries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_deliveries_release_idx" ON "release_deliveries" USING btree ("release_id","created_at");