-- The journal shows the first postings of an entry in id order: (entry_id, id) reads them in that order, stopping after a page,
-- instead of sorting every posting of an import's entry (decision 028, "Admin reports").
DROP INDEX "postings_entry_idx";--> statement-breakpoint
CREATE INDEX "postings_entry_idx" ON "postings" USING btree ("entry_id","id");