import { Link, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { Breakable, DateTime } from "~/components/formatting";
import { inputClass } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import type { AdminSignaturesData } from "./signatures-routes.server";
import type { OutstandingRow, SignatureRow } from "./signatures.server";

/** The administrators' Signatures page: who agreed to what (with the evidence), or who still has to. */

const outstandingColumns: Array<DataColumn<OutstandingRow>> = [
  {
    key: "member",
    header: "Member",
    rowHeader: true,
    cell: (s) => (
      <>
        <Link to={`/admin/member/${s.userId}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {s.memberName}
        </Link>
        <span className="block text-xs font-normal break-words text-stone-500">
          <Breakable text={s.memberEmail} />
        </span>
      </>
    ),
  },
  {
    key: "document",
    header: "Document",
    cell: (s) => (
      <Link to={`/admin/document/edit/${s.documentId}`} className="text-brand-800 underline-offset-2 hover:underline">
        {s.documentName}
      </Link>
    ),
  },
  { key: "current", header: "Current version", cell: (s) => s.currentVersion },
  {
    key: "last",
    header: "Last agreed to",
    cell: (s) => (s.lastAgreedVersion === null ? <span className="text-stone-500">Never</span> : `Version ${s.lastAgreedVersion}`),
  },
];

/** The list's two views, keeping the filters (the version filter belongs to the signatures alone). */
function ViewTabs({ view, search }: { view: "signed" | "outstanding"; search: string }) {
  const href = (to: "signed" | "outstanding") => {
    const params = new URLSearchParams(search);
    params.delete("page");
    if (to === "outstanding") {
      params.set("view", "outstanding");
      params.delete("version");
    } else params.delete("view");
    const query = params.toString();
    return query ? `?${query}` : "?";
  };
  const tab = (to: "signed" | "outstanding", label: string) => (
    <Link
      to={href(to)}
      aria-current={view === to ? "page" : undefined}
      className={`inline-flex rounded-md px-3 py-1.5 text-sm font-medium ${view === to ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Signatures view" className="flex flex-wrap gap-1">
      {tab("signed", "Signed")}
      {tab("outstanding", "Still to agree")}
    </nav>
  );
}

const columns: Array<DataColumn<SignatureRow>> = [
  {
    key: "member",
    header: "Member",
    rowHeader: true,
    cell: (s) => (
      <>
        <Link to={`/admin/member/${s.userId}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {s.memberName}
        </Link>
        <span className="block text-xs font-normal break-words text-stone-500">
          <Breakable text={s.memberEmail} />
        </span>
      </>
    ),
  },
  {
    key: "document",
    header: "Document",
    cell: (s) => (
      <Link to={`/admin/document/edit/${s.documentId}`} className="text-brand-800 underline-offset-2 hover:underline">
        {s.documentName}
      </Link>
    ),
  },
  {
    key: "version",
    header: "Version",
    cell: (s) => (
      <>
        {s.version}
        {s.current ? null : <span className="ml-1 text-xs text-stone-500">(superseded)</span>}
      </>
    ),
  },
  { key: "signed", header: "Signed", cell: (s) => <DateTime iso={s.signedAt} withTime /> },
  { key: "ip", header: "IP address", cell: (s) => <span className="font-mono text-xs break-words">{s.ip ? <Breakable text={s.ip} /> : "–"}</span> },
  {
    key: "agent",
    header: "User agent",
    cell: (s) => (
      // Shown whole (it is the evidence of what signed), broken anywhere so a long agent never widens a phone's card.
      <span className="block max-w-xs text-xs wrap-anywhere text-stone-600">{s.userAgent || "–"}</span>
    ),
  },
];

export function AdminSignaturesPage({ loaderData }: { loaderData: AdminSignaturesData }) {
  const { query } = loaderData;
  const { search } = useLocation();
  const outstanding = loaderData.view === "outstanding";
  const filtered = Boolean(query.document !== null || (!outstanding && query.version !== null) || query.member);
  const exportParams = new URLSearchParams(search);
  exportParams.delete("page");
  const exportQuery = exportParams.toString();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Signatures</h1>
          <p className="mt-1 text-sm text-stone-600">
            {outstanding
              ? "Who still has to agree to the version in force of each required document: the login asks them to before anything else."
              : "Who agreed to which version of each legal document, when, and from which address and browser."}
          </p>
        </div>
        <a
          href={`/admin/signatures/export.csv${exportQuery ? `?${exportQuery}` : ""}`}
          download
          className="inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50"
        >
          Export CSV
          <span className="sr-only">
            {" "}
            of {outstanding ? "who still has to agree" : "the signatures"}
            {filtered ? " matching these filters" : ""}
          </span>
        </a>
      </div>
      <ViewTabs view={loaderData.view} search={search} />
      <FilterForm label="Filter signatures" clear={filtered}>
        {outstanding ? <input type="hidden" name="view" value="outstanding" /> : null}
        <div className="min-w-56 flex-1">
          <label htmlFor="signatures-member" className="block text-sm font-medium text-stone-800">
            Member name or email
          </label>
          <input id="signatures-member" type="search" name="member" defaultValue={query.member} maxLength={100} className={inputClass} />
        </div>
        <div className="min-w-44">
          <label htmlFor="signatures-document" className="block text-sm font-medium text-stone-800">
            Document
          </label>
          <select id="signatures-document" name="document" defaultValue={query.document ?? ""} className={inputClass}>
            <option value="">All documents</option>
            {loaderData.documents.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </div>
        {outstanding ? null : (
          <div className="w-28">
            <label htmlFor="signatures-version" className="block text-sm font-medium text-stone-800">
              Version
            </label>
            <input
              id="signatures-version"
              type="number"
              name="version"
              min={1}
              step={1}
              inputMode="numeric"
              defaultValue={query.version ?? ""}
              className={inputClass}
            />
          </div>
        )}
      </FilterForm>
      {loaderData.view === "outstanding" ? (
        <>
          <DataTable
            caption="Accounts still to agree to the current versions"
            columns={outstandingColumns}
            rows={loaderData.outstanding}
            rowKey={(s) => `${s.documentId}-${s.userId}`}
            empty={
              <ListEmptyState
                total={loaderData.total}
                pageCount={loaderData.pageCount}
                filtered={filtered}
                noMatch="Nobody matching these filters has anything left to agree to."
                noMatchHint="Try another member or document"
                empty="Everyone has agreed to the current version of every required document."
                emptyHint="When a document's new version is published, who has not agreed to it yet shows here."
              />
            }
          />
          <Pagination
            page={loaderData.page}
            pageCount={loaderData.pageCount}
            total={loaderData.total}
            pageSize={loaderData.pageSize}
            noun={["agreement due", "agreements due"]}
            label="Still to agree pages"
          />
        </>
      ) : (
        <>
          <DataTable
            caption="Signatures, newest first"
            columns={columns}
            rows={loaderData.signatures}
            rowKey={(s) => s.id}
            empty={
              <ListEmptyState
                total={loaderData.total}
                pageCount={loaderData.pageCount}
                filtered={filtered}
                noMatch="No signatures match these filters."
                noMatchHint="Try another member, document or version"
                empty="Nobody has agreed to a document yet."
                emptyHint="Signatures appear here as users agree to the published documents."
              />
            }
          />
          <Pagination
            page={loaderData.page}
            pageCount={loaderData.pageCount}
            total={loaderData.total}
            pageSize={loaderData.pageSize}
            noun={["signature", "signatures"]}
            label="Signature list pages"
          />
        </>
      )}
    </div>
  );
}
