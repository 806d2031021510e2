import { Link } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count, DateTime } from "~/components/formatting";
import { ListEmptyState } from "~/components/list-empty-state";
import { pageTitle } from "~/components/page-title";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { adminDocumentsLoader } from "~/modules/legal/documents/document-routes.server";
import type { DocumentListRow } from "~/modules/legal/documents/documents.server";
import type { Route } from "./+types/admin.documents";

export const handle = { routeName: "admin-documents" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Documents");

export const loader = (args: Route.LoaderArgs) => adminDocumentsLoader(args);

const columns: Array<DataColumn<DocumentListRow>> = [
  {
    key: "name",
    header: "Document",
    rowHeader: true,
    cell: (d) => (
      <>
        <Link to={`/admin/document/edit/${d.id}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {d.name}
        </Link>
        <span className="block text-xs font-normal break-all text-stone-500">/legal-terms/{d.slug}</span>
      </>
    ),
  },
  {
    key: "status",
    header: "Status",
    cell: (d) => (
      <span className="flex flex-wrap gap-1">
        <StatusTag status={d.status} label={d.status === "draft" ? "Draft (never published)" : undefined} />
        {d.required ? <StatusTag status="required" /> : null}
        {d.hasDraft && d.status === "published" ? <StatusTag status="draft" label="Unpublished changes" /> : null}
      </span>
    ),
  },
  { key: "version", header: "Version", align: "right", cell: (d) => (d.version === null ? <span className="text-stone-500">None yet</span> : d.version) },
  {
    key: "signed",
    header: "Agreed to this version",
    align: "right",
    cell: (d) => (d.status === "published" ? <Count value={d.signedCurrent} /> : <span className="text-stone-500">–</span>),
  },
  { key: "updated", header: "Updated", cell: (d) => <DateTime iso={d.updatedAt} withTime /> },
];

export default function AdminDocumentsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Documents</h1>
          <p className="mt-1 text-sm text-stone-600">
            The legal documents on Legal Terms. Edit a draft, preview it, then publish it as a new version; users agree to each version of a required document.
          </p>
        </div>
        <Link
          to="/admin/document/create"
          className="inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
        >
          New document
        </Link>
      </div>
      <DataTable
        caption="Legal documents"
        columns={columns}
        rows={loaderData.documents}
        rowKey={(d) => d.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={false}
            noMatch=""
            noMatchHint=""
            empty="No documents yet."
            emptyHint="Create the first one with New document."
          />
        }
      />
      <Pagination
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        total={loaderData.total}
        pageSize={loaderData.pageSize}
        noun={["document", "documents"]}
        label="Document list pages"
      />
    </div>
  );
}
