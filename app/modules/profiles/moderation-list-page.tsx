import { Form, Link, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count, DateTime } from "~/components/formatting";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import type { ProfileStatus, ProfileType } from "~/db/schema";
import type { ModerationList, ModerationQuery, ModerationRow } from "./moderation-list.server";
import { PROFILE_STATUS_LABELS } from "./profile-types";
import { inputClass } from "~/components/forms";

export interface ModerationListPageProps {
  type: ProfileType;
  label: string;
  plural: string;
  adminPage: string;
  query: ModerationQuery;
  list: ModerationList;
}

const linkClass = "font-medium text-brand-900 underline-offset-2 hover:underline";

function columnsFor(adminPage: string): Array<DataColumn<ModerationRow>> {
  return [
    {
      key: "name",
      header: "Name",
      rowHeader: true,
      cell: (p) => (
        <Link to={`/admin/${adminPage}/${p.id}`} className={linkClass}>
          {p.name}
        </Link>
      ),
    },
    { key: "username", header: "Username", cell: (p) => <span className="break-all">{p.username}</span> },
    {
      key: "owner",
      header: "Owner",
      cell: (p) => (
        <span className="flex flex-col">
          <Link to={`/admin/member/${p.ownerId}`} className={linkClass}>
            {p.ownerName}
          </Link>
          <span className="text-xs break-all text-stone-500">{p.ownerEmail}</span>
        </span>
      ),
    },
    { key: "status", header: "Status", cell: (p) => <StatusTag status={p.status} label={PROFILE_STATUS_LABELS[p.status]} /> },
    {
      key: "submitted",
      header: "Submitted",
      cell: (p) => (p.submittedAt ? <DateTime iso={p.submittedAt} withTime /> : <span className="text-stone-500">Not yet</span>),
    },
    { key: "updated", header: "Updated", cell: (p) => <DateTime iso={p.updatedAt} withTime /> },
  ];
}

/** `/admin/{directory}/profiles`: one type's profiles in every status, pending ones first, to moderate. */
export function ModerationListPage({ label, plural, adminPage, query, list }: ModerationListPageProps) {
  const filtered = Boolean(query.q || query.status);
  const noun = label.toLowerCase();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
          {label} Profiles
          <Link
            to="?status=pending_approval"
            className={`rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset ${
              list.pending ? "bg-amber-50 text-amber-800 ring-amber-600/25 hover:bg-amber-100" : "bg-stone-100 text-stone-600 ring-stone-500/20"
            }`}
          >
            <Count value={list.pending} /> pending approval
          </Link>
        </h1>
        <p className="mt-1 text-sm text-stone-600">Every {noun} profile in any status. Open one to approve it, reject it with a reason, or unpublish it.</p>
      </div>

      <section aria-labelledby="moderation-list-heading" className="space-y-4">
        <h2 id="moderation-list-heading" className="sr-only">
          {plural} to moderate
        </h2>
        <SearchForm query={query} noun={noun} />
        <DataTable
          caption={
            <>
              {label} profiles{filtered ? " matching the filters" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columnsFor(adminPage)}
          rows={list.rows}
          rowKey={(p) => p.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={filtered}
              noMatch={`No ${noun} profiles match these filters.`}
              noMatchHint="Try another name, username or email"
              empty={`No ${noun} profiles yet.`}
              emptyHint="Members create them from their member area; submitted ones appear here first."
            />
          }
        />
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          total={list.total}
          pageSize={list.pageSize}
          noun={[`${noun} profile`, `${noun} profiles`]}
          label={`${label} profile list pages`}
        />
      </section>
    </div>
  );
}

function SearchForm({ query, noun }: { query: ModerationQuery; noun: string }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label={`Filter ${noun} profiles`}
      // Re-mounted on each search so the fields show what the URL says (after "Clear", for example).
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="moderation-search" className="block text-sm font-medium text-stone-800">
          Search by name, username or owner email
        </label>
        <input
          id="moderation-search"
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder="e.g. Mia or mia@example.com"
          maxLength={100}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="moderation-status" className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id="moderation-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">All statuses (pending first)</option>
          {(Object.keys(PROFILE_STATUS_LABELS) as ProfileStatus[]).map((status) => (
            <option key={status} value={status}>
              {PROFILE_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 lg:flex-none"
        >
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
