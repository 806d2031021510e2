import { asc, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { processCache } from "~/db/process-cache.server";
import { referenceValues, type ReferenceKind } from "~/db/schema";

export interface ReferenceOption {
  id: number;
  name: string;
}

/**
 * Every value that can be chosen now (not retired), sorted by name: read by every directory and editor
 * page, changed only on the admin reference pages, so kept in memory (reference.server.ts invalidates it).
 */
const optionsCache = processCache(
  "reference-options",
  async () =>
    // Awaited here: a Drizzle query is a lazy thenable that would run again for every reader.
    await db()
      .select({ id: referenceValues.id, name: referenceValues.name, kind: referenceValues.kind })
      .from(referenceValues)
      .where(isNull(referenceValues.retiredAt))
      .orderBy(asc(referenceValues.name), asc(referenceValues.id)),
);

/** Forgets the cached options (after a reference value was added, renamed, retired or restored). */
export function invalidateReferenceOptions(): void {
  optionsCache.invalidate();
}

/** The values that can be chosen now, per kind, sorted by name. No statement while the cache is warm. */
export async function loadReferenceOptions(kinds: readonly ReferenceKind[]): Promise<Record<ReferenceKind, ReferenceOption[]>> {
  const result = { genre: [], skill: [], instrument: [], language: [], pro: [] } as Record<ReferenceKind, ReferenceOption[]>;
  if (kinds.length === 0) return result;
  for (const row of await optionsCache.get()) {
    if (kinds.includes(row.kind)) result[row.kind].push({ id: row.id, name: row.name });
  }
  return result;
}
