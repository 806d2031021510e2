CREATE TABLE "posting_rollups" (
	"account_id" integer NOT NULL,
	"source" text NOT NULL,
	"dim" text NOT NULL,
	"dim_value" text NOT NULL,
	"import_id" integer NOT NULL,
	"month" date NOT NULL,
	"song_id" integer NOT NULL,
	"artist_id" integer NOT NULL,
	"release_id" integer NOT NULL,
	"release_title" text NOT NULL,
	"track_title" text NOT NULL,
	"amount_micros" bigint NOT NULL,
	"postings" integer NOT NULL,
	"lines" integer NOT NULL,
	"track_lines" integer NOT NULL,
	CONSTRAINT "posting_rollups_pk" PRIMARY KEY("account_id","source","dim","dim_value","import_id","month","song_id","artist_id","release_id","release_title","track_title")
);

--> statement-breakpoint
-- posting_rollups follows posting_summaries in the statement that changes it (schema.ts explains the rows).
-- Statement-level triggers with transition tables: one per event, as PostgreSQL requires.
CREATE FUNCTION posting_rollups_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO posting_rollups AS r (account_id, source, dim, dim_value, import_id, month, song_id, artist_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines)
  SELECT d.account_id, d.source, v.dim, v.dim_value, v.import_id, d.month, v.song_id, coalesce(s.artist_id, 0), v.release_id, v.release_title, v.track_title,
    sum(d.amount_micros), sum(d.postings)::int, sum(d.lines)::int, sum(d.track_lines)::int
  FROM (SELECT account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines FROM new_rows) d
  LEFT JOIN songs s ON s.id = d.song_id
  CROSS JOIN LATERAL (VALUES
    ('', '', d.import_id, d.song_id, d.release_id, d.release_title, d.track_title),
    ('store', d.store, 0, 0, 0, '', ''),
    ('territory', d.territory, 0, 0, 0, '', '')
  ) AS v(dim, dim_value, import_id, song_id, release_id, release_title, track_title)
  -- Store and territory rows are of statement lines only (import 0: postings without a line).
  WHERE v.dim = '' OR d.import_id <> 0
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
  ON CONFLICT ON CONSTRAINT posting_rollups_pk DO UPDATE SET
    amount_micros = r.amount_micros + excluded.amount_micros, postings = r.postings + excluded.postings,
    lines = r.lines + excluded.lines, track_lines = r.track_lines + excluded.track_lines;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION posting_rollups_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO posting_rollups AS r (account_id, source, dim, dim_value, import_id, month, song_id, artist_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines)
  SELECT d.account_id, d.source, v.dim, v.dim_value, v.import_id, d.month, v.song_id, coalesce(s.artist_id, 0), v.release_id, v.release_title, v.track_title,
    sum(d.amount_micros), sum(d.postings)::int, sum(d.lines)::int, sum(d.track_lines)::int
  FROM (SELECT account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines FROM new_rows UNION ALL SELECT account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, -amount_micros AS amount_micros, -postings AS postings, -lines AS lines, -track_lines AS track_lines FROM old_rows) d
  LEFT JOIN songs s ON s.id = d.song_id
  CROSS JOIN LATERAL (VALUES
    ('', '', d.import_id, d.song_id, d.release_id, d.release_title, d.track_title),
    ('store', d.store, 0, 0, 0, '', ''),
    ('territory', d.territory, 0, 0, 0, '', '')
  ) AS v(dim, dim_value, import_id, song_id, release_id, release_title, track_title)
  -- Store and territory rows are of statement lines only (import 0: postings without a line).
  WHERE v.dim = '' OR d.import_id <> 0
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
  ON CONFLICT ON CONSTRAINT posting_rollups_pk DO UPDATE SET
    amount_micros = r.amount_micros + excluded.amount_micros, postings = r.postings + excluded.postings,
    lines = r.lines + excluded.lines, track_lines = r.track_lines + excluded.track_lines;
  DELETE FROM posting_rollups WHERE postings = 0 AND account_id IN (SELECT DISTINCT account_id FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION posting_rollups_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO posting_rollups AS r (account_id, source, dim, dim_value, import_id, month, song_id, artist_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines)
  SELECT d.account_id, d.source, v.dim, v.dim_value, v.import_id, d.month, v.song_id, coalesce(s.artist_id, 0), v.release_id, v.release_title, v.track_title,
    sum(d.amount_micros), sum(d.postings)::int, sum(d.lines)::int, sum(d.track_lines)::int
  FROM (SELECT account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, -amount_micros AS amount_micros, -postings AS postings, -lines AS lines, -track_lines AS track_lines FROM old_rows) d
  LEFT JOIN songs s ON s.id = d.song_id
  CROSS JOIN LATERAL (VALUES
    ('', '', d.import_id, d.song_id, d.release_id, d.release_title, d.track_title),
    ('store', d.store, 0, 0, 0, '', ''),
    ('territory', d.territory, 0, 0, 0, '', '')
  ) AS v(dim, dim_value, import_id, song_id, release_id, release_title, track_title)
  -- Store and territory rows are of statement lines only (import 0: postings without a line).
  WHERE v.dim = '' OR d.import_id <> 0
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
  ON CONFLICT ON CONSTRAINT posting_rollups_pk DO UPDATE SET
    amount_micros = r.amount_micros + excluded.amount_micros, postings = r.postings + excluded.postings,
    lines = r.lines + excluded.lines, track_lines = r.track_lines + excluded.track_lines;
  DELETE FROM posting_rollups WHERE postings = 0 AND account_id IN (SELECT DISTINCT account_id FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posting_rollups_insert AFTER INSERT ON posting_summaries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION posting_rollups_on_insert();
--> statement-breakpoint
CREATE TRIGGER posting_rollups_update AFTER UPDATE ON posting_summaries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION posting_rollups_on_update();
--> statement-breakpoint
CREATE TRIGGER posting_rollups_delete AFTER DELETE ON posting_summaries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION posting_rollups_on_delete();
--> statement-breakpoint
-- Backfill from what posting_summaries holds now.
  INSERT INTO posting_rollups AS r (account_id, source, dim, dim_value, import_id, month, song_id, artist_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines)
  SELECT d.account_id, d.source, v.dim, v.dim_value, v.import_id, d.month, v.song_id, coalesce(s.artist_id, 0), v.release_id, v.release_title, v.track_title,
    sum(d.amount_micros), sum(d.postings)::int, sum(d.lines)::int, sum(d.track_lines)::int
  FROM (SELECT account_id, source, import_id, month, store, territory, song_id, release_id, release_title, track_title, amount_micros, postings, lines, track_lines FROM posting_summaries) d
  LEFT JOIN songs s ON s.id = d.song_id
  CROSS JOIN LATERAL (VALUES
    ('', '', d.import_id, d.song_id, d.release_id, d.release_title, d.track_title),
    ('store', d.store, 0, 0, 0, '', ''),
    ('territory', d.territory, 0, 0, 0, '', '')
  ) AS v(dim, dim_value, import_id, song_id, release_id, release_title, track_title)
  -- Store and territory rows are of statement lines only (import 0: postings without a line).
  WHERE v.dim = '' OR d.import_id <> 0
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
  ON CONFLICT ON CONSTRAINT posting_rollups_pk DO UPDATE SET
    amount_micros = r.amount_micros + excluded.amount_micros, postings = r.postings + excluded.postings,
    lines = r.lines + excluded.lines, track_lines = r.track_lines + excluded.track_lines;
