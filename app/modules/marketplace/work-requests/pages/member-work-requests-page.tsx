import { Form, Link } from "react-router";
import { DataTable } from "~/components/data-table";
import { SelectField } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { linkClass, PageHeader } from "./work-request-page-parts";
import { listColumns, type ListData, statusOptions } from "./work-request-list-parts";

export function MemberWorkRequestsPage({
  data,
}: {
  data: {
    memberId: number;
    view: "sent" | "received";
    status: string;
    list: ListData;
  };
}) {
  const base = `/member/${data.memberId}`;
  const tab = (view: "sent" | "received", label: string) => (
    <Link
      to={view === "received" ? "?as=provider" : "?as=client"}
      aria-current={data.view === view ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${data.view === view ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title="Work Requests">
        Requests you sent to providers, and requests clients sent to your profiles. Find a provider in the{" "}
        <Link to={`${base}/audio-engineers`} className={linkClass}>
          directories
        </Link>{" "}
        and choose “Request work”.
      </PageHeader>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <nav aria-label="Work request lists" className="flex gap-1">
          {tab("sent", "Sent")}
          {tab("received", "Received")}
        </nav>
        <Form method="get" className="flex items-end gap-2">
          <input type="hidden" name="as" value={data.view === "received" ? "provider" : "client"} />
          <SelectField label="Status" selectProps={{ name: "status", defaultValue: data.status }} options={statusOptions} />
          <button type="submit" className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-semibold">
            Filter
          </button>
        </Form>
      </div>
      <DataTable
        caption={data.view === "sent" ? "Work requests you sent" : "Work requests you received"}
        columns={listColumns(base, data.view === "sent" ? "client" : "provider")}
        rows={data.list.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={data.list.total}
            pageCount={data.list.pageCount}
            filtered={Boolean(data.status)}
            noMatch="No work requests have this status."
            noMatchHint="Try another status"
            empty={data.view === "sent" ? "You have not asked anyone for work yet." : "No one has asked your profiles for work yet."}
          />
        }
      />
      <Pagination
        page={data.list.page}
        pageCount={data.list.pageCount}
        total={data.list.total}
        pageSize={data.list.pageSize}
        noun={["work request", "work requests"]}
      />
    </div>
  );
}
