import type { SubmissionResult } from "@conform-to/react";
import { Fragment, type ReactNode } from "react";
import { Form, Link, useActionData, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FormAlert, inputClass, SubmitButton, useFormResetKey } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import type { IndustryActionData } from "./industry-route.server";
import type { IndustryListQuery } from "./industry-schemas";

/**
 * What the managers and venues pages share: the search form, the empty states, the add panel, the edit
 * panel (opened by `?edit={id}`), contact details and the delete confirmation (a <details>, so it works
 * without JavaScript).
 */

export const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto";
export const smallButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 disabled:opacity-60";
const dangerButton =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60";

/** The list URL as it is now, changed by `change` (`done` always dropped: it only marks a finished form). */
function useListHref(change: (params: URLSearchParams) => void): string {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  change(params);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}

export function IndustrySearch({
  label,
  filterLabel,
  placeholder,
  query,
}: {
  label: string;
  filterLabel: string;
  placeholder: string;
  query: IndustryListQuery;
}) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label={filterLabel}
      // Re-mounted on each search so the field shows what the URL says (after "Clear", for example).
      key={location.search}
      className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
    >
      <div className="flex-1">
        <label htmlFor="industry-search" className="block text-sm font-medium text-stone-800">
          {label}
        </label>
        <input id="industry-search" type="search" name="q" defaultValue={query.q} placeholder={placeholder} maxLength={100} className={inputClass} />
      </div>
      <div className="flex gap-2">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 sm:flex-none"
        >
          Search
        </button>
        {query.q ? (
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

/** A collapsed panel holding the add form; open while the server sends that form back with errors. */
export function AddPanel({ title, hint, open, children }: { title: string; hint: string; open: boolean; children: ReactNode }) {
  return (
    <details open={open || undefined} className="group rounded-lg border border-stone-200 bg-white shadow-sm">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg px-4 py-3 hover:bg-stone-50 [&::-webkit-details-marker]:hidden">
        <span>
          <span className="font-semibold text-stone-900">{title}</span>
          <span className="ml-2 hidden text-sm text-stone-600 sm:inline">{hint}</span>
        </span>
        <span aria-hidden="true" className="text-stone-500 transition group-open:rotate-45">
          <svg viewBox="0 0 20 20" className="size-5 fill-current">
            <path d="M10 4a1 1 0 0 1 1 1v4h4a1 1 0 1 1 0 2h-4v4a1 1 0 1 1-2 0v-4H5a1 1 0 1 1 0-2h4V5a1 1 0 0 1 1-1Z" />
          </svg>
        </span>
      </summary>
      <div className="border-t border-stone-200 px-4 py-4">{children}</div>
    </details>
  );
}

/** The edit form of the record named in `?edit=`, above the list, with a way back. */
export function EditPanel({ title, children }: { title: string; children: ReactNode }) {
  const cancel = useListHref((params) => params.delete("edit"));
  return (
    <section aria-labelledby="industry-edit-heading" className="rounded-lg border border-brand-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-stone-200 px-4 py-3">
        <h2 id="industry-edit-heading" className="font-semibold break-words text-stone-900">
          {title}
        </h2>
        <Link to={cancel} className="text-sm font-medium text-brand-800 hover:underline">
          Cancel
        </Link>
      </div>
      <div className="px-4 py-4">{children}</div>
    </section>
  );
}

export function EditLink({ id, name }: { id: number; name: string }) {
  const href = useListHref((params) => params.set("edit", String(id)));
  return (
    <Link to={href} className={smallButton}>
      Edit<span className="sr-only"> {name}</span>
    </Link>
  );
}

/** Deleting asks first: the button only appears once the admin opens "Delete". */
export function DeleteConfirm({ id, name, what, consequence }: { id: number; name: string; what: string; consequence: string }) {
  return (
    <details className="group text-left max-md:open:w-full">
      <summary className={`${smallButton} cursor-pointer list-none text-red-800 [&::-webkit-details-marker]:hidden`}>
        Delete<span className="sr-only"> {name}</span>
      </summary>
      <Form method="post" aria-label={`Delete ${name}`} className="mt-2 space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-left text-sm md:w-64">
        <p className="text-red-900">
          Delete the {what} “{name}”? {consequence}
        </p>
        <input type="hidden" name="id" value={id} />
        <SubmitButton name="intent" value="delete" pendingLabel="Deleting…" className={dangerButton}>
          Yes, delete {what}
        </SubmitButton>
      </Form>
    </details>
  );
}

export function ContactDetails({ email, phone, website }: { email: string; phone: string; website: string }) {
  if (!email && !phone && !website) return <span className="text-stone-400">—</span>;
  return (
    <ul className="space-y-0.5">
      {email ? (
        <li>
          <a href={`mailto:${email}`} className="break-all text-brand-800 underline-offset-2 hover:underline">
            {email}
          </a>
        </li>
      ) : null}
      {phone ? (
        <li>
          <a href={`tel:${phone.replace(/[^0-9+]/g, "")}`} className="text-brand-800 underline-offset-2 hover:underline">
            {phone}
          </a>
        </li>
      ) : null}
      {website ? (
        <li>
          <a href={website} rel="noreferrer" className="break-all text-brand-800 underline-offset-2 hover:underline">
            {website.replace(/^https?:\/\//, "").replace(/\/$/, "")}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * The page both admin directories share (managers, venues): heading, the edit panel for `?edit=<id>`,
 * the add panel, search, the table with its empty states, and pages. `renderForm` draws the add form
 * (no record) or the edit form of a record, with the server's last reply for that form.
 */
export function IndustryListPage<Row extends { id: number; name: string }>({
  title,
  intro,
  noun,
  addHint,
  search,
  query,
  list,
  editing,
  columns,
  renderForm,
}: {
  title: string;
  intro: string;
  /** Singular and plural, lower case: ["venue", "venues"]. */
  noun: [string, string];
  addHint: string;
  search: { label: string; placeholder: string };
  query: IndustryListQuery;
  list: { rows: Row[]; total: number; page: number; pageCount: number; pageSize: number };
  editing: Row | null;
  columns: Array<DataColumn<Row>>;
  renderForm: (record: Row | undefined, lastResult: SubmissionResult<string[]> | undefined) => ReactNode;
}) {
  const actionData = useActionData<IndustryActionData>();
  const resetKey = useFormResetKey();
  const listErrors = actionData?.intent === "delete" ? actionData.result.error?.[""] : undefined;
  const [singular, plural] = noun;
  const Singular = singular.charAt(0).toUpperCase() + singular.slice(1);
  const addLabel = `Add ${singular}`;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-stone-600">{intro}</p>
      </div>

      {editing ? (
        <EditPanel title={`Edit ${singular}: ${editing.name}`}>
          <Fragment key={`${editing.id}-${resetKey}`}>
            {renderForm(editing, actionData?.intent === "update" && actionData.id === editing.id ? actionData.result : undefined)}
          </Fragment>
        </EditPanel>
      ) : null}

      <AddPanel key={resetKey} title={addLabel} hint={addHint} open={actionData?.intent === "create"}>
        <Fragment key={`create-${resetKey}`}>{renderForm(undefined, actionData?.intent === "create" ? actionData.result : undefined)}</Fragment>
      </AddPanel>

      <section aria-labelledby={`${singular}-list-heading`} className="space-y-4">
        <h2 id={`${singular}-list-heading`} className="sr-only">
          {Singular} list
        </h2>
        <IndustrySearch label={search.label} filterLabel={`Filter ${plural}`} placeholder={search.placeholder} query={query} />
        <FormAlert errors={listErrors} />
        <DataTable
          caption={
            <>
              {title}
              {query.q ? " matching the search" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.rows}
          rowKey={(row) => row.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={Boolean(query.q)}
              noMatch={`No ${plural} match this search.`}
              noMatchHint="Try another word"
              clearLabel="clear the search"
              empty={`No ${plural} yet.`}
              emptyHint={`Add the first one with “${addLabel}” above.`}
            />
          }
        />
        <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun={noun} label={`${Singular} list pages`} />
      </section>
    </div>
  );
}
