import { eq, inArray, or, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { releaseTracks, statementLines } from "~/db/schema";

/**
 * The latest sale period start among a song's posted statement lines (its own, and its releases' album
 * lines, which are shared over the tracks), or null. A split version may not start on or before it: those
 * lines were paid under the split in force then, and changing that split would rewrite paid history.
 * Statement lines exist only once their import has committed, so every line counts as posted. One statement.
 */
export async function latestPostedSalePeriodStart(songId: number, executor: Db = db()): Promise<string | null> {
  const [row] = await executor
    .select({ latest: sql<string | null>`max(${statementLines.salePeriodStart})::text` })
    .from(statementLines)
    .where(
      or(
        eq(statementLines.songId, songId),
        inArray(statementLines.releaseId, executor.select({ id: releaseTracks.releaseId }).from(releaseTracks).where(eq(releaseTracks.songId, songId))),
      ),
    );
  return row?.latest ?? null;
}
