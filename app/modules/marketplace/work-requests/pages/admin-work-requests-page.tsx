import { DataTable } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { Field, SelectField } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { SERVICE_OPTIONS } from "../work-request-forms";
import { PageHeader } from "./work-request-page-parts";
import { listColumns, type ListData, statusOptions } from "./work-request-list-parts";

export function AdminWorkRequestsPage({
  data,
}: {
  data: {
    filters: { status: string; service: string; q: string };
    list: ListData;
  };
}) {
  const { filters } = data;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title="Work Requests">Every work request between members. Administrators act on projects; requests are read-only here.</PageHeader>
      <FilterForm label="Filter work requests" clear={Boolean(filters.status || filters.service || filters.q)}>
        <div className="min-w-56 flex-[2]">
          <Field
            label="Search"
            inputProps={{
              name: "q",
              type: "search",
              defaultValue: filters.q,
              placeholder: "Client, provider, description or #id",
            }}
          />
        </div>
        <SelectField label="Status" selectProps={{ name: "status", defaultValue: filters.status }} options={statusOptions} />
        <SelectField
          label="Service"
          selectProps={{ name: "service", defaultValue: filters.service }}
          options={[{ value: "", label: "Any service" }, ...SERVICE_OPTIONS]}
        />
      </FilterForm>
      <DataTable
        caption="Work requests"
        columns={listColumns("/admin", "both")}
        rows={data.list.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={data.list.total}
            pageCount={data.list.pageCount}
            filtered={Boolean(filters.status || filters.service || filters.q)}
            noMatch="No work requests match."
            noMatchHint="Try another search"
            empty="No work requests yet."
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
