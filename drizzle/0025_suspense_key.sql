-- The code a line in suspense is matched and grouped by (decision 028): its ISRC, else its UPC (digital and licence
-- lines), its IPI (PRO lines), else its work title folded as titleKey folds it (match-index.server.ts). Kept by the
-- database, so every writer of lines (COPY included) gets it; indexed for the lines still in suspense only.
ALTER TABLE "statement_lines" ADD COLUMN "suspense_key" text GENERATED ALWAYS AS (
  CASE WHEN "kind" = 'pro' THEN coalesce('ipi:' || "ipi", 'title:' || nullif(lower(btrim(regexp_replace("track_title", '\s+', ' ', 'g'))), ''))
  ELSE coalesce('isrc:' || "isrc", 'upc:' || "upc", 'title:' || nullif(lower(btrim(regexp_replace("track_title", '\s+', ' ', 'g'))), '')) END
) STORED;
--> statement-breakpoint
CREATE INDEX "statement_lines_suspense_key_idx" ON "statement_lines" ("kind", "suspense_key") WHERE "matched_by" IS NULL;
