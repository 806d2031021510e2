-- The admin sales pages' running totals per import (decision 028, "Admin reports"), and which imports they hold as of which unmatched figures.
CREATE TABLE "admin_sales_rollup_imports" (
	"import_id" integer PRIMARY KEY NOT NULL,
	"unmatched" integer NOT NULL,
	"suspense_micros" bigint DEFAULT 0 NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_sales_rollups" (
	"import_id" integer NOT NULL,
	"kind" text NOT NULL,
	"subject_id" integer NOT NULL,
	"month" date NOT NULL,
	"store" text NOT NULL,
	"territory" text NOT NULL,
	"song_id" integer NOT NULL,
	"release_id" integer NOT NULL,
	"release_title" text NOT NULL,
	"track_title" text NOT NULL,
	"lines" integer NOT NULL,
	"amount_micros" bigint NOT NULL,
	"commission_micros" bigint NOT NULL,
	CONSTRAINT "admin_sales_rollups_pk" PRIMARY KEY("import_id","subject_id","month","store","territory","song_id","release_id","release_title","track_title")
);
--> statement-breakpoint
ALTER TABLE "admin_sales_rollup_imports" ADD CONSTRAINT "admin_sales_rollup_imports_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_sales_rollups" ADD CONSTRAINT "admin_sales_rollups_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_sales_rollups_subject_idx" ON "admin_sales_rollups" USING btree ("kind","subject_id");