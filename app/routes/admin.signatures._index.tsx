import { Link, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { DateTime } from "~/components/formatting";
import { ListEmptyState } from "~/components/list-empty-state";
import { pageTitle } from "~/components/page-title";
import { Pagination } from "~/components/pagination";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { documentOptions } from "~/modules/legal/documents/documents.server";
import { listSignatures, parseSignatureFilters, type SignatureRow } from "~/modules/legal/signatures/signatures.server";
import type { Route } from "./+types/admin.signatures._index";
import { inputClass } from "~/components/forms";

export const handle = { routeName: "admin-signatures" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Signatures");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminUser(request, context);
  const query = parseSignatureFilters(new URL(request.url).searchParams);
  const [list, documents] = await Promise.all([listSignatures(query), documentOptions()]);
  return { query, documents, ...list };
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
        <span className="block text-xs font-normal break-all text-stone-500">{s.memberEmail}</span>
      </>
    ),
  },
  { key: "document", header: "Document", cell: (s) => <Link to={`/admin/document/edit/${s.documentId}`} className="text-brand-800 underline-offset-2 hover:underline">{s.documentName}</Link> },
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
  { key: "ip", header: "IP address", cell: (s) => <span className="font-mono text-xs break-all">{s.ip ?? "–"}</span> },
  {
    key: "agent",
    header: "User agent",
    cell: (s) => (
      <span className="line-clamp-2 max-w-xs text-xs break-all text-stone-600" title={s.userAgent ?? undefined}>
        {s.userAgent || "–"}
      </span>
    ),
  },
];

export default function AdminSignaturesRoute({ loaderData }: Route.ComponentProps) {
  const { query } = loaderData;
  const { search } = useLocation();
  const filtered = Boolean(query.document !== null || query.version !== null || query.member);
  const exportParams = new URLSearchParams(search);
  exportParams.delete("page");
  const exportQuery = exportParams.toString();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Signatures</h1>
          <p className="mt-1 text-sm text-stone-600">Who agreed to which version of each legal document, when, and from which address and browser.</p>
        </div>
        <a
          href={`/admin/signatures/export.csv${exportQuery ? `?${exportQuery}` : ""}`}
          download
          className="inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50"
        >
          Export CSV<span className="sr-only"> of the signatures{filtered ? " matching these filters" : ""}</span>
        </a>
      </div>
      <FilterForm label="Filter signatures" clear={filtered}>
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
        <div className="w-28">
          <label htmlFor="signatures-version" className="block text-sm font-medium text-stone-800">
            Version
          </label>
          <input id="signatures-version" type="number" name="version" min={1} step={1} inputMode="numeric" defaultValue={query.version ?? ""} className={inputClass} />
        </div>
      </FilterForm>
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
      <Pagination page={loaderData.page} pageCount={loaderData.pageCount} total={loaderData.total} pageSize={loaderData.pageSize} noun={["signature", "signatures"]} label="Signature list pages" />
    </div>
  );
}
