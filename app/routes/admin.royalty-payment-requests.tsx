import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { data, Form, Link, useLocation } from "react-router";
import { z } from "zod";
import { DateTime } from "~/components/formatting";
import { Field, FormAlert, inputClass, SubmitButton, TextareaField } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { pageTitle } from "~/components/page-title";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { TwoFactorRequired } from "~/components/two-factor-required";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { parseId } from "~/modules/accounts/guards.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound } from "~/modules/http/route-errors.server";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { parsePayoutQueueQuery, payManualAndNotify, payoutQueue, rejectAndNotify, type PayoutQueueRow } from "~/modules/payouts/payout-admin.server";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { payStripeAndNotify } from "~/modules/payouts/stripe/stripe-connect.server";
import { StripePayForm } from "~/modules/payouts/stripe/stripe-pay-form";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { hasTwoFactor } from "~/modules/accounts/two-factor.server";
import { requireFreshCode } from "~/modules/accounts/step-up.server";
import { requestInfoContext } from "~/request-context";
import { TWO_FACTOR_REQUIRED, twoFactorSetupPath } from "~/modules/accounts/two-factor-rules";
import type { Route } from "./+types/admin.royalty-payment-requests";

export const handle = { routeName: "admin-royalty-payment-requests" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Royalty Payment Requests");

/**
 * The payout queue (decision 018): filter by status and member, approve and pay a manual request
 * with the bank transfer's reference, or reject it with a reason (the reservation is released). The member is
 * told live. Administrators only; a request id that does not exist is 404.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireAdminUser(request, context);
  const query = parsePayoutQueueQuery(new URL(request.url).searchParams);
  const [queue, twoFactorOn] = await Promise.all([payoutQueue(query), hasTwoFactor(user.id)]);
  return { query, queue, twoFactorOn, accountPath: twoFactorSetupPath(user.id) };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("pay"),
    requestId: z.string().max(12),
    reference: z.string({ error: "Enter the transfer's reference (3 to 120 characters)." }).max(120, "Enter the transfer's reference (3 to 120 characters)."),
  }),
  z.object({ intent: z.literal("pay-stripe"), requestId: z.string().max(12) }),
  z.object({
    intent: z.literal("reject"),
    requestId: z.string().max(12),
    reason: z.string({ error: "Give the member a reason (3 to 500 characters)." }).max(500, "Give the member a reason (3 to 500 characters)."),
  }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireAdminUser(request, context);
  const formData = await readForm(request);
  const requestId = parseId(String(formData.get("requestId") ?? ""));
  if (requestId === null) throw notFound();
  const rawIntent = formData.get("intent");
  const intent = rawIntent === "reject" ? "reject" : rawIntent === "pay-stripe" ? "pay-stripe" : "pay";
  const submission = parseForm(formData, { schema: ActionSchema });
  if (submission.status !== "success") return data({ requestId, intent, result: submission.reply() }, { status: 400 });
  // Administrators who move money must have two-factor authentication on, and a current code (decision 020).
  if (!(await hasTwoFactor(user.id))) {
    return data({ requestId, intent, result: submission.reply({ formErrors: [TWO_FACTOR_REQUIRED] }) }, { status: 403 });
  }
  await requireFreshCode(request, user, formData, context.get(requestInfoContext).ip);
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  try {
    if (submission.value.intent === "pay-stripe") {
      const paid = await payStripeAndNotify(user, requestId);
      return redirectWithFlash(back, {
        kind: "success",
        message: `Request #${paid.id} is paid: ${formatCents(microsToCentsFloor(paid.netMicros))} sent through Stripe (transfer ${paid.reference}). The member was notified.`,
      });
    }
    if (submission.value.intent === "pay") {
      const paid = await payManualAndNotify(user, requestId, submission.value.reference);
      return redirectWithFlash(back, {
        kind: "success",
        message: `Request #${paid.id} is paid: ${formatCents(microsToCentsFloor(paid.netMicros))} sent (reference ${paid.reference}). The member was notified.`,
      });
    }
    const rejected = await rejectAndNotify(user, requestId, submission.value.reason);
    return redirectWithFlash(back, { kind: "success", message: `Request #${rejected.id} is rejected and its amount released. The member was notified.` });
  } catch (error) {
    if (error instanceof PayoutError) {
      if (error.status === 404) throw notFound();
      const reply = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
      return data({ requestId, intent, result: reply }, { status: error.status });
    }
    throw error;
  }
}

const STATUS_OPTIONS = [
  ["pending", "Pending"],
  ["approved", "Approved"],
  ["paid", "Paid"],
  ["rejected", "Rejected"],
  ["canceled", "Canceled"],
  ["reversed", "Reversed"],
  ["all", "All statuses"],
] as const;

const money = (cents: string) => formatCents(BigInt(cents));

export default function AdminRoyaltyPaymentRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { query, queue } = loaderData;
  const filtered = Boolean(query.q) || query.status !== "pending";
  const statusLabel = STATUS_OPTIONS.find(([value]) => value === query.status)![1];
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Royalty Payment Requests</h1>
        <p className="mt-1 text-sm text-stone-600" data-testid="queue-summary">
          {queue.pendingCount === 0
            ? "No request is waiting."
            : `${queue.pendingCount} pending ${queue.pendingCount === 1 ? "request" : "requests"}, ${money(queue.pendingCents)} reserved.`}{" "}
          Pay each by bank transfer first, then record its reference here.
        </p>
      </div>

      {loaderData.twoFactorOn ? null : <TwoFactorRequired message={TWO_FACTOR_REQUIRED} accountPath={loaderData.accountPath} />}

      <QueueFilters query={query} />

      <section aria-labelledby="queue-heading" className="space-y-4">
        <h2 id="queue-heading" className="sr-only">
          {statusLabel === "All statuses" ? "All requests" : `${statusLabel} requests`}
        </h2>
        {queue.rows.length === 0 ? (
          <div className="rounded-lg border border-stone-200 bg-white p-6 shadow-sm">
            <ListEmptyState
              total={queue.total}
              pageCount={queue.pageCount}
              filtered={filtered}
              noMatch="No payout requests match these filters."
              noMatchHint="Try another status or member"
              empty="No payout request is waiting."
              emptyHint="Members request payouts from their Royalty Payment Requests page."
            />
          </div>
        ) : (
          <ul className="space-y-3">
            {queue.rows.map((row) => (
              <li key={row.id}>
                <RequestCard row={row} actionData={actionData?.requestId === row.id ? actionData : undefined} />
              </li>
            ))}
          </ul>
        )}
        <Pagination
          page={queue.page}
          pageCount={queue.pageCount}
          total={queue.total}
          pageSize={queue.pageSize}
          noun={["request", "requests"]}
          label="Payout request pages"
        />
      </section>
    </div>
  );
}

function QueueFilters({ query }: { query: Route.ComponentProps["loaderData"]["query"] }) {
  const location = useLocation();
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter payout requests"
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]"
    >
      <div>
        <label htmlFor="queue-search" className="block text-sm font-medium text-stone-800">
          Member name or email
        </label>
        <input
          id="queue-search"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          placeholder="e.g. Mia or mia@example.com"
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="queue-status" className="block text-sm font-medium text-stone-800">
          Status
        </label>
        <select id="queue-status" name="status" defaultValue={query.status} className={inputClass}>
          {STATUS_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 sm:flex-none"
        >
          Filter
        </button>
        {query.q || query.status !== "pending" ? (
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

type RowAction = NonNullable<Route.ComponentProps["actionData"]>;

function RequestCard({ row, actionData }: { row: PayoutQueueRow; actionData: RowAction | undefined }) {
  const open = row.status === "pending" || row.status === "approved";
  const headingId = `request-${row.id}-heading`;
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-semibold text-stone-900">
            Request #{row.id}: <span className="tabular-nums">{money(row.amountCents)}</span> for {row.memberName}
          </h3>
          <p className="text-sm text-stone-600">
            <Link to={`/admin/member/${row.memberId}`} className="break-all text-brand-800 underline">
              {row.email}
            </Link>{" "}
            · requested <DateTime iso={row.createdAt} withTime />
          </p>
        </div>
        <StatusTag status={row.status} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-stone-600">Method</dt>
          <dd>
            {row.method === "manual" ? "Bank transfer" : "Stripe"}
            {row.method === "manual" && (
              <>
                {" "}
                to ••••&nbsp;<span className="font-mono">{row.bankLast4 ?? "—"}</span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-stone-600">Tax status</dt>
          <dd>
            {row.taxForm ? (row.taxForm === "w9" ? "W-9" : "W-8") : "No form"}
            {row.country ? ` (${row.country})` : ""}
          </dd>
        </div>
        <div>
          <dt className="text-stone-600">Fee · withholding ({row.withholdingBps / 100}%)</dt>
          <dd className="tabular-nums">
            {money(row.feeCents)} · {money(row.withholdingCents)}
          </dd>
        </div>
        <div>
          <dt className="text-stone-600">{row.status === "paid" ? "Net paid" : "Net (at request)"}</dt>
          <dd className="font-semibold tabular-nums">{money(row.netCents)}</dd>
        </div>
      </dl>
      {row.reference && <p className="mt-2 text-sm text-stone-700">Transfer reference: {row.reference}</p>}
      {row.rejectionReason && <p className="mt-2 text-sm text-stone-700">Rejected: {row.rejectionReason}</p>}
      {open && (
        <div className="mt-4 grid gap-4 border-t border-stone-100 pt-4 md:grid-cols-2">
          {row.method === "manual" ? (
            <PayForm requestId={row.id} lastResult={actionData?.intent === "pay" ? actionData.result : undefined} />
          ) : (
            <StripePayForm requestId={row.id} netLabel={money(row.netCents)} lastResult={actionData?.intent === "pay-stripe" ? actionData.result : undefined} />
          )}
          <RejectForm requestId={row.id} lastResult={actionData?.intent === "reject" ? actionData.result : undefined} />
        </div>
      )}
    </article>
  );
}

function PayForm({ requestId, lastResult }: { requestId: number; lastResult: RowAction["result"] | undefined }) {
  const [form, fields] = useForm({ id: `pay-${requestId}`, lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" aria-label={`Pay request #${requestId}`} className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="requestId" value={requestId} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Transfer reference"
        inputProps={{ ...getInputProps(fields.reference, { type: "text" }), autoComplete: "off", maxLength: 120 }}
        errors={fields.reference.errors}
        errorId={fields.reference.errorId}
        help="The reference of the bank transfer you sent."
      />
      <SubmitButton
        name="intent"
        value="pay"
        pendingLabel="Recording…"
        className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
      >
        Approve and mark as paid
      </SubmitButton>
    </Form>
  );
}

function RejectForm({ requestId, lastResult }: { requestId: number; lastResult: RowAction["result"] | undefined }) {
  const [form, fields] = useForm({ id: `reject-${requestId}`, lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" aria-label={`Reject request #${requestId}`} className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="requestId" value={requestId} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label="Reason for rejecting"
        textareaProps={{ ...getTextareaProps(fields.reason), rows: 2, maxLength: 500 }}
        errors={fields.reason.errors}
        errorId={fields.reason.errorId}
        help="The member sees it."
      />
      <SubmitButton
        name="intent"
        value="reject"
        pendingLabel="Rejecting…"
        className="inline-flex w-full items-center justify-center rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 shadow-sm hover:bg-red-50 disabled:opacity-60 sm:w-auto"
      >
        Reject
      </SubmitButton>
    </Form>
  );
}
