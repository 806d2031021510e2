import type { ReactNode } from "react";

/**
 * A responsive table: a real table (column headers with scope, an optional row header) from the `md`
 * breakpoint up, and on phones each row becomes a card with "label: value" lines. One markup for both,
 * so nothing is rendered twice; the explicit roles keep the table semantics when CSS changes `display`.
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
      <table role="table" className="w-full text-left text-sm max-md:block">
        <caption className={captionHidden ? "sr-only" : "px-4 py-3 text-left font-semibold max-md:block max-md:px-0"}>
          {caption}
        </caption>
        <thead role="rowgroup" className="bg-stone-50 max-md:sr-only">
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.key}
                role="columnheader"
                scope="col"
                className={`border-b border-stone-200 px-4 py-2.5 text-xs font-semibold tracking-wide text-stone-600 uppercase ${
                  column.align === "right" ? "text-right" : ""
                }`}
              >
                {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-md:block max-md:space-y-3 md:divide-y md:divide-stone-200">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className="max-md:block max-md:rounded-lg max-md:border max-md:border-stone-200 max-md:bg-white max-md:p-4 max-md:shadow-sm md:hover:bg-stone-50"
            >
              {columns.map((column) => {
                const content = column.cell(row);
                const base = `px-4 py-3 align-middle max-md:px-0 ${column.align === "right" ? "md:text-right" : ""} ${column.className ?? ""}`;
                if (column.rowHeader) {
                  return (
                    <th key={column.key} role="rowheader" scope="row" className={`${base} font-medium text-stone-900 max-md:block max-md:pt-0 max-md:pb-2 max-md:text-base`}>
                      {content}
                    </th>
                  );
                }
                return (
                  <td key={column.key} role="cell" className={`${base} text-stone-700 max-md:flex max-md:items-baseline max-md:justify-between max-md:gap-4 max-md:py-1`}>
                    {column.headerHidden ? null : (
                      <span aria-hidden="true" className="shrink-0 text-xs font-medium text-stone-500 md:hidden">
                        {column.header}
                      </span>
                    )}
                    <span className="min-w-0 break-words max-md:text-right">{content}</span>
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
