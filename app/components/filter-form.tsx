import type { ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";

/**
 * A list page's filters: a GET form (plain HTML, so it works without JavaScript) named for screen readers
 * as a search, with a Filter button and, when something is filtered, a Clear link back to the bare list.
 * Keyed by the query so its fields show the URL's values after a back or forward navigation.
 */
export function FilterForm({ label, children, clear }: { label: string; children: ReactNode; clear: boolean }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      key={location.search}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm"
    >
      {children}
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
        >
          Filter
        </button>
        {clear ? (
          <Link
            to={location.pathname}
            className="inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
          >
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
