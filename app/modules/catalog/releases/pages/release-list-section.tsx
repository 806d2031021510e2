import type { ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { inputClass } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { releaseStatuses } from "~/db/schema";
import type { ReleaseListQuery, ReleaseRow } from "../release-list.server";
import { RELEASE_STATUS_LABELS, RELEASE_TYPE_OPTIONS } from "../release-options";
import type { AdminReleasesData, MemberReleasesData } from "../release-routes.server";
import { buttonPrimary, ReleaseStatusTag } from "./release-page-parts";

function ReleaseSearchForm({ query, label }: { query: ReleaseListQuery; label: string }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
    >
      <div>
        <label htmlFor="release-search" className="block text-sm font-medium text-stone-800">
          Search by title, artist or UPC
        </label>
        <input id="release-search" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
      </div>
      <div>
        <label htmlFor="release-status" className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id="release-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">All statuses</option>
          {releaseStatuses.map((s) => (
            <option key={s} value={s}>
              {RELEASE_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonPrimary}>
          Search
        </button>
        {query.q || query.status ? (
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

type ListRow = ReleaseRow & { coverUrl: string | null; statusPath?: string };

function releaseColumns(linkFor: (row: ListRow) => string, extra: Array<DataColumn<ListRow>> = []): Array<DataColumn<ListRow>> {
  return [
    {
      key: "title",
      header: "Release",
      rowHeader: true,
      cell: (r) => (
        <Link to={linkFor(r)} className="font-medium text-brand-900 underline-offset-2 hover:underline">
          {r.title}
        </Link>
      ),
    },
    { key: "artist", header: "Artist", cell: (r) => r.artist.name },
    { key: "type", header: "Type", cell: (r) => RELEASE_TYPE_OPTIONS.find((t) => t.value === r.type)?.label },
    { key: "tracks", header: "Tracks", cell: (r) => r.trackCount, align: "right" },
    { key: "date", header: "Release date", cell: (r) => r.releaseDate ?? "–" },
    { key: "upc", header: "UPC", cell: (r) => r.upc ?? "–" },
    { key: "status", header: "Status", cell: (r) => <ReleaseStatusTag status={r.status} /> },
    ...extra,
  ];
}

export function ReleaseListSection({
  query,
  list,
  linkFor,
  extra,
  emptyHint,
}: {
  query: ReleaseListQuery;
  list: MemberReleasesData["list"] | AdminReleasesData["list"];
  linkFor: (row: ListRow) => string;
  extra?: Array<DataColumn<ListRow>>;
  emptyHint?: ReactNode;
}) {
  const filtered = Boolean(query.q || query.status);
  return (
    <section aria-labelledby="release-list-heading" className="space-y-4">
      <h2 id="release-list-heading" className="sr-only">
        Release list
      </h2>
      <ReleaseSearchForm query={query} label="Filter releases" />
      <DataTable
        caption={
          <>
            Releases{filtered ? " matching the search" : ""}, page {list.page} of {list.pageCount}
          </>
        }
        columns={releaseColumns(linkFor, extra)}
        rows={list.rows as ListRow[]}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={list.total}
            pageCount={list.pageCount}
            filtered={filtered}
            noMatch="No releases match this search."
            noMatchHint="Try another title"
            empty="No releases yet."
            emptyHint={emptyHint}
          />
        }
      />
      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
        pageSize={list.pageSize}
        noun={["release", "releases"]}
        label="Release list pages"
      />
    </section>
  );
}
