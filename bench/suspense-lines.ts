/**
 * For the responsiveness bench's suspense match (bench/responsiveness.js), on the database the settings name
 * (with the embedded PostgreSQL, the running server's): prints as JSON the first line in suspense with an ISRC,
 * how many lines with that code are in suspense, and a song with an ISRC to match them to.
 *
 *   node --import tsx bench/suspense-lines.ts <isrc>
 */
import { sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { db } from "../app/db/client.server";

const isrc = process.argv[2]!;
process.env.SEED_DEMO_DATA = "false";
await boot();
try {
  const result = (await db().execute(sql`
    select (select min(id) from statement_lines where matched_by is null and suspense_key = ${`isrc:${isrc}`})::int as "lineId",
      (select count(*) from statement_lines where matched_by is null and suspense_key = ${`isrc:${isrc}`})::int as "inSuspense",
      (select id from songs where isrc is not null order by id limit 1) as "songId"`)) as unknown as {
    rows: Array<{ lineId: number | null; inSuspense: number; songId: number | null }>;
  };
  console.log(JSON.stringify(result.rows[0]));
} finally {
  await shutdown();
}
process.exit(0);
