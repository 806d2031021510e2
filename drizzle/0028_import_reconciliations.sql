-- The last reconcile of each import (decision 028): whether its lines' parts sum to its postings, and the mismatches found.
CREATE TABLE "import_reconciliations" (
	"import_id" integer PRIMARY KEY NOT NULL,
	"reconciled" boolean NOT NULL,
	"lines_checked" integer NOT NULL,
	"accounts_checked" integer NOT NULL,
	"mismatches" jsonb NOT NULL,
	"mismatched_lines" integer NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_reconciliations" ADD CONSTRAINT "import_reconciliations_import_id_sales_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."sales_imports"("id") ON DELETE cascade ON UPDATE no action;