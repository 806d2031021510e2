/** Small pieces every paged, searchable list query shares (members, directories, moderation, reference data). */

/** How many pages `total` rows make; at least one, so an empty list still has page 1. */
export function pageCountFor(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** `%`, `_` and `\` typed into a search box are matched literally by LIKE/ILIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
