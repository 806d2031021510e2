import { sql, type SQL } from "drizzle-orm";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { db } from "~/db/client.server";
import { payoutStatuses, type PayoutMethod, type PayoutStatus, type StripeOnboardingStatus, type TaxForm, type User } from "~/db/schema";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { withholdingBps } from "./payout-math";
import { payManualPayoutRequest, rejectPayoutRequest, type PayoutRequestView } from "./payouts.server";

/**
 * The administrators' side of payouts (decision 018): the request queue and the payout accounts
 * list (one statement each for the rows, one for the total), and the decisions, which tell the member live
 * (a notification row and a realtime publish, as every other feature does) once the money has moved.
 */

export const PAYOUT_QUEUE_PAGE_SIZE = 25;
export const PAYOUT_ACCOUNTS_PAGE_SIZE = 25;

export type QueueStatusFilter = PayoutStatus | "all";

export interface PayoutQueueQuery {
  status: QueueStatusFilter;
  q: string;
  page: number;
}

/** `?status=&q=&page=`; anything malformed falls back (the queue opens on the pending requests). */
export function parsePayoutQueueQuery(params: URLSearchParams): PayoutQueueQuery {
  const status = params.get("status");
  const page = Number(params.get("page") ?? 1);
  return {
    status: status === "all" || (payoutStatuses as readonly string[]).includes(status ?? "") ? (status as QueueStatusFilter) : "pending",
    q: (params.get("q") ?? "").trim().slice(0, 100),
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

export interface PayoutQueueRow {
  id: number;
  memberId: number;
  memberName: string;
  email: string;
  status: PayoutStatus;
  method: PayoutMethod;
  /** Whole cents as strings (bigint does not travel as JSON). */
  amountCents: string;
  feeCents: string;
  withholdingBps: number;
  withholdingCents: string;
  netCents: string;
  reference: string | null;
  rejectionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** The member's payout account now: where a manual transfer goes (last 4 only). */
  bankLast4: string | null;
  country: string | null;
  taxForm: TaxForm | null;
}

export interface PayoutQueue {
  rows: PayoutQueueRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** Pending requests in all, whatever the filters: the queue's badge. */
  pendingCount: number;
  pendingCents: string;
}

const memberSearch = (q: string): SQL => sql`lower(u.name || ' ' || u.last_name || ' ' || u.email) like lower(${`%${escapeLike(q)}%`})`;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;
const centsText = (micros: string) => microsToCentsFloor(BigInt(micros)).toString();
const isoOf = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * One page of the queue: pending and approved requests oldest first (the order they are paid in), the others
 * newest first; filtered by status and a search over the member's name and email.
 */
export async function payoutQueue(query: PayoutQueueQuery, pageSize = PAYOUT_QUEUE_PAGE_SIZE): Promise<PayoutQueue> {
  const conditions: SQL[] = [];
  if (query.status !== "all") conditions.push(sql`r.status = ${query.status}`);
  if (query.q) conditions.push(memberSearch(query.q));
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const order = query.status === "pending" || query.status === "approved" ? sql`r.created_at asc, r.id asc` : sql`r.created_at desc, r.id desc`;
  const [rowsResult, totalsResult] = await Promise.all([
    db().execute(sql`
      select r.id, r.user_id, u.name, u.last_name, u.email, r.status, r.method,
        r.amount_micros::text as amount, r.fee_micros::text as fee, r.withholding_bps, r.withholding_micros::text as withholding,
        r.net_micros::text as net, r.reference, r.rejection_reason, r.created_at,
        coalesce(r.paid_at, r.rejected_at, r.canceled_at, r.approved_at) as decided_at,
        a.bank_last4, a.country, d.form as tax_form
      from payout_requests r
      join users u on u.id = r.user_id
      left join payout_accounts a on a.user_id = r.user_id
      left join tax_declarations d on d.user_id = r.user_id and d.superseded_at is null
      ${where}
      order by ${order}
      limit ${pageSize} offset ${(query.page - 1) * pageSize}
    `),
    db().execute(sql`
      select
        (select count(*)::int from payout_requests r join users u on u.id = r.user_id ${where}) as total,
        (select count(*)::int from payout_requests where status = 'pending') as pending_count,
        (select coalesce(sum(amount_micros), 0)::text from payout_requests where status = 'pending') as pending_micros
    `),
  ]);
  type Row = {
    id: number;
    user_id: number;
    name: string;
    last_name: string;
    email: string;
    status: PayoutStatus;
    method: PayoutMethod;
    amount: string;
    fee: string;
    withholding_bps: number;
    withholding: string;
    net: string;
    reference: string | null;
    rejection_reason: string | null;
    created_at: string | Date;
    decided_at: string | Date | null;
    bank_last4: string | null;
    country: string | null;
    tax_form: TaxForm | null;
  };
  const totals = rowsOf<{ total: number; pending_count: number; pending_micros: string }>(totalsResult)[0]!;
  const total = Number(totals.total);
  return {
    rows: rowsOf<Row>(rowsResult).map((r) => ({
      id: Number(r.id),
      memberId: Number(r.user_id),
      memberName: `${r.name} ${r.last_name}`.trim(),
      email: r.email,
      status: r.status,
      method: r.method,
      amountCents: centsText(r.amount),
      feeCents: centsText(r.fee),
      withholdingBps: Number(r.withholding_bps),
      withholdingCents: centsText(r.withholding),
      netCents: centsText(r.net),
      reference: r.reference,
      rejectionReason: r.rejection_reason,
      createdAt: isoOf(r.created_at)!,
      decidedAt: isoOf(r.decided_at),
      bankLast4: r.bank_last4,
      country: r.country,
      taxForm: r.tax_form,
    })),
    total,
    page: query.page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
    pendingCount: Number(totals.pending_count),
    pendingCents: centsText(totals.pending_micros),
  };
}

/* ------------------------------------------------------------------ decisions, with the member told live */

/** Approves and pays a manual request (the transfer's reference), then notifies the member. */
export async function payManualAndNotify(actor: Pick<User, "id" | "acctType">, requestId: number, reference: unknown): Promise<PayoutRequestView> {
  const paid = await payManualPayoutRequest(actor, requestId, reference);
  await notifyMember(paid.userId, {
    type: "PayoutPaid",
    message: `Your payout request #${paid.id} was paid: ${formatCents(microsToCentsFloor(paid.netMicros))} sent by bank transfer (reference ${paid.reference}).`,
    color: "green",
    routeName: "member-royalty-payment-requests",
    resourceId: paid.id,
  });
  return paid;
}

/** Rejects a request with a reason (the reservation is released), then notifies the member. */
export async function rejectAndNotify(actor: Pick<User, "id" | "acctType">, requestId: number, reason: unknown): Promise<PayoutRequestView> {
  const rejected = await rejectPayoutRequest(actor, requestId, reason);
  await notifyMember(rejected.userId, {
    type: "PayoutRejected",
    message: `Your payout request #${rejected.id} for ${formatCents(microsToCentsFloor(rejected.amountMicros))} was rejected: ${rejected.rejectionReason}. The amount is available again.`,
    color: "red",
    routeName: "member-royalty-payment-requests",
    resourceId: rejected.id,
  });
  return rejected;
}

/* ------------------------------------------------------------------ payment accounts */

export interface PaymentAccountsQuery {
  q: string;
  method: PayoutMethod | "";
  page: number;
}

export function parsePaymentAccountsQuery(params: URLSearchParams): PaymentAccountsQuery {
  const method = params.get("method");
  const page = Number(params.get("page") ?? 1);
  return {
    q: (params.get("q") ?? "").trim().slice(0, 100),
    method: method === "manual" || method === "stripe" ? method : "",
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

export interface PaymentAccountRow {
  memberId: number;
  memberName: string;
  email: string;
  /** Null when the member has declared a tax status but not chosen a method yet. */
  method: PayoutMethod | null;
  country: string | null;
  bankLast4: string | null;
  stripeOnboardingStatus: StripeOnboardingStatus | null;
  /** The member's Stripe connected account (acct_…), for the admin refresh page's link. */
  stripeAccountId: string | null;
  tax: { form: TaxForm; country: string; tinLast4: string; signedAt: string } | null;
  withholdingBps: number;
  updatedAt: string;
}

export interface PaymentAccountsList {
  rows: PaymentAccountRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** Members with a payout account or a tax declaration, most recently changed first. Last 4 only, never the details. */
export async function paymentAccounts(query: PaymentAccountsQuery, pageSize = PAYOUT_ACCOUNTS_PAGE_SIZE): Promise<PaymentAccountsList> {
  const conditions: SQL[] = [sql`(a.id is not null or d.id is not null)`];
  if (query.method) conditions.push(sql`a.method = ${query.method}`);
  if (query.q) conditions.push(memberSearch(query.q));
  const where = sql`where ${sql.join(conditions, sql` and `)}`;
  const from = sql`
    from users u
    left join payout_accounts a on a.user_id = u.id
    left join tax_declarations d on d.user_id = u.id and d.superseded_at is null`;
  const [rowsResult, totalResult] = await Promise.all([
    db().execute(sql`
      select u.id, u.name, u.last_name, u.email, a.method, a.country, a.bank_last4, a.stripe_account_id, a.stripe_onboarding_status,
        d.form, d.country as declared, d.tin_last4, d.signed_at,
        greatest(a.updated_at, d.signed_at) as changed_at
      ${from} ${where}
      order by changed_at desc nulls last, u.id desc
      limit ${pageSize} offset ${(query.page - 1) * pageSize}
    `),
    db().execute(sql`select count(*)::int as total ${from} ${where}`),
  ]);
  type Row = {
    id: number;
    name: string;
    last_name: string;
    email: string;
    method: PayoutMethod | null;
    country: string | null;
    bank_last4: string | null;
    stripe_account_id: string | null;
    stripe_onboarding_status: StripeOnboardingStatus | null;
    form: TaxForm | null;
    declared: string | null;
    tin_last4: string | null;
    signed_at: string | Date | null;
    changed_at: string | Date;
  };
  const total = Number(rowsOf<{ total: number }>(totalResult)[0]!.total);
  return {
    rows: rowsOf<Row>(rowsResult).map((r) => {
      const tax =
        r.form && r.declared && r.tin_last4 && r.signed_at ? { form: r.form, country: r.declared, tinLast4: r.tin_last4, signedAt: isoOf(r.signed_at)! } : null;
      return {
        memberId: Number(r.id),
        memberName: `${r.name} ${r.last_name}`.trim(),
        email: r.email,
        method: r.method,
        country: r.country,
        bankLast4: r.bank_last4,
        stripeOnboardingStatus: r.method ? r.stripe_onboarding_status : null,
        stripeAccountId: r.stripe_account_id,
        tax: tax && { form: tax.form, country: tax.country, tinLast4: tax.tinLast4, signedAt: tax.signedAt },
        withholdingBps: withholdingBps({ country: r.country, declaration: tax ? { form: tax.form, country: tax.country } : null }),
        updatedAt: isoOf(r.changed_at)!,
      };
    }),
    total,
    page: query.page,
    pageSize,
    pageCount: pageCountFor(total, pageSize),
  };
}
