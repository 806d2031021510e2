import type { ReactNode } from "react";

/**
 * A responsive table: a real table (column headers with scope, an optional row header) from the `md`
 * breakpoint up, and on phones each row becomes a card with "label: value" lines. One markup for both,
 * so nothing is rendered twice; the explicit roles keep the table semantics when CSS changes `display`.
 * The cell styles live in app.css (`.data-table`), not on every cell: long tables are rendered on the
 * server for each request, and repeated class strings and label elements made up most of their HTML.
 */
export interface DataColumn<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The row's header cell (`<th scope="row">`) and the card's title on phones. Use on one column. */
  rowHeader?: boolean;
  /** Visually hides the column header (for an actions column); screen readers still get it. */
  headerHidden?: boolean;
  align?: "left" | "right";
  className?: string;
}

export function DataTable<T>({
  caption,
  captionHidden = true,
  columns,
  rows,
  rowKey,
  empty,
}: {
  /** Names the table for screen readers (and on screen unless `captionHidden`). */
  caption: ReactNode;
  captionHidden?: boolean;
  columns: Array<DataColumn<T>>;
  rows: T[];
  rowKey: (row: T) => string | number;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
}) {
  if (!rows.length && empty) {
    return <div className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-12 text-center">{empty}</div>;
  }
  return (
    <div className="md:overflow-x-auto md:rounded-lg md:border md:border-stone-200 md:bg-white md:shadow-sm">
      <table role="table" className="data-table w-full text-left text-sm max-md:block">
        <caption className={captionHidden ? "sr-only" : "px-4 py-3 text-left font-semibold max-md:block max-md:px-0"}>{caption}</caption>
        <thead role="rowgroup" className="bg-stone-50 max-md:sr-only">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.key} role="columnheader" scope="col" className={column.align === "right" ? "text-right" : undefined}>
                {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row">
              {columns.map((column) => {
                const className = [column.align === "right" ? "md:text-right" : "", column.className ?? ""].join(" ").trim() || undefined;
                if (column.rowHeader) {
                  return (
                    <th key={column.key} role="rowheader" scope="row" className={className}>
                      {column.cell(row)}
                    </th>
                  );
                }
                // The phone label is the header drawn by CSS from data-label (styles in app.css); a
                // header that is not plain text gets its own label element instead.
                const label = column.headerHidden ? undefined : column.header;
                return (
                  <td key={column.key} role="cell" className={className} data-label={typeof label === "string" ? label : undefined}>
                    {label !== undefined && typeof label !== "string" ? (
                      <span aria-hidden="true" className="data-table-label">
                        {label}
                      </span>
                    ) : null}
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
