import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData, useLoaderData } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count } from "~/components/formatting";
import { Field, FormAlert, SubmitButton, useFormResetKey } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import type { IndustryActionData, VenuesPageData } from "./industry-route.server";
import { VenueCreateSchema, VenueUpdateSchema } from "./industry-schemas";
import { AddPanel, ContactDetails, DeleteConfirm, EditLink, EditPanel, IndustrySearch, primaryButton } from "./industry-ui";
import type { VenueRow } from "./venues.server";

/** /admin/venues: the venues directory, its search, add and edit forms, and deleting with a confirmation. */

const dash = <span className="text-stone-400">—</span>;

const columns: Array<DataColumn<VenueRow>> = [
  { key: "name", header: "Name", rowHeader: true, cell: (v) => <span className="break-words">{v.name}</span> },
  { key: "location", header: "Location", cell: (v) => [v.city, v.country].filter(Boolean).join(", ") || dash },
  {
    key: "capacity",
    header: "Capacity",
    align: "right",
    cell: (v) => (v.capacity === null ? dash : <Count value={v.capacity} />),
  },
  { key: "contact", header: "Contact", cell: (v) => <ContactDetails email={v.email} phone={v.phone} website={v.website} /> },
  {
    key: "actions",
    header: "Actions",
    headerHidden: true,
    cell: (v) => (
      <div className="flex flex-wrap items-start gap-2 md:justify-end">
        <EditLink id={v.id} name={v.name} />
        <DeleteConfirm id={v.id} name={v.name} what="venue" consequence="This cannot be undone." />
      </div>
    ),
  },
];

export function VenuesPage() {
  const { query, list, editing } = useLoaderData<VenuesPageData>();
  const actionData = useActionData<IndustryActionData>();
  const resetKey = useFormResetKey();
  const listErrors = actionData?.intent === "delete" ? actionData.result.error?.[""] : undefined;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Venues</h1>
        <p className="mt-1 text-sm text-stone-600">Places to play: where they are, how many they hold and how to reach them.</p>
      </div>

      {editing ? (
        <EditPanel title={`Edit venue: ${editing.name}`}>
          <VenueForm
            key={`${editing.id}-${resetKey}`}
            venue={editing}
            lastResult={actionData?.intent === "update" && actionData.id === editing.id ? actionData.result : undefined}
          />
        </EditPanel>
      ) : null}

      <AddPanel key={resetKey} title="Add venue" hint="Name, city, country, capacity and contact." open={actionData?.intent === "create"}>
        <VenueForm key={`create-${resetKey}`} lastResult={actionData?.intent === "create" ? actionData.result : undefined} />
      </AddPanel>

      <section aria-labelledby="venue-list-heading" className="space-y-4">
        <h2 id="venue-list-heading" className="sr-only">
          Venue list
        </h2>
        <IndustrySearch label="Search by name, city or country" filterLabel="Filter venues" placeholder="e.g. Ryman or Nashville" query={query} />
        <FormAlert errors={listErrors} />
        <DataTable
          caption={
            <>
              Venues{query.q ? " matching the search" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.rows}
          rowKey={(v) => v.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={Boolean(query.q)}
              noMatch="No venues match this search."
              noMatchHint="Try another word"
              clearLabel="clear the search"
              empty="No venues yet."
              emptyHint="Add the first one with “Add venue” above."
            />
          }
        />
        <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun={["venue", "venues"]} label="Venue list pages" />
      </section>
    </div>
  );
}

/** What the form's inputs hold (the server's schema turns `capacity` into a number). */
interface VenueFormShape {
  name: string;
  city?: string;
  country?: string;
  capacity?: string;
  email?: string;
  phone?: string;
  website?: string;
}

/** The add form, or with `venue` the edit form of that venue. */
function VenueForm({ venue, lastResult }: { venue?: VenueRow; lastResult: SubmissionResult<string[]> | undefined }) {
  const schema = venue ? VenueUpdateSchema : VenueCreateSchema;
  const [form, fields] = useForm<VenueFormShape, unknown>({
    id: venue ? `venue-edit-${venue.id}` : "venue-create",
    lastResult,
    defaultValue: venue
      ? {
          name: venue.name,
          city: venue.city,
          country: venue.country,
          capacity: venue.capacity === null ? "" : String(venue.capacity),
          email: venue.email,
          phone: venue.phone,
          website: venue.website,
        }
      : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const text = (name: Exclude<keyof VenueFormShape, "capacity">, label: string, type: "text" | "email" | "tel" | "url" = "text") => (
    <Field
      label={label}
      inputProps={{ ...getInputProps(fields[name], { type }), autoComplete: "off", ...(type === "url" ? { placeholder: "https://" } : {}) }}
      errors={fields[name].errors}
      errorId={fields[name].errorId}
    />
  );
  return (
    <Form method="post" aria-label={venue ? `Edit ${venue.name}` : "Add venue"} className="space-y-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={venue ? "update" : "create"} />
      {venue ? <input type="hidden" name="id" value={venue.id} /> : null}
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name")}
        <Field
          label="Capacity (optional)"
          // Text, not number: the browser would otherwise refuse some input before the server can explain.
          inputProps={{ ...getInputProps(fields.capacity, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.capacity.errors}
          errorId={fields.capacity.errorId}
          help="How many people it holds."
        />
        {text("city", "City (optional)")}
        {text("country", "Country (optional)")}
        {text("email", "Email (optional)", "email")}
        {text("phone", "Phone (optional)", "tel")}
        <div className="sm:col-span-2">{text("website", "Website (optional)", "url")}</div>
      </div>
      <div className="flex justify-end">
        <SubmitButton pendingLabel={venue ? "Saving…" : "Adding…"} className={primaryButton}>
          {venue ? "Save changes" : "Add venue"}
        </SubmitButton>
      </div>
    </Form>
  );
}
