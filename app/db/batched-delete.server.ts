import type { SQL } from "drizzle-orm";
import { db } from "./client.server";

/** Rows one clean-up statement deletes at most: short transactions, no long lock on a busy table. */
export const CLEANUP_BATCH = 5_000;

/** Runs a `delete … where key in (select … limit CLEANUP_BATCH)` until it deletes fewer than a batch; returns the total. */
export async function deleteInBatches(statement: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const result = (await db().execute(statement)) as unknown as { rowCount: number | null };
    const deleted = result.rowCount ?? 0;
    total += deleted;
    if (deleted < CLEANUP_BATCH) return total;
  }
}
