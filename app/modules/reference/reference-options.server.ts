import { and, asc, inArray, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { referenceValues, type ReferenceKind } from "~/db/schema";

export interface ReferenceOption {
  id: number;
  name: string;
}

/** The values that can be chosen now (not retired), per kind, sorted by name. One query. */
export async function loadReferenceOptions(kinds: readonly ReferenceKind[]): Promise<Record<ReferenceKind, ReferenceOption[]>> {
  const result = { genre: [], skill: [], instrument: [], language: [], pro: [] } as Record<ReferenceKind, ReferenceOption[]>;
  if (kinds.length === 0) return result;
  const rows = await db()
    .select({ id: referenceValues.id, name: referenceValues.name, kind: referenceValues.kind })
    .from(referenceValues)
    .where(and(inArray(referenceValues.kind, [...kinds]), isNull(referenceValues.retiredAt)))
    .orderBy(asc(referenceValues.name));
  for (const row of rows) result[row.kind].push({ id: row.id, name: row.name });
  return result;
}
