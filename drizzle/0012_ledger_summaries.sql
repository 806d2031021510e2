CREATE TABLE "posting_summaries" (
	"account_id" integer NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"import_id" integer DEFAULT 0 NOT NULL,
	"month" date NOT NULL,
	"store" text DEFAULT '' NOT NULL,
	"territory" text DEFAULT '' NOT NULL,
	"song_id" integer DEFAULT 0 NOT NULL,
	"release_id" integer DEFAULT 0 NOT NULL,
	"release_title" text DEFAULT '' NOT NULL,
	"track_title" text DEFAULT '' NOT NULL,
	"amount_micros" bigint NOT NULL,
	"postings" integer NOT NULL,
	"lines" integer NOT NULL,
	"track_lines" integer NOT NULL,
	CONSTRAINT "posting_summaries_pk" PRIMARY KEY("account_id","source","import_id","month","store","territory","song_id","release_id","release_title","track_title")
);
--> statement-breakpoint
ALTER TABLE "posting_summaries" ADD CONSTRAINT "posting_summaries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
INSERT INTO "posting_summaries" ("account_id", "source", "import_id", "month", "store", "territory", "song_id", "release_id", "release_title", "track_title", "amount_micros", "postings", "lines", "track_lines")
SELECT p.account_id, coalesce(p.source, ''), coalesce(sl.import_id, 0),
  coalesce(date_trunc('month', sl.sale_period_start)::date, date_trunc('month', je.created_at at time zone 'UTC')::date),
  coalesce(sl.source, ''), coalesce(sl.territory, ''), coalesce(p.song_id, 0), coalesce(sl.release_id, 0),
  CASE WHEN sl.release_id IS NULL THEN coalesce(sl.release_title, '') ELSE '' END,
  CASE WHEN p.song_id IS NULL THEN coalesce(sl.track_title, '') ELSE '' END,
  sum(p.amount_micros), count(*)::int,
  (count(*) FILTER (WHERE p.statement_line_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM postings q WHERE q.account_id = p.account_id AND q.statement_line_id = p.statement_line_id AND q.id < p.id)))::int,
  (count(*) FILTER (WHERE p.statement_line_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM postings q WHERE q.account_id = p.account_id AND q.statement_line_id = p.statement_line_id
      AND q.song_id IS NOT DISTINCT FROM p.song_id AND q.id < p.id)))::int
FROM postings p
JOIN journal_entries je ON je.id = p.entry_id
LEFT JOIN statement_lines sl ON sl.id = p.statement_line_id
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
