import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Field, FormAlert, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { profilePaths } from "~/modules/profiles/profile-types";
import type { IndustryActionData, ManagersPageData } from "./industry-route.server";
import { ManagerCreateSchema, ManagerUpdateSchema } from "./industry-schemas";
import { AddPanel, ContactDetails, DeleteConfirm, EditLink, EditPanel, IndustrySearch, primaryButton } from "./industry-ui";
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

export function ManagersPage() {
  const { query, list, editing } = useLoaderData<ManagersPageData>();
  const actionData = useActionData<IndustryActionData>();
  const resetKey = useFormResetKey();
  const listErrors = actionData?.intent === "delete" ? actionData.result.error?.[""] : undefined;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Managers</h1>
        <p className="mt-1 text-sm text-stone-600">Artist managers: who they are, how to reach them and which artist pages they represent.</p>
      </div>

      {editing ? (
        <EditPanel title={`Edit manager: ${editing.name}`}>
          <ManagerForm
            key={`${editing.id}-${resetKey}`}
            manager={editing}
            lastResult={actionData?.intent === "update" && actionData.id === editing.id ? actionData.result : undefined}
          />
        </EditPanel>
      ) : null}

      <AddPanel key={resetKey} title="Add manager" hint="Name, company, contact and the artists they manage." open={actionData?.intent === "create"}>
        <ManagerForm key={`create-${resetKey}`} lastResult={actionData?.intent === "create" ? actionData.result : undefined} />
      </AddPanel>

      <section aria-labelledby="manager-list-heading" className="space-y-4">
        <h2 id="manager-list-heading" className="sr-only">
          Manager list
        </h2>
        <IndustrySearch label="Search by name or company" filterLabel="Filter managers" placeholder="e.g. Ada or Northern Lights Mgmt" query={query} />
        <FormAlert errors={listErrors} />
        <DataTable
          caption={
            <>
              Managers{query.q ? " matching the search" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.rows}
          rowKey={(m) => m.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={Boolean(query.q)}
              noMatch="No managers match this search."
              noMatchHint="Try another word"
              clearLabel="clear the search"
              empty="No managers yet."
              emptyHint="Add the first one with “Add manager” above."
            />
          }
        />
        <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun={["manager", "managers"]} label="Manager list pages" />
      </section>
    </div>
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
        <Field label="Name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }} errors={fields.name.errors} errorId={fields.name.errorId} />
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
