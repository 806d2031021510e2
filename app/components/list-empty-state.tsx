import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";

const linkClass = "font-medium text-brand-800 underline";

/**
 * What a paged list shows when a page has no rows, in every list of the product:
 * a page past the end (rows exist: offer the last page), a search or filter that matched nothing
 * (offer to clear it), or a list with nothing yet. Wording comes from the list; the logic is shared.
 */
export function ListEmptyState({
  total,
  pageCount,
  filtered,
  noMatch,
  noMatchHint,
  empty,
  emptyHint,
  clearLabel = "clear the filters",
}: {
  total: number;
  pageCount: number;
  filtered: boolean;
  /** e.g. "No members match this search." */
  noMatch: ReactNode;
  /** Begins the hint sentence, e.g. "Try another name or email": ", or clear the filters." follows. */
  noMatchHint: ReactNode;
  empty: ReactNode;
  emptyHint?: ReactNode;
  clearLabel?: string;
}) {
  const location = useLocation();
  if (total > 0) {
    const params = new URLSearchParams(location.search);
    params.set("page", String(pageCount));
    return (
      <>
        <p className="font-medium text-stone-900">There is nothing on this page.</p>
        <p className="mt-1 text-sm text-stone-600">
          The list has {pageCount} {pageCount === 1 ? "page" : "pages"}.{" "}
          <Link to={{ search: `?${params}` }} className={linkClass}>
            Go to the last page
          </Link>
        </p>
      </>
    );
  }
  if (filtered) {
    return (
      <>
        <p className="font-medium text-stone-900">{noMatch}</p>
        <p className="mt-1 text-sm text-stone-600">
          {noMatchHint}, or{" "}
          <Link to={location.pathname} className={linkClass}>
            {clearLabel}
          </Link>
          .
        </p>
      </>
    );
  }
  return (
    <>
      <p className="font-medium text-stone-900">{empty}</p>
      {emptyHint ? <p className="mt-1 text-sm text-stone-600">{emptyHint}</p> : null}
    </>
  );
}
