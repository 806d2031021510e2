import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import type { DataColumn } from "~/components/data-table";
import { Field, FormAlert, SubmitButton, TextareaField } from "~/components/forms";
import { profilePaths } from "~/modules/profiles/profile-types";
import type { ManagersPageData } from "./industry-route.server";
import { ManagerCreateSchema, ManagerUpdateSchema } from "./industry-schemas";
import { ContactDetails, DeleteConfirm, EditLink, IndustryListPage, primaryButton } from "./industry-ui";
import type { ManagerRow } from "./managers.server";

/** /admin/managers: the managers directory, its search, add and edit forms, and deleting with a confirmation. */

const artistPages = profilePaths("artist", "admin");

const columns: Array<DataColumn<ManagerRow>> = [
  { key: "name", header: "Name", rowHeader: true, cell: (m) => <span className="break-words">{m.name}</span> },
  { key: "company", header: "Company", cell: (m) => m.company || <span className="text-stone-400">—</span> },
  { key: "contact", header: "Contact", cell: (m) => <ContactDetails email={m.email} phone={m.phone} website={m.website} /> },
  {
    key: "artists",
    header: "Artists",
    cell: (m) =>
      m.artists.length ? (
        <ul className="space-y-0.5">
          {m.artists.map((artist) => (
            <li key={artist.id}>
              <Link to={artistPages.publicPage(artist.username)} className="font-medium text-brand-900 underline-offset-2 hover:underline">
                {artist.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <span className="text-stone-500">None</span>
      ),
  },
  {
    key: "actions",
    header: "Actions",
    headerHidden: true,
    cell: (m) => (
      <div className="flex flex-wrap items-start gap-2 md:justify-end">
        <EditLink id={m.id} name={m.name} />
        <DeleteConfirm id={m.id} name={m.name} what="manager" consequence="Their artist pages stay; only the links to them go." />
      </div>
    ),
  },
];

export function ManagersPage({ loaderData }: { loaderData: ManagersPageData }) {
  const { query, list, editing } = loaderData;
  return (
    <IndustryListPage
      title="Managers"
      intro="Artist managers: who they are, how to reach them and which artist pages they represent."
      noun={["manager", "managers"]}
      addHint="Name, company, contact and the artists they manage."
      search={{ label: "Search by name or company", placeholder: "e.g. Ada or Northern Lights Mgmt" }}
      query={query}
      list={list}
      editing={editing}
      columns={columns}
      renderForm={(manager, lastResult) => <ManagerForm manager={manager} lastResult={lastResult} />}
    />
  );
}

/** What the form's inputs hold (the server's schema turns `artists` into a list of usernames). */
interface ManagerFormShape {
  name: string;
  company?: string;
  email?: string;
  phone?: string;
  website?: string;
  artists?: string;
}

/** The add form, or with `manager` the edit form of that manager. */
function ManagerForm({ manager, lastResult }: { manager?: ManagerRow; lastResult: SubmissionResult<string[]> | undefined }) {
  const schema = manager ? ManagerUpdateSchema : ManagerCreateSchema;
  const [form, fields] = useForm<ManagerFormShape, unknown>({
    id: manager ? `manager-edit-${manager.id}` : "manager-create",
    lastResult,
    defaultValue: manager
      ? {
          name: manager.name,
          company: manager.company,
          email: manager.email,
          phone: manager.phone,
          website: manager.website,
          artists: manager.artists.map((a) => a.username).join("\n"),
        }
      : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" aria-label={manager ? `Edit ${manager.name}` : "Add manager"} className="space-y-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={manager ? "update" : "create"} />
      {manager ? <input type="hidden" name="id" value={manager.id} /> : null}
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
        />
        <Field
          label="Company (optional)"
          inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "off" }}
          errors={fields.company.errors}
          errorId={fields.company.errorId}
        />
        <Field
          label="Email (optional)"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <Field
          label="Phone (optional)"
          inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "off" }}
          errors={fields.phone.errors}
          errorId={fields.phone.errorId}
        />
        <div className="sm:col-span-2">
          <Field
            label="Website (optional)"
            inputProps={{ ...getInputProps(fields.website, { type: "url" }), placeholder: "https://", autoComplete: "off" }}
            errors={fields.website.errors}
            errorId={fields.website.errorId}
          />
        </div>
      </div>
      <TextareaField
        label="Managed artists (optional)"
        help="Usernames of artist pages, separated by commas or one per line, like midnight-owls."
        textareaProps={getTextareaProps(fields.artists)}
        errors={fields.artists.errors}
        errorId={fields.artists.errorId}
      />
      <div className="flex justify-end">
        <SubmitButton pendingLabel={manager ? "Saving…" : "Adding…"} className={primaryButton}>
          {manager ? "Save changes" : "Add manager"}
        </SubmitButton>
      </div>
    </Form>
  );
}
