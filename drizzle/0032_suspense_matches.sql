CREATE TABLE "suspense_matches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "suspense_matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"line_id" bigint NOT NULL,
	"import_id" integer,
	"target" jsonb NOT NULL,
	"code" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"expected_lines" integer DEFAULT 1 NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "suspense_matches_status_valid" CHECK ("suspense_matches"."status" in ('queued', 'processing', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "suspense_matches" ADD CONSTRAINT "suspense_matches_line_id_statement_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."statement_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspense_matches" ADD CONSTRAINT "suspense_matches_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspense_matches" ADD CONSTRAINT "suspense_matches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "suspense_matches_created_idx" ON "suspense_matches" USING btree ("created_at");