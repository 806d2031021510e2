import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { CHART_COLORS, ChartCard, EmptyState, MonthBarChart, StatCard } from "~/components/charts";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { DateTime } from "~/components/formatting";
import {
  dangerButton,
  Field,
  FieldErrors,
  FormAlert,
  inputClass,
  secondaryButton,
  SelectField,
  SubmitButton,
  TextareaField,
  useFormResetKey,
} from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { ShareButtons } from "~/components/share/share-buttons";
import { StatusTag } from "~/components/status-tag";
import { TwoFactorRequired } from "~/components/two-factor-required";
import { AFFILIATE_TWO_FACTOR_REQUIRED } from "~/modules/accounts/two-factor-rules";
import { PAYOUT_METHOD_OPTIONS } from "./schemas";
import type { AdminAffiliateActionData, AdminAffiliateForm } from "./affiliate-routes.server";

/**
 * The affiliate pages' UI: the admin list and page, the member's affiliate dashboard and the
 * application form's fields (used by /register/affiliate). Every form is a plain <Form method="post">
 * (Conform), working without JavaScript; errors show beside their fields and the values are kept.
 */

const STATUS_OPTIONS = [
  { value: "", label: "All statuses" },
  { value: "pending_approval", label: "Pending approval" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
  { value: "suspended", label: "Suspended" },
];

function Card({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function Facts({ label, rows }: { label: string; rows: Array<[string, ReactNode]> }) {
  return (
    <dl aria-label={label} className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-stone-600">{term}</dt>
          <dd className="break-words text-stone-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/* ------------------------------------------------------------------ the application fields */

interface ApplicationFields {
  audience: { name: string; errors?: string[]; errorId: string; initialValue?: unknown; id: string; descriptionId: string; key?: string; required?: boolean };
  payoutMethod: {
    name: string;
    errors?: string[];
    errorId: string;
    initialValue?: unknown;
    id: string;
    descriptionId: string;
    key?: string;
    required?: boolean;
  };
}

/** What an applicant earns and how they can be paid here (registerAffiliateLoader's `terms`). */
export interface ApplicationTerms {
  rateBps: number;
  platformBps: number;
  perDollarBps: number;
  stripe: boolean;
}

const bpsPercent = (bps: number) => `${(bps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;

/** The rate, told before applying: a share of the platform commission, and what that is of a member's royalties. */
export function ApplicationTermsNote({ terms }: { terms: ApplicationTerms }) {
  return (
    <p className="rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-brand-950" data-testid="affiliate-terms">
      You earn <strong>{bpsPercent(terms.rateBps)}</strong> of the platform commission ({bpsPercent(terms.platformBps)} of each royalty) on the members you
      bring: {bpsPercent(terms.perDollarBps)} of what they earn, for 12 months after they sign up. An administrator reviews each application.
    </p>
  );
}

/** The website or audience and the payout method: the application's own fields. Stripe only where it is configured. */
export function ApplicationFields({ fields, stripe }: { fields: ApplicationFields; stripe: boolean }) {
  return (
    <>
      <TextareaField
        label="Your website or audience"
        help="Where you will share your links: a site, a channel, a newsletter, a community, and roughly how many people it reaches."
        textareaProps={{ ...getTextareaProps(fields.audience as never), maxLength: 2000, rows: 4 }}
        errors={fields.audience.errors}
        errorId={fields.audience.errorId}
      />
      {stripe ? (
        <SelectField
          label="Payout method"
          help="Your commissions join your balance and are paid through Payouts, like your other income."
          selectProps={getSelectProps(fields.payoutMethod as never)}
          options={[{ value: "", label: "Choose…" }, ...PAYOUT_METHOD_OPTIONS]}
          errors={fields.payoutMethod.errors}
          errorId={fields.payoutMethod.errorId}
        />
      ) : (
        <div className="text-sm">
          <input type="hidden" name={fields.payoutMethod.name} value="manual" />
          <p className="font-medium text-stone-800">Payout method</p>
          <p className="mt-1 text-stone-600">Bank transfer: your commissions join your balance and are paid through Payouts, like your other income.</p>
          <FieldErrors id={fields.payoutMethod.errorId} errors={fields.payoutMethod.errors} />
        </div>
      )}
    </>
  );
}

/* ------------------------------------------------------------------ admin list */

export interface AdminAffiliatesData {
  query: { status: string; q: string; page: number };
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
  rows: Array<{
    id: number;
    href: string;
    status: string;
    statusLabel: string;
    code: string | null;
    rate: string;
    member: string;
    email: string;
    memberHref: string;
    referrals: number;
    earned: string;
    createdAt: string;
  }>;
}

type AdminRow = AdminAffiliatesData["rows"][number];

const ADMIN_COLUMNS: Array<DataColumn<AdminRow>> = [
  {
    key: "affiliate",
    header: "Affiliate",
    rowHeader: true,
    cell: (r) => (
      <Link to={r.href} className="font-medium text-brand-800 underline">
        {r.member}
        <span className="sr-only"> (affiliate #{r.id})</span>
      </Link>
    ),
  },
  { key: "email", header: "Email", cell: (r) => <span className="break-all">{r.email}</span> },
  { key: "status", header: "Status", cell: (r) => <StatusTag status={r.status} label={r.statusLabel} /> },
  { key: "code", header: "Code", cell: (r) => (r.code ? <code>{r.code}</code> : "—") },
  { key: "rate", header: "Rate", align: "right", cell: (r) => r.rate },
  { key: "referrals", header: "Referrals", align: "right", cell: (r) => <span className="tabular-nums">{r.referrals}</span> },
  { key: "earned", header: "Earned", align: "right", cell: (r) => <span className="tabular-nums">{r.earned}</span> },
  { key: "created", header: "Applied", cell: (r) => <DateTime iso={r.createdAt} /> },
];

export function AdminAffiliatesPage({ loaderData }: { loaderData: AdminAffiliatesData }) {
  const { query } = loaderData;
  const filtered = Boolean(query.status || query.q);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Affiliates</h1>
        <p className="mt-1 text-sm text-stone-600">Applications to review, affiliates' rates and what they earned.</p>
      </div>
      <FilterForm label="Filter affiliates" clear={filtered}>
        <div className="min-w-56 flex-1">
          <label htmlFor="affiliates-q" className="block text-sm font-medium text-stone-800">
            Name, email or code
          </label>
          <input id="affiliates-q" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
        </div>
        <div className="min-w-40">
          <SelectField label="Status" selectProps={{ id: "affiliates-status", name: "status", defaultValue: query.status }} options={STATUS_OPTIONS} />
        </div>
      </FilterForm>
      <DataTable
        caption="Affiliates"
        columns={ADMIN_COLUMNS}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={filtered}
            noMatch="No affiliates match these filters."
            noMatchHint="Try another search or status"
            empty="No affiliates yet."
            emptyHint="Members apply from /register/affiliate."
          />
        }
      />
      <Pagination
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        total={loaderData.total}
        pageSize={loaderData.pageSize}
        noun={["affiliate", "affiliates"]}
      />
    </div>
  );
}

/* ------------------------------------------------------------------ shared: figures and lines */

export interface AffiliateSummaryView {
  id: number;
  status: string;
  statusLabel: string;
  code: string | null;
  audience: string;
  payoutMethod: string;
  commissionBps: number;
  rate: string;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
}
export interface FiguresView {
  clicks: number;
  signUps: number;
  activeReferrals: number;
  earned: string;
  earnedExact: string;
  byMonth: Array<{ month: string; amount: string; cents: number }>;
}
export interface LinesView {
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
  rows: Array<{
    id: number;
    date: string;
    importId: number | null;
    lineNo: number | null;
    period: string | null;
    store: string | null;
    trackTitle: string | null;
    referred: string;
    referredId: number;
    base: string;
    rate: string;
    amount: string;
  }>;
}

function Figures({ figures }: { figures: FiguresView }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Affiliate figures" role="group">
      <StatCard label="Clicks" value={<span className="tabular-nums">{figures.clicks}</span>} />
      <StatCard label="Sign-ups" value={<span className="tabular-nums">{figures.signUps}</span>} />
      <StatCard label="Active referrals" value={<span className="tabular-nums">{figures.activeReferrals}</span>} hint="Within 12 months of signing up" />
      <StatCard
        label="Commissions earned"
        value={
          <span className="tabular-nums" data-exact={figures.earnedExact}>
            {figures.earned}
          </span>
        }
      />
    </div>
  );
}

function ByMonth({ figures }: { figures: FiguresView }) {
  if (figures.byMonth.length === 0) {
    return (
      <ChartCard title="Commissions by month">
        <EmptyState title="No commissions yet">When a member you referred earns royalties, your commission shows here, month by month.</EmptyState>
      </ChartCard>
    );
  }
  return (
    <ChartCard title="Commissions by month" description="By the month each commission was posted, in dollars">
      <MonthBarChart
        label="Commissions by month"
        format="cents"
        series={[{ key: "commission", label: "Commission", color: CHART_COLORS[0]! }]}
        months={figures.byMonth.map((m) => ({ month: m.month, values: { commission: m.cents } }))}
      />
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Commissions by month</caption>
        <thead>
          <tr className="text-left text-stone-600">
            <th scope="col" className="py-1 font-medium">
              Month
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Commission
            </th>
          </tr>
        </thead>
        <tbody>
          {figures.byMonth.map((m) => (
            <tr key={m.month} className="border-t border-stone-100">
              <th scope="row" className="py-1 text-left font-normal">
                {m.month}
              </th>
              <td className="py-1 text-right tabular-nums">${m.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ChartCard>
  );
}

type LineRow = LinesView["rows"][number];

function CommissionLines({ lines, memberHref }: { lines: LinesView; memberHref?: (id: number) => string }) {
  const columns: Array<DataColumn<LineRow>> = [
    { key: "date", header: "Posted", rowHeader: true, cell: (r) => r.date },
    {
      key: "referred",
      header: "Referred member",
      cell: (r) =>
        memberHref ? (
          <Link to={memberHref(r.referredId)} className="text-brand-800 underline">
            {r.referred}
          </Link>
        ) : (
          r.referred
        ),
    },
    { key: "line", header: "Statement line", cell: (r) => (r.importId ? `Import #${r.importId}, line ${r.lineNo}` : "—") },
    { key: "track", header: "Track", cell: (r) => [r.trackTitle, r.store, r.period].filter(Boolean).join(" · ") || "—" },
    { key: "base", header: "Platform commission", align: "right", cell: (r) => <span className="tabular-nums">${r.base}</span> },
    { key: "rate", header: "Rate", align: "right", cell: (r) => r.rate },
    { key: "amount", header: "Earned", align: "right", cell: (r) => <span className="tabular-nums">${r.amount}</span> },
  ];
  return (
    <>
      <DataTable
        caption="Commissions, line by line"
        columns={columns}
        rows={lines.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={lines.total}
            pageCount={lines.pageCount}
            filtered={false}
            noMatch="No commissions on this page."
            noMatchHint="Go back to the first page"
            empty="No commissions yet."
            emptyHint="Each platform commission on a referred member's income, for 12 months after they sign up, earns a line here."
          />
        }
      />
      <Pagination page={lines.page} pageCount={lines.pageCount} total={lines.total} pageSize={lines.pageSize} noun={["commission", "commissions"]} />
    </>
  );
}

/* ------------------------------------------------------------------ admin page */

export interface AdminAffiliateData {
  affiliate: AffiliateSummaryView;
  owner: { id: number; name: string; email: string; href: string } | null;
  links: { register: string; home: string } | null;
  figures: FiguresView;
  lines: LinesView;
  path: string;
  can: { approve: boolean; reject: boolean; suspend: boolean; rate: boolean };
  /** Whether the administrator has two-factor on (approving and the rate need it), and where to turn it on. */
  twoFactorOn: boolean;
  accountPath: string;
}

const lastResultFor = (actionData: AdminAffiliateActionData | undefined, form: AdminAffiliateForm) =>
  actionData?.form === form ? actionData.result : undefined;

function ActionForm({
  form: formName,
  actionData,
  children,
  submit,
  pendingLabel,
  danger,
}: {
  form: AdminAffiliateForm;
  actionData: AdminAffiliateActionData | undefined;
  children?: (
    fields: Record<string, { name: string; errors?: string[]; errorId: string; initialValue?: unknown; id: string; descriptionId: string }>,
  ) => ReactNode;
  submit: string;
  pendingLabel: string;
  danger?: boolean;
}) {
  const resetKey = useFormResetKey();
  const [form, fields] = useForm({
    id: `affiliate-${formName}`,
    lastResult: lastResultFor(actionData, formName) as SubmissionResult<string[]> | undefined,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} key={resetKey} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      {children?.(fields as never)}
      <SubmitButton name="intent" value={formName} pendingLabel={pendingLabel} className={danger ? dangerButton : secondaryButton}>
        {submit}
      </SubmitButton>
    </Form>
  );
}

export function AdminAffiliatePage({ loaderData, actionData }: { loaderData: AdminAffiliateData; actionData: AdminAffiliateActionData | undefined }) {
  const { affiliate: a, owner, can } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/admin/affiliates" className="text-brand-800 underline">
              Affiliates
            </Link>
          </p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">
            Affiliate #{a.id}
            {owner ? `: ${owner.name}` : ""}
          </h1>
        </div>
        <StatusTag status={a.status} label={a.statusLabel} />
      </div>
      <Card title="Application" id="application">
        <Facts
          label="Affiliate application"
          rows={[
            ["Member", owner ? <Link key="m" to={owner.href} className="text-brand-800 underline">{`${owner.name} (${owner.email})`}</Link> : "—"],
            [
              "Website or audience",
              <span key="a" className="whitespace-pre-line">
                {a.audience}
              </span>,
            ],
            ["Payout method", a.payoutMethod],
            ["Commission rate", `${a.rate} of the platform commission (${a.commissionBps} basis points)`],
            ["Code", a.code ? <code key="c">{a.code}</code> : "Given at approval"],
            ["Applied", <DateTime key="d" iso={a.createdAt} withTime />],
            ...(a.reason ? ([[a.status === "rejected" ? "Rejection reason" : "Reason", a.reason]] as Array<[string, ReactNode]>) : []),
          ]}
        />
        {loaderData.links ? (
          <p className="text-sm text-stone-700">
            Link: <code className="break-all">{loaderData.links.register}</code>
          </p>
        ) : null}
      </Card>
      <Card title="Decisions" id="decisions">
        {(can.approve || can.rate) && !loaderData.twoFactorOn ? (
          <TwoFactorRequired message={AFFILIATE_TWO_FACTOR_REQUIRED} accountPath={loaderData.accountPath} />
        ) : null}
        <div className="grid gap-6 md:grid-cols-2">
          {can.approve ? (
            <ActionForm form="approve" actionData={actionData} submit={a.status === "suspended" ? "Reinstate" : "Approve"} pendingLabel="Approving…" />
          ) : null}
          {can.rate ? (
            <ActionForm form="rate" actionData={actionData} submit="Save rate" pendingLabel="Saving…">
              {(fields) => (
                <Field
                  label="Commission rate (basis points)"
                  help="Of the platform commission earned from referred members: 2000 = 20 %."
                  inputProps={{
                    ...getInputProps(fields.commissionBps as never, { type: "number" }),
                    min: 0,
                    max: 10000,
                    step: 1,
                    defaultValue: String(a.commissionBps),
                    inputMode: "numeric",
                  }}
                  errors={fields.commissionBps?.errors}
                  errorId={fields.commissionBps?.errorId}
                />
              )}
            </ActionForm>
          ) : null}
          {can.reject ? (
            <ActionForm form="reject" actionData={actionData} submit="Reject" pendingLabel="Rejecting…" danger>
              {(fields) => (
                <TextareaField
                  label="Reason for rejecting"
                  help="Shown to the applicant."
                  textareaProps={{ ...getTextareaProps(fields.reason as never), maxLength: 500, rows: 2, id: "reject-reason" }}
                  errors={fields.reason?.errors}
                  errorId={fields.reason?.errorId}
                />
              )}
            </ActionForm>
          ) : null}
          {can.suspend ? (
            <ActionForm form="suspend" actionData={actionData} submit="Suspend" pendingLabel="Suspending…" danger>
              {(fields) => (
                <TextareaField
                  label="Reason for suspending"
                  help="Shown to the affiliate. Its links stop counting until it is approved again."
                  textareaProps={{ ...getTextareaProps(fields.reason as never), maxLength: 500, rows: 2, id: "suspend-reason" }}
                  errors={fields.reason?.errors}
                  errorId={fields.reason?.errorId}
                />
              )}
            </ActionForm>
          ) : null}
          {!can.approve && !can.rate && !can.reject && !can.suspend ? (
            <p className="text-sm text-stone-600">This application was rejected: nothing more to decide.</p>
          ) : null}
        </div>
      </Card>
      <Figures figures={loaderData.figures} />
      <ByMonth figures={loaderData.figures} />
      <section aria-labelledby="lines-heading" className="space-y-3">
        <h2 id="lines-heading" className="text-lg font-semibold">
          Everything earned, traced to its lines
        </h2>
        <CommissionLines lines={loaderData.lines} memberHref={(id) => `/admin/member/${id}`} />
      </section>
    </div>
  );
}

/* ------------------------------------------------------------------ member dashboard */

export interface MemberAffiliateData {
  memberId: number;
  viewerIsAdmin: boolean;
  affiliate: AffiliateSummaryView;
  links: { register: string; home: string } | null;
  figures: FiguresView;
  lines: LinesView;
  incomePath: string;
  payoutsPath: string;
}

function CopyableLink({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <input id={id} readOnly value={value} className={`${inputClass} font-mono`} onFocus={(e) => e.currentTarget.select()} />
    </div>
  );
}

export function MemberAffiliatePage({ loaderData }: { loaderData: MemberAffiliateData }) {
  const { affiliate: a, links } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Affiliate</h1>
          <p className="mt-1 text-sm text-stone-600">
            You earn {a.rate} of the platform commission on the income of the members you bring, for 12 months after they sign up. It joins your{" "}
            <Link to={loaderData.incomePath} className="text-brand-800 underline">
              income
            </Link>{" "}
            as “Affiliate” and is paid through{" "}
            <Link to={loaderData.payoutsPath} className="text-brand-800 underline">
              payouts
            </Link>
            .
          </p>
        </div>
        <StatusTag status={a.status} label={a.statusLabel} />
      </div>
      {a.status === "pending_approval" ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          Your application is waiting for an administrator. Your links appear here once it is approved.
        </p>
      ) : null}
      {a.status === "rejected" ? (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          Your application was not accepted{a.reason ? `: ${a.reason}` : "."}
        </p>
      ) : null}
      {a.status === "suspended" ? (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          Your affiliate account is suspended{a.reason ? `: ${a.reason}` : "."} Your links do not count meanwhile.
        </p>
      ) : null}
      {links ? (
        <Card title="Your links" id="links">
          <p className="text-sm text-stone-600">
            Your code is <code className="font-semibold">{a.code}</code>. Add <code>?ref={a.code}</code> to any public page; a visitor who signs up within 60
            days of their first click is yours.
          </p>
          <CopyableLink id="link-register" label="Sign-up link" value={links.register} />
          <CopyableLink id="link-home" label="Legal terms link" value={links.home} />
          <ShareButtons
            url={links.register}
            title="Join me on Backline"
            description="Royalties, splits and distribution for musicians."
            heading="Share your sign-up link"
          />
        </Card>
      ) : null}
      <Figures figures={loaderData.figures} />
      <ByMonth figures={loaderData.figures} />
      <section aria-labelledby="lines-heading" className="space-y-3">
        <h2 id="lines-heading" className="text-lg font-semibold">
          Commissions, line by line
        </h2>
        <CommissionLines lines={loaderData.lines} />
      </section>
    </div>
  );
}
