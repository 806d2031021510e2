import { Form, Link, useLocation } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { DateTime } from "~/components/formatting";
import { ListEmptyState } from "~/components/list-empty-state";
import { pageTitle } from "~/components/page-title";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { parsePaymentAccountsQuery, paymentAccounts, type PaymentAccountRow } from "~/modules/payouts/payout-admin.server";
import type { Route } from "./+types/admin.payment-accounts";
import { inputClass } from "~/components/forms";

export const handle = { routeName: "admin-payment-accounts" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Payment Accounts");

/** Members' payout accounts: method, onboarding status and tax status, last 4 only. Administrators only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminUser(request, context);
  const query = parsePaymentAccountsQuery(new URL(request.url).searchParams);
  return { query, list: await paymentAccounts(query) };
}

const ONBOARDING_LABELS: Record<string, { status: string; label: string }> = {
  none: { status: "inactive", label: "Not started" },
  pending: { status: "pending", label: "Onboarding" },
  complete: { status: "completed", label: "Complete" },
  restricted: { status: "required", label: "Restricted" },
};

const columns: Array<DataColumn<PaymentAccountRow>> = [
  {
    key: "member",
    header: "Member",
    rowHeader: true,
    cell: (r) => (
      <span>
        <Link to={`/admin/member/${r.memberId}`} className="font-medium text-brand-900 underline-offset-2 hover:underline">
          {r.memberName}
        </Link>
        <span className="block text-xs break-all text-stone-600">{r.email}</span>
      </span>
    ),
  },
  {
    key: "method",
    header: "Method",
    cell: (r) =>
      r.method === null ? (
        <span className="text-stone-500">Not chosen</span>
      ) : r.method === "manual" ? (
        <>
          Bank transfer ••••&nbsp;<span className="font-mono">{r.bankLast4 ?? "—"}</span>
          {r.country ? ` (${r.country})` : ""}
        </>
      ) : (
        <>Stripe{r.country ? ` (${r.country})` : ""}</>
      ),
  },
  {
    key: "onboarding",
    header: "Onboarding",
    cell: (r) =>
      r.method === "stripe" && r.stripeOnboardingStatus ? (
        <>
          <StatusTag status={ONBOARDING_LABELS[r.stripeOnboardingStatus]!.status} label={ONBOARDING_LABELS[r.stripeOnboardingStatus]!.label} />
          {r.stripeAccountId ? (
            // Asks Stripe for the account's status now (the admin refresh page), then comes back here.
            <Link
              to={`/admin/member/${r.memberId}/payment-account-stripe-refresh/${r.stripeAccountId}`}
              className="ml-2 text-xs font-medium text-brand-800 underline"
              aria-label={`Refresh the Stripe status of ${r.memberName}`}
            >
              Refresh
            </Link>
          ) : null}
        </>
      ) : r.method === "manual" ? (
        <StatusTag status="active" label="Ready" />
      ) : (
        <StatusTag status="required" label="No method" />
      ),
  },
  {
    key: "tax",
    header: "Tax status",
    cell: (r) =>
      r.tax ? (
        <>
          {r.tax.form === "w9" ? "W-9" : "W-8"} ({r.tax.country}), TIN ••••&nbsp;<span className="font-mono">{r.tax.tinLast4}</span>
        </>
      ) : (
        <span className="text-stone-500">No form</span>
      ),
  },
  { key: "withholding", header: "Withholding", align: "right", cell: (r) => <span className="tabular-nums">{r.withholdingBps / 100}%</span> },
  { key: "updated", header: "Changed", cell: (r) => <DateTime iso={r.updatedAt} /> },
];

export default function AdminPaymentAccounts({ loaderData }: Route.ComponentProps) {
  const { query, list } = loaderData;
  const location = useLocation();
  const filtered = Boolean(query.q || query.method);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Payment Accounts</h1>
        <p className="mt-1 text-sm text-stone-600">
          How each member is paid and their tax status. Bank details are stored encrypted; only their last 4 characters are shown.
        </p>
      </div>
      <Form
        method="get"
        role="search"
        aria-label="Filter payment accounts"
        key={location.search}
        className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
      >
        <div>
          <label htmlFor="accounts-search" className="block text-sm font-medium text-stone-800">
            Member name or email
          </label>
          <input id="accounts-search" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
        </div>
        <div>
          <label htmlFor="accounts-method" className="block text-sm font-medium text-stone-800">
            Method
          </label>
          <select id="accounts-method" name="method" defaultValue={query.method} className={inputClass}>
            <option value="">All methods</option>
            <option value="manual">Bank transfer</option>
            <option value="stripe">Stripe</option>
          </select>
        </div>
        <div className="flex items-end gap-2">
          <button
            type="submit"
            className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 sm:flex-none"
          >
            Search
          </button>
          {filtered ? (
            <Link
              to={location.pathname}
              className="inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <DataTable
        caption={
          <>
            Payment accounts{filtered ? " matching the search" : ""}, page {list.page} of {list.pageCount}
          </>
        }
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.memberId}
        empty={
          <ListEmptyState
            total={list.total}
            pageCount={list.pageCount}
            filtered={filtered}
            noMatch="No payment accounts match this search."
            noMatchHint="Try another name or email"
            empty="No member has set up payouts yet."
            emptyHint="Members choose how they are paid on their Payouts page."
          />
        }
      />
      <Pagination
        page={list.page}
        pageCount={list.pageCount}
        total={list.total}
        pageSize={list.pageSize}
        noun={["account", "accounts"]}
        label="Payment account pages"
      />
    </div>
  );
}
