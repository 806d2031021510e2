DROP INDEX "postings_account_idx";--> statement-breakpoint
CREATE INDEX "postings_account_idx" ON "postings" USING btree ("account_id","source","statement_line_id","song_id");