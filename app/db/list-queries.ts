import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** Small pieces every paged, searchable list query shares (members, directories, moderation, reference data). */

/** How many pages `total` rows make; at least one, so an empty list still has page 1. */
export function pageCountFor(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** `%`, `_` and `\` typed into a search box are matched literally by LIKE/ILIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Newest first, in the order of the `(…, created_at desc, id desc)` list indexes. drizzle declares `.desc()`
 * index columns as DESC NULLS LAST while `desc(column)` sorts NULLS FIRST (PostgreSQL's default for DESC): the
 * orders differ, so the planner would read every matching row and sort them instead of walking the index.
 */
export function newestFirst(createdAt: SQLWrapper, id: SQLWrapper): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}
