import { RouteErrorPage } from "~/components/error-page";
import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { data, Form, Link, useActionData } from "react-router";
import { DateTime } from "~/components/formatting";
import { FormAlert, SelectField, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { StatusTag } from "~/components/status-tag";
import { parseId, requireAdminUser } from "~/modules/accounts/guards.server";
import { ACCT_TYPE, hasAdminAccess, roleName, ROLES } from "~/modules/accounts/roles";
import { redirectWithFlash, type FlashMessage } from "~/modules/flash/flash.server";
import {
  acctTypeLabel,
  MEMBER_INTENTS,
  MEMBER_STATUS_LABELS,
  MemberActionSchema,
  PERMISSION_MESSAGES,
  reactivationRefusal,
  suspensionRefusal,
  type MemberActionInput,
} from "~/modules/members/admin-members";
import {
  changeMemberAccess,
  getMemberDetail,
  MemberActionError,
  reactivateMember,
  resendActivation,
  resendVerification,
  suspendMember,
} from "~/modules/members/admin-members.server";
import type { Route } from "./+types/admin.member.$id";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { notFound } from "~/modules/http/route-errors.server";

export const handle = { routeName: "admin-member" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error || !loaderData ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData.member.fullName, "Member");

const SUPER_ADMIN = 1;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireAdminUser(request, context);
  const memberId = parseId(params.id);
  if (memberId === null) throw notFound();
  const member = await getMemberDetail(memberId);
  if (!member) throw notFound();

  const self = user.id === member.id;
  // The page explains what the server would refuse (admin-members.server.ts enforces it either way).
  const accessNote = !hasAdminAccess(user)
    ? PERMISSION_MESSAGES.needsAdminAccess
    : self
      ? PERMISSION_MESSAGES.noSelfDemotion
      : member.roleId === SUPER_ADMIN && user.roleId !== SUPER_ADMIN
        ? PERMISSION_MESSAGES.superAdminOnlyTarget
        : null;
  return {
    member,
    self,
    permissions: {
      accessNote,
      canGrantSuperAdmin: user.roleId === SUPER_ADMIN,
      suspendNote: suspensionRefusal(user, member),
      reactivateNote: reactivationRefusal(user),
    },
  };
}

type ActionResult = { intent: string; result: SubmissionResult<string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = await requireAdminUser(request, context);
  const memberId = parseId(params.id);
  if (memberId === null) throw notFound();

  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  const submission = parseForm(formData, { schema: MemberActionSchema });
  if (submission.status !== "success") {
    const known = (MEMBER_INTENTS as readonly string[]).includes(intent);
    const result = known ? submission.reply() : submission.reply({ formErrors: ["This action is not available."] });
    return data<ActionResult>({ intent, result }, { status: 400 });
  }

  try {
    const flash = await perform(user, memberId, submission.value);
    return redirectWithFlash(`/admin/member/${memberId}`, flash);
  } catch (error) {
    if (error instanceof MemberActionError) {
      if (error.status === 404) throw notFound();
      return data<ActionResult>({ intent, result: submission.reply({ formErrors: [error.message] }) }, { status: error.status });
    }
    throw error;
  }
}

type Actor = Parameters<typeof suspendMember>[0];

async function perform(actor: Actor, memberId: number, value: MemberActionInput): Promise<FlashMessage> {
  switch (value.intent) {
    case "change-access": {
      const { member, changed } = await changeMemberAccess(actor, memberId, value);
      const access = `${acctTypeLabel(member.acctType)} account with the ${roleName(member.roleId)} role`;
      return changed
        ? { kind: "success", message: `${member.name} ${member.lastName} now has an ${access}.` }
        : { kind: "info", message: `Nothing changed: ${member.name} ${member.lastName} already has an ${access}.` };
    }
    case "suspend": {
      const { member, changed } = await suspendMember(actor, memberId);
      return changed
        ? { kind: "success", message: `${member.name} ${member.lastName} is suspended and was signed out everywhere.` }
        : { kind: "info", message: `${member.name} ${member.lastName} was already suspended.` };
    }
    case "reactivate": {
      const { member, changed } = await reactivateMember(actor, memberId);
      return changed
        ? { kind: "success", message: `${member.name} ${member.lastName} is no longer suspended and can log in again.` }
        : { kind: "info", message: `${member.name} ${member.lastName} was not suspended.` };
    }
    case "resend-verification": {
      const member = await resendVerification(actor, memberId);
      return { kind: "success", message: `We sent a new verification link to ${member.email}.` };
    }
    case "resend-activation": {
      const member = await resendActivation(actor, memberId);
      return { kind: "success", message: `We sent a new activation link to ${member.email}.` };
    }
  }
}

// ---------------------------------------------------------------- page

type LoaderData = Route.ComponentProps["loaderData"];

export default function AdminMember({ loaderData }: Route.ComponentProps) {
  const { member } = loaderData;
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <nav aria-label="Breadcrumb">
        <Link to="/admin/members" className="text-sm font-medium text-brand-800 hover:underline">
          <span aria-hidden="true">← </span>Members
        </Link>
      </nav>

      <header className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{member.fullName}</h1>
          <p className="mt-1 text-sm break-all text-stone-600">{member.email}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <StatusTag status={member.status} label={MEMBER_STATUS_LABELS[member.status]} />
            <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">{acctTypeLabel(member.acctType)} account</span>
            <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">Role: {roleName(member.roleId)}</span>
            {loaderData.self ? <span className="text-xs text-stone-500">(this is you)</span> : null}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Link
            to={`/admin/announcements?${new URLSearchParams({ email: member.email })}`}
            className="inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50"
          >
            Send a notification
          </Link>
          <Link
            to={`/member/${member.id}/dashboard`}
            className="inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50"
          >
            Open member area
          </Link>
        </div>
      </header>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-6">
          <Details member={member} />
          <LegalDocuments member={member} />
        </div>
        <Actions loaderData={loaderData} actionData={actionData} />
      </div>
    </div>
  );
}

function Card({ title, id, children, description }: { title: string; id: string; children: ReactNode; description?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-stone-200 bg-white shadow-sm">
      <div className="border-b border-stone-200 px-5 py-3">
        <h2 id={id} className="font-semibold text-stone-900">
          {title}
        </h2>
        {description ? <p className="mt-0.5 text-sm text-stone-600">{description}</p> : null}
      </div>
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

function Details({ member }: { member: LoaderData["member"] }) {
  const rows: Array<[string, ReactNode]> = [
    ["First name", member.name],
    ["Last name", member.lastName],
    ["Email", <span className="break-all">{member.email}</span>],
    ["Email verified", member.emailVerifiedAt ? <DateTime iso={member.emailVerifiedAt} withTime /> : <StatusTag status="unverified" label="Not verified" />],
    ["Activated", member.activatedAt ? <DateTime iso={member.activatedAt} withTime /> : <StatusTag status="account_pending" label="Pending activation" />],
    ["Suspended", member.suspendedAt ? <DateTime iso={member.suspendedAt} withTime /> : <span className="text-stone-500">No</span>],
    ["Account type", acctTypeLabel(member.acctType)],
    ["Role", roleName(member.roleId)],
    ["Created", <DateTime iso={member.createdAt} withTime />],
    ["Last updated", <DateTime iso={member.updatedAt} withTime />],
  ];
  return (
    <Card title="Details" id="member-details-heading">
      <dl className="divide-y divide-stone-100">
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-1 py-2.5 sm:grid-cols-3 sm:gap-4">
            <dt className="text-sm font-medium text-stone-600">{label}</dt>
            <dd className="text-sm text-stone-900 sm:col-span-2">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function LegalDocuments({ member }: { member: LoaderData["member"] }) {
  const missing = member.documents.filter((d) => d.required && !d.signedAt).length;
  return (
    <Card
      title="Legal documents"
      id="member-legal-heading"
      description={
        member.documents.length === 0
          ? undefined
          : member.agreedToAllDocuments
            ? "Agreed to every required document."
            : `${missing} required ${missing === 1 ? "document is" : "documents are"} not agreed yet: the member is asked at the next login.`
      }
    >
      {member.documents.length === 0 ? (
        <p className="text-sm text-stone-600">No documents are published.</p>
      ) : (
        <ul className="divide-y divide-stone-100">
          {member.documents.map((doc) => (
            <li key={doc.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <div className="min-w-0">
                <Link to={`/legal-terms/${doc.slug}`} className="text-sm font-medium text-brand-900 hover:underline">
                  {doc.name}
                </Link>
                <p className="text-xs text-stone-500">
                  Version {doc.version}
                  {doc.required ? "" : " · optional"}
                </p>
              </div>
              {doc.signedAt ? (
                <span className="flex items-center gap-2 text-sm text-stone-600">
                  <StatusTag status="accepted" label="Agreed" />
                  <DateTime iso={doc.signedAt} />
                </span>
              ) : (
                <StatusTag status={doc.required ? "required" : "pending"} label={doc.required ? "Not agreed (required)" : "Not agreed"} />
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

const secondaryButton =
  "inline-flex w-full items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto";
const dangerButton =
  "inline-flex w-full items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto";
const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto";

function Note({ children }: { children: ReactNode }) {
  return <p className="rounded-md bg-stone-50 px-3 py-2 text-sm text-stone-600">{children}</p>;
}

function Actions({ loaderData, actionData }: { loaderData: LoaderData; actionData: ActionResult | undefined }) {
  const { member, permissions } = loaderData;
  const otherErrors = actionData && actionData.intent !== "change-access" ? actionData.result.error?.[""] : undefined;
  return (
    <div className="space-y-6">
      {/* Keyed on the saved access so the selects show it again after a change. */}
      <AccessForm
        key={`${member.acctType}-${member.roleId}`}
        loaderData={loaderData}
        lastResult={actionData?.intent === "change-access" ? actionData.result : undefined}
      />

      <Card title="Account" id="member-account-heading">
        <div className="space-y-5">
          <FormAlert errors={otherErrors} />
          <div className="space-y-2">
            <h3 className="text-sm font-semibold text-stone-900">Suspension</h3>
            {member.suspendedAt ? (
              <>
                <p className="text-sm text-stone-600">The account is suspended: the member cannot log in.</p>
                {permissions.reactivateNote ? (
                  <Note>{permissions.reactivateNote}</Note>
                ) : (
                  <Form method="post">
                    <SubmitButton name="intent" value="reactivate" pendingLabel="Reactivating…" className={primaryButton}>
                      Reactivate account
                    </SubmitButton>
                  </Form>
                )}
              </>
            ) : (
              <>
                <p className="text-sm text-stone-600">Suspending signs the member out everywhere at once and stops them logging in until reactivated.</p>
                {permissions.suspendNote ? (
                  <Note>{permissions.suspendNote}</Note>
                ) : (
                  <Form method="post">
                    <SubmitButton name="intent" value="suspend" pendingLabel="Suspending…" className={dangerButton}>
                      Suspend account
                    </SubmitButton>
                  </Form>
                )}
              </>
            )}
          </div>

          <div className="space-y-2 border-t border-stone-100 pt-4">
            <h3 className="text-sm font-semibold text-stone-900">Emails</h3>
            {!member.activatedAt ? (
              <>
                <p className="text-sm text-stone-600">The member has not chosen a password yet. The activation link also verifies the email address.</p>
                <Form method="post">
                  <SubmitButton name="intent" value="resend-activation" pendingLabel="Sending…" className={secondaryButton}>
                    Resend activation link
                  </SubmitButton>
                </Form>
              </>
            ) : !member.emailVerifiedAt ? (
              <>
                <p className="text-sm text-stone-600">The email address is not verified yet, so the member cannot log in.</p>
                <Form method="post">
                  <SubmitButton name="intent" value="resend-verification" pendingLabel="Sending…" className={secondaryButton}>
                    Resend verification email
                  </SubmitButton>
                </Form>
              </>
            ) : (
              <p className="text-sm text-stone-600">Nothing to resend: the account is activated and its email address verified.</p>
            )}
          </div>
        </div>
      </Card>
    </div>
  );
}

function AccessForm({ loaderData, lastResult }: { loaderData: LoaderData; lastResult: SubmissionResult<string[]> | undefined }) {
  const { member, permissions } = loaderData;
  const [form, fields] = useForm({
    id: "member-access",
    lastResult,
    defaultValue: { acctType: String(member.acctType), roleId: String(member.roleId) },
  });
  const locked = permissions.accessNote !== null;
  return (
    <Card title="Access" id="member-access-heading" description="The account type opens the admin area; the role sets admin powers.">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        {locked ? <Note>{permissions.accessNote}</Note> : null}
        <fieldset disabled={locked} className="space-y-4">
          <legend className="sr-only">Account type and role</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Account type"
              selectProps={getSelectProps(fields.acctType)}
              options={[
                { value: ACCT_TYPE.member, label: "Member" },
                { value: ACCT_TYPE.admin, label: "Admin" },
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
                disabled: role.id === SUPER_ADMIN && !permissions.canGrantSuperAdmin && member.roleId !== SUPER_ADMIN,
              }))}
              errors={fields.roleId.errors}
              errorId={fields.roleId.errorId}
              help={locked || permissions.canGrantSuperAdmin ? undefined : "Only a Super admin can grant the Super admin role."}
            />
          </div>
          <SubmitButton name="intent" value="change-access" pendingLabel="Saving…" className={primaryButton}>
            Save access
          </SubmitButton>
        </fieldset>
      </Form>
    </Card>
  );
}

/** An unknown or malformed member id shows the admin area's Not Found, inside the area's layout. */
export function ErrorBoundary() {
  return <RouteErrorPage homeHref="/admin/members" homeLabel="Back to members" />;
}
