import type { ReferenceKind } from "~/db/schema";

/**
 * The directory's URL query (`?q=&genre=&skill=&instrument=&language=&location=&sort=&page=`), shared by
 * the page and the server. Anything malformed is dropped or clamped, never an error page: a link
 * someone edited by hand still shows a directory.
 */

export const DIRECTORY_PAGE_SIZE = 24;
export const DIRECTORY_SORTS = ["name", "newest", "rate"] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

export const DIRECTORY_SORT_LABELS: Record<DirectorySort, string> = {
  name: "Name (A–Z)",
  newest: "Newest",
  rate: "Lowest rate",
};

/** The reference kinds a directory can filter by (PROs are not part of any profile type's filters). */
export const DIRECTORY_FILTER_KINDS = ["genre", "skill", "instrument", "language"] as const satisfies readonly ReferenceKind[];
export type DirectoryFilterKind = (typeof DIRECTORY_FILTER_KINDS)[number];

export const DIRECTORY_TEXT_MAX = 100;
/** Far past any real directory; keeps OFFSET arithmetic sane. */
export const DIRECTORY_MAX_PAGE = 10_000;

export interface DirectoryQuery {
  q: string;
  location: string;
  /** One reference value id per kind, or null for "any". */
  filters: Record<DirectoryFilterKind, number | null>;
  sort: DirectorySort;
  page: number;
}

export interface DirectoryQueryRules {
  /** The kinds this directory offers as filters; others in the URL are ignored. */
  kinds: readonly ReferenceKind[];
  /** The "lowest rate" sort exists only where profiles have rates. */
  rates: boolean;
}

function text(value: string | null): string {
  // Whitespace runs collapse so "  jazz   trio " searches like "jazz trio".
  return (value ?? "").replace(/\s+/g, " ").trim().slice(0, DIRECTORY_TEXT_MAX);
}

function positiveInt(value: string | null, max = 2_147_483_647): number | null {
  if (!value || !/^[0-9]{1,12}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= 1 && n <= max ? n : null;
}

export function parseDirectoryQuery(params: URLSearchParams, rules: DirectoryQueryRules): DirectoryQuery {
  const filters = Object.fromEntries(DIRECTORY_FILTER_KINDS.map((kind) => [kind, rules.kinds.includes(kind) ? positiveInt(params.get(kind)) : null])) as Record<
    DirectoryFilterKind,
    number | null
  >;
  const sortParam = params.get("sort");
  const sort: DirectorySort =
    sortParam && (DIRECTORY_SORTS as readonly string[]).includes(sortParam) && (sortParam !== "rate" || rules.rates) ? (sortParam as DirectorySort) : "name";
  const pageParam = params.get("page");
  // A page past the end of the number range is clamped to the last page we serve; garbage means page 1.
  const page = pageParam && /^[0-9]+$/.test(pageParam.trim()) ? Math.min(Math.max(1, Number(pageParam.trim())), DIRECTORY_MAX_PAGE) : 1;
  return { q: text(params.get("q")), location: text(params.get("location")), filters, sort, page: Number.isFinite(page) ? page : 1 };
}

/** Whether anything narrows the list (the empty state then offers to clear the filters). */
export function isFiltered(query: DirectoryQuery): boolean {
  return Boolean(query.q || query.location || Object.values(query.filters).some((id) => id !== null));
}

/** The sorts a directory offers. */
export function directorySorts(rates: boolean): DirectorySort[] {
  return DIRECTORY_SORTS.filter((sort) => sort !== "rate" || rates);
}
