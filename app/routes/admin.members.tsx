import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useActionData, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { DateTime } from "~/components/formatting";
import { Field, FormAlert, inputClass, SelectField, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { EmailTakenError } from "~/modules/accounts/accounts.server";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ACCT_TYPE, hasAdminAccess, roleName, ROLES } from "~/modules/accounts/roles";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import {
  acctTypeLabel,
  CreateMemberSchema,
  creationRefusal,
  MEMBER_STATUS_LABELS,
  MEMBER_STATUSES,
  parseMemberListQuery,
} from "~/modules/members/admin-members";
import { createMember, listMembers, MemberActionError, type MemberListRow } from "~/modules/members/admin-members.server";
import type { Route } from "./+types/admin.members";
import { parseForm, readForm } from "~/modules/security/form-body.server";

export const handle = { routeName: "admin-members" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Members");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireAdminUser(request, context);
  const query = parseMemberListQuery(new URL(request.url).searchParams);
  const list = await listMembers(query);
  return {
    query,
    list,
    actor: { id: user.id, acctType: user.acctType, roleId: user.roleId },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdminUser(request, context);
  const submission = parseForm(await readForm(request), { schema: CreateMemberSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const member = await createMember(user, submission.value);
    return redirectWithFlash(`/admin/member/${member.id}`, {
      kind: "success",
      message: `${member.name} ${member.lastName} was created. We emailed an activation link to ${member.email}.`,
    });
  } catch (error) {
    if (error instanceof EmailTakenError) {
      return data(submission.reply({ fieldErrors: { email: [error.message] } }), { status: 400 });
    }
    if (error instanceof MemberActionError) {
      return data(submission.reply({ formErrors: [error.message] }), { status: error.status });
    }
    throw error;
  }
}

const columns: Array<DataColumn<MemberListRow>> = [
  {
    key: "name",
    header: "Name",
    rowHeader: true,
    cell: (m) => (
      <Link to={`/admin/member/${m.id}`} className="font-medium text-brand-900 underline-offset-2 hover:underline">
        {m.fullName}
      </Link>
    ),
  },
  { key: "email", header: "Email", cell: (m) => <span className="break-all">{m.email}</span> },
  { key: "type", header: "Account type", cell: (m) => acctTypeLabel(m.acctType) },
  { key: "role", header: "Role", cell: (m) => roleName(m.roleId) },
  { key: "status", header: "Status", cell: (m) => <StatusTag status={m.status} label={MEMBER_STATUS_LABELS[m.status]} /> },
  { key: "joined", header: "Joined", cell: (m) => <DateTime iso={m.createdAt} /> },
];

export default function AdminMembers({ loaderData }: Route.ComponentProps) {
  const { query, list, actor } = loaderData;
  const filtered = Boolean(query.q || query.type || query.status);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Members</h1>
          <p className="mt-1 text-sm text-stone-600">Everyone with an account: members and administrators.</p>
        </div>
      </div>

      <CreateMember actor={actor} />

      <section aria-labelledby="member-list-heading" className="space-y-4">
        <h2 id="member-list-heading" className="sr-only">
          Member list
        </h2>
        <SearchForm query={query} />
        <DataTable
          caption={
            <>
              Members{filtered ? " matching the search" : ""}, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.members}
          rowKey={(m) => m.id}
          empty={
            <ListEmptyState
              total={list.total}
              pageCount={list.pageCount}
              filtered={filtered}
              noMatch="No members match this search."
              noMatchHint="Try another name or email"
              empty="No members yet."
              emptyHint="Create the first one with “Create member” above."
            />
          }
        />
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          total={list.total}
          pageSize={list.pageSize}
          noun={["member", "members"]}
          label="Member list pages"
        />
      </section>
    </div>
  );
}

function SearchForm({ query }: { query: Route.ComponentProps["loaderData"]["query"] }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter members"
      // Re-mounted on each search so the fields show what the URL says (after "Clear", for example).
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="member-search" className="block text-sm font-medium text-stone-800">
          Search by name or email
        </label>
        <input
          id="member-search"
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder="e.g. Ada or ada@example.com"
          maxLength={100}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="member-type" className="block text-sm font-medium text-stone-800">
          Account type
        </label>
        <select id="member-type" name="type" defaultValue={query.type ?? ""} className={inputClass}>
          <option value="">All types</option>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </select>
      </div>
      <div>
        <label htmlFor="member-status" className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id="member-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">All statuses</option>
          {MEMBER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {MEMBER_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 lg:flex-none"
        >
          Search
        </button>
        {query.q || query.type || query.status ? (
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

function CreateMember({ actor }: { actor: { id: number; acctType: number; roleId: number } }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "create-member",
    lastResult,
    defaultValue: { acctType: String(ACCT_TYPE.member), roleId: "5" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateMemberSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const elevated = hasAdminAccess(actor);
  return (
    <details
      // Stays open when the server sent the form back with errors (without JavaScript too).
      open={lastResult ? true : undefined}
      className="group rounded-lg border border-stone-200 bg-white shadow-sm"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg px-4 py-3 hover:bg-stone-50 [&::-webkit-details-marker]:hidden">
        <span>
          <span className="font-semibold text-stone-900">Create member</span>
          <span className="ml-2 hidden text-sm text-stone-600 sm:inline">They receive an activation link by email.</span>
        </span>
        <span aria-hidden="true" className="text-stone-500 transition group-open:rotate-45">
          <svg viewBox="0 0 20 20" className="size-5 fill-current">
            <path d="M10 4a1 1 0 0 1 1 1v4h4a1 1 0 1 1 0 2h-4v4a1 1 0 1 1-2 0v-4H5a1 1 0 1 1 0-2h4V5a1 1 0 0 1 1-1Z" />
          </svg>
        </span>
      </summary>
      <Form method="post" aria-label="Create member" className="space-y-4 border-t border-stone-200 px-4 py-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="First name"
            inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
            errors={fields.name.errors}
            errorId={fields.name.errorId}
          />
          <Field
            label="Last name"
            inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "off" }}
            errors={fields.lastName.errors}
            errorId={fields.lastName.errorId}
          />
        </div>
        <Field
          label="Email"
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Account type"
            selectProps={getSelectProps(fields.acctType)}
            options={[
              { value: ACCT_TYPE.member, label: "Member" },
              { value: ACCT_TYPE.admin, label: "Admin", disabled: !elevated },
            ]}
            errors={fields.acctType.errors}
            errorId={fields.acctType.errorId}
          />
          <SelectField
            label="Role"
            selectProps={getSelectProps(fields.roleId)}
            options={ROLES.map((role) => ({
              value: role.id,
              label: role.name,
              disabled: creationRefusal(actor, { acctType: ACCT_TYPE.member, roleId: role.id }) !== null,
            }))}
            errors={fields.roleId.errors}
            errorId={fields.roleId.errorId}
            help={
              elevated
                ? actor.roleId === 1
                  ? undefined
                  : "Only a Super admin can grant the Super admin role."
                : "Only a Super admin or an Admin can create admins or give a role other than User."
            }
          />
        </div>
        <div className="flex justify-end">
          <SubmitButton
            pendingLabel="Creating…"
            className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
          >
            Create member and send activation link
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}
