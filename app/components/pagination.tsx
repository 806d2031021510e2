import { Link, useLocation } from "react-router";
import { Count } from "./formatting";

/**
 * Page links for a list whose page lives in the URL (`?page=`), keeping every other query parameter
 * (search, filters). The current page is marked with aria-current; page 1 drops the parameter.
 */

export type PageItem = number | "gap";

/** First, last, and the pages around the current one; a gap of one page shows that page instead of "…". */
export function pageItems(page: number, pageCount: number, around = 1): PageItem[] {
  if (pageCount <= 1) return [1];
  const wanted = new Set<number>([1, pageCount]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= pageCount) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const items: PageItem[] = [];
  for (const p of sorted) {
    const previous = items.at(-1);
    if (typeof previous === "number" && p - previous === 2) items.push(previous + 1);
    else if (typeof previous === "number" && p - previous > 2) items.push("gap");
    items.push(p);
  }
  return items;
}

/** "26–50" of a total, for the summary line. */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  if (total === 0) return { from: 0, to: 0 };
  const from = Math.min((page - 1) * pageSize + 1, total + 1);
  return { from, to: Math.min(page * pageSize, total) };
}

/** A page number from the URL (`?page=`): a whole number from 1 to 99,999, else page 1. */
export function pageParam(value: string | null): number {
  return value && /^[1-9][0-9]{0,4}$/.test(value) ? Number(value) : 1;
}

/** The link to `page` of the current path: the same query with only the page changed. */
export function pageHref(search: string, page: number, param = "page"): { search: string } {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete(param);
  else params.set(param, String(page));
  const query = params.toString();
  return { search: query ? `?${query}` : "" };
}

const linkBase =
  "inline-flex min-w-9 items-center justify-center rounded-md px-2.5 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";

export function Pagination({
  page,
  pageCount,
  total,
  pageSize,
  noun = ["item", "items"],
  label = "Pagination",
  param = "page",
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  /** Singular and plural, for the summary: "Showing 1–25 of 40 members". */
  noun?: [string, string];
  label?: string;
  param?: string;
}) {
  const { search } = useLocation();
  const { from, to } = pageRange(page, pageSize, total);
  const word = total === 1 ? noun[0] : noun[1];
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-stone-600">
        {total === 0 ? (
          <>No {noun[1]}</>
        ) : from > total ? (
          <>
            <Count value={total} /> {word} in all
          </>
        ) : (
          <>
            Showing{" "}
            <span className="font-medium text-stone-900">
              <Count value={from} />
            </span>
            –
            <span className="font-medium text-stone-900">
              <Count value={to} />
            </span>{" "}
            of{" "}
            <span className="font-medium text-stone-900">
              <Count value={total} />
            </span>{" "}
            {word}
          </>
        )}
      </p>
      {pageCount > 1 ? (
        <nav aria-label={label}>
          <ul className="flex flex-wrap items-center gap-1">
            <li>
              {page > 1 ? (
                <Link to={pageHref(search, Math.min(page - 1, pageCount), param)} rel="prev" className={`${linkBase} text-stone-700 hover:bg-stone-100`}>
                  <span aria-hidden="true">‹</span>
                  <span className="ml-1">Previous</span>
                </Link>
              ) : (
                <span aria-disabled="true" className={`${linkBase} cursor-not-allowed text-stone-400`}>
                  <span aria-hidden="true">‹</span>
                  <span className="ml-1">Previous</span>
                </span>
              )}
            </li>
            {pageItems(Math.min(page, pageCount), pageCount).map((item, index) =>
              item === "gap" ? (
                <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-stone-400">
                  …
                </li>
              ) : (
                <li key={item}>
                  <Link
                    to={pageHref(search, item, param)}
                    aria-current={item === page ? "page" : undefined}
                    aria-label={`Page ${item}`}
                    className={`${linkBase} ${item === page ? "bg-brand-900 text-white hover:bg-brand-800" : "text-stone-700 hover:bg-stone-100"}`}
                  >
                    <Count value={item} />
                  </Link>
                </li>
              ),
            )}
            <li>
              {page < pageCount ? (
                <Link to={pageHref(search, page + 1, param)} rel="next" className={`${linkBase} text-stone-700 hover:bg-stone-100`}>
                  <span className="mr-1">Next</span>
                  <span aria-hidden="true">›</span>
                </Link>
              ) : (
                <span aria-disabled="true" className={`${linkBase} cursor-not-allowed text-stone-400`}>
                  <span className="mr-1">Next</span>
                  <span aria-hidden="true">›</span>
                </span>
              )}
            </li>
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
