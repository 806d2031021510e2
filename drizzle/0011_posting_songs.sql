ALTER TABLE "postings" ADD COLUMN "song_id" integer;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postings_song_idx" ON "postings" USING btree ("song_id") WHERE "postings"."song_id" is not null;