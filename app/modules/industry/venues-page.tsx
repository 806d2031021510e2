import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { DataColumn } from "~/components/data-table";
import { Count } from "~/components/formatting";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import type { VenuesPageData } from "./industry-route.server";
import { VenueCreateSchema, VenueUpdateSchema } from "./industry-schemas";
import { ContactDetails, DeleteConfirm, EditLink, IndustryListPage, primaryButton } from "./industry-ui";
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

export function VenuesPage({ loaderData }: { loaderData: VenuesPageData }) {
  const { query, list, editing } = loaderData;
  return (
    <IndustryListPage
      title="Venues"
      intro="Places to play: where they are, how many they hold and how to reach them."
      noun={["venue", "venues"]}
      addHint="Name, city, country, capacity and contact."
      search={{ label: "Search by name, city or country", placeholder: "e.g. Ryman or Nashville" }}
      query={query}
      list={list}
      editing={editing}
      columns={columns}
      renderForm={(venue, lastResult) => <VenueForm venue={venue} lastResult={lastResult} />}
    />
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
