import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form, Link, useActionData, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count } from "~/components/formatting";
import { Field, FormAlert, inputClass, SubmitButton, useFormResetKey } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import type { ReferenceKind } from "~/db/schema";
import type { ReferenceActionData, ReferencePageData } from "./reference-route.server";
import type { ReferenceRow } from "./reference.server";
import {
  protectedSkillList,
  NAME_MAX,
  REFERENCE_PAGES,
  REFERENCE_STATUS_LABELS,
  REFERENCE_STATUSES,
  REFERENCE_TABS,
  referenceCreateSchema,
  referenceUpdateSchema,
  type ReferenceListQuery,
} from "./reference-schemas";

/**
 * The one page behind /admin/genres, skills, instruments, pros and languages: tabs between the lists,
 * an add form, search and status filter (a GET form), and the table with each value's usage, status,
 * inline edit (a <details> kept open on error) and Retire/Restore. Every form works without JavaScript.
 */

const DESCRIPTIONS: Record<ReferenceKind, string> = {
  genre: "Genres members choose for their artist pages and provider profiles.",
  skill: "Skills providers list on their profiles. Holders of the DJ and Songwriter skills make up the admin DJs and Songwriters lists.",
  instrument: "Instruments musicians, music producers and studios list on their profiles.",
  language: "Languages musicians list on their profiles.",
  pro: "Performing rights organisations members can belong to: name, country, website and code.",
};

const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto";
const smallButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 disabled:opacity-60";

export function ReferencePage({ loaderData }: { loaderData: ReferencePageData }) {
  const { kind, query, list } = loaderData;
  const actionData = useActionData<ReferenceActionData>();
  const info = REFERENCE_PAGES[kind];
  const resetKey = useFormResetKey();
  const filtered = Boolean(query.q || query.status !== "all");
  // Retire/Restore (and unknown intents) have no fields: their errors show above the list.
  const listErrors = actionData && actionData.intent !== "create" && actionData.intent !== "update" ? actionData.result.error?.[""] : undefined;

  const columns: Array<DataColumn<ReferenceRow>> = [
    {
      key: "name",
      header: "Name",
      rowHeader: true,
      cell: (row) => <span className="break-words">{row.name}</span>,
    },
    ...(kind === "pro" ? proColumns : []),
    { key: "usage", header: "Used by", cell: (row) => <UsageCount count={row.profileCount} /> },
    {
      key: "status",
      header: "Status",
      cell: (row) => (row.retiredAt ? <StatusTag status="inactive" label="Retired" /> : <StatusTag status="active" label="Active" />),
    },
    {
      key: "actions",
      header: "Actions",
      headerHidden: true,
      cell: (row) => (
        <RowActions
          // Re-mounted after every successful change, so an edit form that was open closes again.
          key={`${row.id}-${resetKey}`}
          kind={kind}
          row={row}
          lastResult={actionData?.intent === "update" && actionData.id === row.id ? actionData.result : undefined}
        />
      ),
    },
  ];

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{info.plural}</h1>
        <p className="mt-1 text-sm text-stone-600">{DESCRIPTIONS[kind]}</p>
      </div>

      <ReferenceTabs current={kind} />

      <CreateValue key={`${kind}-${resetKey}`} kind={kind} lastResult={actionData?.intent === "create" ? actionData.result : undefined} />

      <section aria-labelledby="reference-list-heading" className="space-y-4">
        <h2 id="reference-list-heading" className="sr-only">
          {info.plural} list
        </h2>
        <SearchForm kind={kind} query={query} />
        <FormAlert errors={listErrors} />
        <DataTable
          caption={
            <>
              {info.plural}
              {filtered ? " matching the search" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.values}
          rowKey={(row) => row.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={filtered}
              noMatch={`No ${REFERENCE_PAGES[kind].nounPlural} match this search.`}
              noMatchHint="Try another word or status"
              empty={`No ${REFERENCE_PAGES[kind].nounPlural} yet.`}
              emptyHint="Add the first one with the form above."
            />
          }
        />
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          total={list.total}
          pageSize={list.pageSize}
          noun={[info.noun, info.nounPlural]}
          label={`${info.plural} pages`}
        />
      </section>
    </div>
  );
}

const proColumns: Array<DataColumn<ReferenceRow>> = [
  { key: "code", header: "Code", cell: (row) => row.code ?? <span className="text-stone-400">—</span> },
  { key: "country", header: "Country", cell: (row) => row.country ?? <span className="text-stone-400">—</span> },
  {
    key: "website",
    header: "Website",
    cell: (row) =>
      row.website ? (
        <a href={row.website} rel="noreferrer" className="break-all text-brand-800 underline-offset-2 hover:underline">
          {row.website.replace(/^https:\/\//, "").replace(/\/$/, "")}
        </a>
      ) : (
        <span className="text-stone-400">—</span>
      ),
  },
];

function UsageCount({ count }: { count: number }) {
  return (
    <span className={count === 0 ? "text-stone-500" : undefined}>
      <Count value={count} /> {count === 1 ? "profile" : "profiles"}
    </span>
  );
}

/** Links between the five lists; the current one is marked for screen readers and by its look. */
export function ReferenceTabs({ current }: { current: ReferenceKind }) {
  return (
    <nav aria-label="Reference data" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 border-b border-stone-200">
        {REFERENCE_TABS.map((kind) => {
          const tab = REFERENCE_PAGES[kind];
          const active = kind === current;
          return (
            <li key={kind}>
              <Link
                to={tab.path}
                aria-current={active ? "page" : undefined}
                className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium ${
                  active ? "border-brand-800 text-brand-900" : "border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900"
                }`}
              >
                {tab.plural}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function SearchForm({ kind, query }: { kind: ReferenceKind; query: ReferenceListQuery }) {
  const location = useLocation();
  const info = REFERENCE_PAGES[kind];
  const searchId = `${kind}-search`;
  const statusId = `${kind}-status`;
  return (
    <Form
      method="get"
      role="search"
      aria-label={`Filter ${info.nounPlural}`}
      // Re-mounted on each search so the fields show what the URL says (after "Clear", for example).
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
    >
      <div>
        <label htmlFor={searchId} className="block text-sm font-medium text-stone-800">
          {kind === "pro" ? "Search by name, code or country" : "Search by name"}
        </label>
        <input id={searchId} type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
      </div>
      <div>
        <label htmlFor={statusId} className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id={statusId} name="status" defaultValue={query.status} className={inputClass}>
          {REFERENCE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {REFERENCE_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 sm:flex-none"
        >
          Search
        </button>
        {query.q || query.status !== "all" ? (
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

/** The inputs of both forms (PRO fields stay empty for the other kinds). */
interface ValueShape {
  name: string;
  country?: string;
  website?: string;
  code?: string;
}
type Fields = ReturnType<typeof useForm<ValueShape>>[1];

/** The name, and for PROs the country, website and code: the same inputs in the add and edit forms. */
function ValueFields({ kind, fields }: { kind: ReferenceKind; fields: Fields }) {
  const field = (name: keyof ValueShape) => fields[name];
  return (
    <>
      <Field
        label="Name"
        inputProps={{ ...getInputProps(field("name"), { type: "text" }), maxLength: NAME_MAX, autoComplete: "off" }}
        errors={field("name").errors}
        errorId={field("name").errorId}
      />
      {kind === "pro" ? (
        <>
          <Field
            label="Country"
            inputProps={{ ...getInputProps(field("country"), { type: "text" }), autoComplete: "off" }}
            errors={field("country").errors}
            errorId={field("country").errorId}
          />
          <Field
            label="Website (optional)"
            inputProps={{ ...getInputProps(field("website"), { type: "url" }), placeholder: "https://", autoComplete: "off" }}
            errors={field("website").errors}
            errorId={field("website").errorId}
          />
          <Field
            label="Code (optional)"
            inputProps={{ ...getInputProps(field("code"), { type: "text" }), maxLength: 12, autoComplete: "off" }}
            errors={field("code").errors}
            errorId={field("code").errorId}
            help="A short code, like ASCAP; stored in capitals."
          />
        </>
      ) : null}
    </>
  );
}

function CreateValue({ kind, lastResult }: { kind: ReferenceKind; lastResult: SubmissionResult<string[]> | undefined }) {
  const info = REFERENCE_PAGES[kind];
  const schema = referenceCreateSchema(kind);
  const [form, fields] = useForm<ValueShape>({
    id: `reference-create-${kind}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const headingId = `reference-create-${kind}-heading`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="font-semibold text-stone-900">
        Add {kind === "pro" ? "a PRO" : `${/^[aeiou]/i.test(info.noun) ? "an" : "a"} ${info.noun}`}
      </h2>
      <Form method="post" aria-label={`Add ${info.noun}`} className="mt-3 space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create" />
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className={`grid gap-4 ${kind === "pro" ? "sm:grid-cols-2 lg:grid-cols-4" : "sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"}`}>
          <ValueFields kind={kind} fields={fields} />
          {kind === "pro" ? null : (
            <div className="sm:pt-6">
              <SubmitButton pendingLabel="Adding…" className={primaryButton}>
                Add {info.noun}
              </SubmitButton>
            </div>
          )}
        </div>
        {kind === "pro" ? (
          <div className="flex justify-end">
            <SubmitButton pendingLabel="Adding…" className={primaryButton}>
              Add PRO
            </SubmitButton>
          </div>
        ) : null}
      </Form>
    </section>
  );
}

function RowActions({ kind, row, lastResult }: { kind: ReferenceKind; row: ReferenceRow; lastResult: SubmissionResult<string[]> | undefined }) {
  return (
    <div className="flex flex-wrap items-start gap-2 md:justify-end">
      <EditValue kind={kind} row={row} lastResult={lastResult} />
      <Form method="post">
        <input type="hidden" name="id" value={row.id} />
        {row.retiredAt ? (
          <SubmitButton name="intent" value="restore" pendingLabel="Restoring…" className={smallButton}>
            Restore<span className="sr-only"> {row.name}</span>
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="retire" pendingLabel="Retiring…" className={smallButton}>
            Retire<span className="sr-only"> {row.name}</span>
          </SubmitButton>
        )}
      </Form>
    </div>
  );
}

function EditValue({ kind, row, lastResult }: { kind: ReferenceKind; row: ReferenceRow; lastResult: SubmissionResult<string[]> | undefined }) {
  const schema = referenceUpdateSchema(kind);
  const [form, fields] = useForm<ValueShape>({
    id: `reference-edit-${row.id}`,
    lastResult,
    defaultValue: { name: row.name, country: row.country ?? "", website: row.website ?? "", code: row.code ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const protectedList = protectedSkillList(kind, row.name);
  const note: ReactNode = protectedList ? (
    <p className="rounded-md bg-white px-3 py-2 text-xs text-stone-600">
      The admin {protectedList} list finds its profiles by this name, so it cannot be renamed.
    </p>
  ) : null;
  return (
    <details
      // Stays open when the server sent the form back with errors (without JavaScript too).
      open={lastResult ? true : undefined}
      className="group max-md:open:w-full"
    >
      <summary className={`${smallButton} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        Edit<span className="sr-only"> {row.name}</span>
      </summary>
      <Form
        method="post"
        aria-label={`Edit ${row.name}`}
        className="mt-2 w-full space-y-3 rounded-md border border-stone-200 bg-stone-50 p-3 text-left md:w-80"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="id" value={row.id} />
        <FormAlert id={form.errorId} errors={form.errors} />
        {note}
        <ValueFields kind={kind} fields={fields} />
        <SubmitButton pendingLabel="Saving…" className={primaryButton}>
          Save changes
        </SubmitButton>
      </Form>
    </details>
  );
}
