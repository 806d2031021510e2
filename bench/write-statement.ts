/**
 * Writes the bench statement (bench/statement-file.ts) over the songs and releases of the database the
 * settings name: with the embedded PostgreSQL, the running server's (it is used, and left running). For the
 * responsiveness bench (bench/responsiveness.js).
 *
 *   node --import tsx bench/write-statement.ts <file> <lines>
 */
import { sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";
import { writeStatement } from "./statement-file";

const [file, lines] = [process.argv[2]!, Number(process.argv[3])];
process.env.SEED_DEMO_DATA = "false";
await boot();
try {
  const songs = (await db().execute(sql`select isrc, title from songs where isrc is not null order by id`)) as unknown as {
    rows: Array<{ isrc: string; title: string }>;
  };
  const upcs = (await db().execute(
    sql`select upc from releases r where upc is not null and exists (select 1 from release_tracks t where t.release_id = r.id) order by id`,
  )) as unknown as {
    rows: Array<{ upc: string }>;
  };
  writeStatement(
    file,
    lines,
    songs.rows,
    upcs.rows.map((r) => r.upc),
  );
} finally {
  await shutdown();
}
process.exit(0);
