import { desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { appConfig, payoutRequests, type PayoutMethod, type PayoutRequest, type PayoutStatus, type User } from "~/db/schema";
import { isAdminAccount } from "~/modules/accounts/roles";
import { Accounts, type AccountKey } from "~/modules/ledger/accounts.server";
import { postEntry } from "~/modules/ledger/journal.server";
import { centsToMicros, formatCents, formatMicros, microsToCentsFloor, MoneyParseError, parseDollarsToCents } from "~/modules/ledger/money";
import { claimIdempotencyKey } from "~/modules/accounts/tokens.server";
import { taxStatusOf } from "./payout-accounts.server";
import { PayoutError } from "./payout-errors";
import { parseMethodFees, parseMinPayoutCents, parsePaySchedule, simulatePayout, type PayoutConfig, type PayoutSimulation } from "./payout-math";

export { PayoutError };

/**
 * Payout requests (docs/money.md "Money out", decision 018). Every step is a ledger entry:
 *
 * - request: `payout_reserve` moves the amount from the member's earnings to their payouts_reserved account,
 *   in the transaction that checks the balance, under a per-member advisory lock: concurrent requests are
 *   serialised, and each sees what the one before it reserved;
 * - cancel (the member) and reject (an administrator): `payout_release` reverses the reservation
 *   (reserved back to earnings; it names the reservation in reverses_entry_id);
 * - pay (an administrator): `payout_payment` takes the amount out of payouts_reserved into payouts_paid (the
 *   net), the member's withholding account (the tax withheld) and payout_fees (the method's fee), each its
 *   own posting.
 *
 * So the earnings account's balance is what is still available to request (income less everything reserved
 * or paid), and "available" is that balance rounded down to whole cents.
 */

/** The two-key advisory lock namespace for a member's payouts (the ledger's import lock is a one-key lock). */
export const PAYOUT_MEMBER_LOCK = 727_011;

export async function lockMemberPayouts(tx: Db, memberId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PAYOUT_MEMBER_LOCK}::int, ${memberId}::int)`);
}

const withholdingAccount = (userId: number): AccountKey => ({ kind: "withholding", userId });
const payoutFeesAccount = (): AccountKey => ({ kind: "payout_fees" });

/* ------------------------------------------------------------------ config */

export const PAYOUT_CONFIG_KEYS = ["min_payout_cents", "payout_fees", "pay_schedule"] as const;

/** The config's payout settings (read fresh: a money check must not use a stale minimum). One statement. */
export async function payoutConfig(executor: Db = db()): Promise<PayoutConfig> {
  const rows = await executor
    .select({ key: appConfig.key, value: appConfig.value })
    .from(appConfig)
    .where(inArray(appConfig.key, [...PAYOUT_CONFIG_KEYS]));
  const values = Object.fromEntries(rows.map((r) => [r.key, r.value])) as Record<string, unknown>;
  return {
    minPayoutCents: parseMinPayoutCents(values.min_payout_cents),
    fees: parseMethodFees(values.payout_fees),
    schedule: parsePaySchedule(values.pay_schedule),
  };
}

/* ------------------------------------------------------------------ balances */

/** The member's earnings balance in micro-units (income less what is reserved or paid), from posting_rollups. */
export async function earningsBalanceMicros(memberId: number, executor: Db = db()): Promise<bigint> {
  const result = await executor.execute(sql`
    select coalesce(sum(ps.amount_micros), 0)::text as balance
    from ledger_accounts a join posting_rollups ps on ps.account_id = a.id and ps.dim = ''
    where a.user_id = ${memberId} and a.kind = 'earnings' and a.currency = 'USD'
  `);
  return BigInt((result as unknown as { rows: Array<{ balance: string }> }).rows[0]!.balance);
}

/** What the member may request: earnings minus reserved (and paid), rounded down to whole cents. */
export async function availableCents(memberId: number, executor: Db = db()): Promise<bigint> {
  return microsToCentsFloor(await earningsBalanceMicros(memberId, executor));
}

/* ------------------------------------------------------------------ requests */

export interface PayoutRequestView {
  id: number;
  userId: number;
  status: PayoutStatus;
  method: PayoutMethod;
  currency: string;
  amountMicros: bigint;
  feeMicros: bigint;
  withholdingBps: number;
  withholdingMicros: bigint;
  netMicros: bigint;
  reference: string | null;
  rejectionReason: string | null;
  createdAt: Date;
  approvedAt: Date | null;
  paidAt: Date | null;
  rejectedAt: Date | null;
  canceledAt: Date | null;
  reserveEntryId: number | null;
  releaseEntryId: number | null;
  paymentEntryId: number | null;
  /** What the provider took back of the net (a Stripe transfer reversal), and the last reversal's entry. */
  reversedMicros: bigint;
  reversedAt: Date | null;
  reversalEntryId: number | null;
}

const view = (r: PayoutRequest): PayoutRequestView => ({
  id: r.id,
  userId: r.userId,
  status: r.status,
  method: r.method,
  currency: r.currency,
  amountMicros: r.amountMicros,
  feeMicros: r.feeMicros,
  withholdingBps: r.withholdingBps,
  withholdingMicros: r.withholdingMicros,
  netMicros: r.netMicros,
  reference: r.reference,
  rejectionReason: r.rejectionReason,
  createdAt: r.createdAt,
  approvedAt: r.approvedAt,
  paidAt: r.paidAt,
  rejectedAt: r.rejectedAt,
  canceledAt: r.canceledAt,
  reserveEntryId: r.reserveEntryId,
  releaseEntryId: r.releaseEntryId,
  paymentEntryId: r.paymentEntryId,
  reversedMicros: r.reversedMicros,
  reversedAt: r.reversedAt,
  reversalEntryId: r.reversalEntryId,
});

/** Checks and parses the form's `amount` (dollars and cents) into cents, with the field's messages. */
export function parseRequestedAmount(input: unknown): bigint {
  if (typeof input !== "string" || input.trim() === "") throw new PayoutError(400, "Enter an amount such as 12.34.", "amount");
  let cents: bigint;
  try {
    cents = parseDollarsToCents(input);
  } catch (error) {
    if (error instanceof MoneyParseError) throw new PayoutError(400, error.message, "amount");
    throw error;
  }
  if (cents <= 0n) throw new PayoutError(400, "Enter an amount above zero.", "amount");
  return cents;
}

/** What the request form previews without reserving anything: the simulation and the reason it would be refused, if any. */
export async function previewPayout(actor: Pick<User, "id">, memberId: number, amount: unknown, now = new Date()) {
  if (actor.id !== memberId) throw new PayoutError(404, "This member does not exist.");
  const cents = parseRequestedAmount(amount);
  const [config, status, available] = await Promise.all([payoutConfig(), taxStatusOf(memberId), availableCents(memberId)]);
  const simulation = simulatePayout(cents, status.method ?? "manual", status, config, now);
  return { simulation, problem: requestProblem(cents, available, config, status.method, simulation, status.stripeReady) };
}

function requestProblem(
  cents: bigint,
  available: bigint,
  config: PayoutConfig,
  method: PayoutMethod | null,
  simulation: PayoutSimulation,
  stripeReady = false,
): PayoutError | null {
  if (cents < config.minPayoutCents) return new PayoutError(400, `The minimum payout is ${formatCents(config.minPayoutCents)}.`, "amount");
  if (cents > available) {
    return new PayoutError(
      400,
      available > 0n ? `You can request at most ${formatCents(available)}, your available balance.` : "Your available balance is $0.00.",
      "amount",
    );
  }
  if (method === null) return new PayoutError(400, "Choose how you are paid (Payouts) before requesting a payout.", "amount");
  if (method === "stripe" && !stripeReady) return new PayoutError(400, "Finish setting up Stripe (Payouts) before requesting a payout.", "amount");
  if (simulation.netCents <= 0n) return new PayoutError(400, "After the fee and withholding nothing would be paid: request a larger amount.", "amount");
  return null;
}

/**
 * A member requests a payout of `amount` (dollars and cents). Only the member themself (404 for anyone else).
 * Refused with a 400 beside the field, reserving nothing, when malformed, below the minimum or over the
 * available balance. The balance check and the reservation happen under the member's lock in one transaction.
 */
/** A request form submitted again with the key of one already made (PayoutError's status). */
export const ALREADY_REQUESTED = 409;

/**
 * Reserves a payout request. `idempotencyKey` is the request form's hidden single-use key: the same form submitted
 * twice (a double click without JavaScript, a reload, the back button) reserves once; the second answers
 * PayoutError 409 with ALREADY_REQUESTED_MESSAGE and changes nothing. Without a key (the JSON contract's callers),
 * every call is a new request.
 */
export async function requestPayout(
  actor: Pick<User, "id">,
  memberId: number,
  amount: unknown,
  options: { now?: Date; idempotencyKey?: string } = {},
): Promise<PayoutRequestView> {
  const now = options.now ?? new Date();
  if (actor.id !== memberId) throw new PayoutError(404, "This member does not exist.");
  const cents = parseRequestedAmount(amount);
  return db().transaction(async (tx) => {
    await lockMemberPayouts(tx, memberId);
    // Under the member's lock: two submissions of one form at once meet here one after the other.
    if (options.idempotencyKey && !(await claimIdempotencyKey(tx, memberId, "payout-request", options.idempotencyKey))) {
      throw new PayoutError(ALREADY_REQUESTED, ALREADY_REQUESTED_MESSAGE);
    }
    const config = await payoutConfig(tx);
    const status = await taxStatusOf(memberId, tx);
    const available = await availableCents(memberId, tx);
    const simulation = simulatePayout(cents, status.method ?? "manual", status, config, now);
    const problem = requestProblem(cents, available, config, status.method, simulation, status.stripeReady);
    if (problem) throw problem;
    const amountMicros = centsToMicros(cents);
    const [created] = await tx
      .insert(payoutRequests)
      .values({
        userId: memberId,
        amountMicros,
        method: status.method!,
        feeMicros: centsToMicros(simulation.feeCents),
        withholdingBps: simulation.withholdingBps,
        withholdingMicros: centsToMicros(simulation.withholdingCents),
        netMicros: centsToMicros(simulation.netCents),
      })
      .returning();
    const entryId = await postEntry(tx, {
      kind: "payout_reserve",
      memo: `Payout request #${created!.id} reserved`,
      createdBy: actor.id,
      postings: [
        { account: Accounts.earnings(memberId), amountMicros: -amountMicros },
        { account: Accounts.payoutsReserved(memberId), amountMicros },
      ],
    });
    const [row] = await tx.update(payoutRequests).set({ reserveEntryId: entryId }).where(eq(payoutRequests.id, created!.id)).returning();
    return view(row!);
  });
}

const NO_REQUEST = "This payout request does not exist.";
export const ALREADY_REQUESTED_MESSAGE = "This request was sent already: it is in your requests below, and nothing more was reserved.";

/**
 * Loads a request for a change, under its member's lock and a row lock, checking who may act. A request the
 * actor may not see is 404, as if it did not exist.
 */
async function lockRequest(tx: Db, requestId: number, may: (request: PayoutRequest) => boolean): Promise<PayoutRequest> {
  if (!Number.isInteger(requestId) || requestId <= 0 || requestId > 2_147_483_647) throw new PayoutError(404, NO_REQUEST);
  const [owner] = await tx.select({ userId: payoutRequests.userId }).from(payoutRequests).where(eq(payoutRequests.id, requestId));
  if (!owner) throw new PayoutError(404, NO_REQUEST);
  await lockMemberPayouts(tx, owner.userId);
  const [request] = await tx.select().from(payoutRequests).where(eq(payoutRequests.id, requestId)).for("update");
  if (!request || !may(request)) throw new PayoutError(404, NO_REQUEST);
  return request;
}

const statusWord: Record<PayoutStatus, string> = {
  pending: "pending",
  approved: "approved",
  paid: "paid",
  rejected: "rejected",
  canceled: "canceled",
  reversed: "reversed",
};

async function release(tx: Db, request: PayoutRequest, actorId: number, why: "canceled" | "rejected"): Promise<number | null> {
  return postEntry(tx, {
    kind: "payout_release",
    memo: `Payout request #${request.id} ${why}: reservation released`,
    reversesEntryId: request.reserveEntryId,
    createdBy: actorId,
    postings: [
      { account: Accounts.payoutsReserved(request.userId), amountMicros: -request.amountMicros },
      { account: Accounts.earnings(request.userId), amountMicros: request.amountMicros },
    ],
  });
}

/** The member cancels their own pending request; the reservation is released. */
export async function cancelPayoutRequest(actor: Pick<User, "id">, requestId: number): Promise<PayoutRequestView> {
  return db().transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, (r) => r.userId === actor.id);
    if (request.status !== "pending") throw new PayoutError(409, `This request is ${statusWord[request.status]}: only a pending request can be canceled.`);
    const entryId = await release(tx, request, actor.id, "canceled");
    const now = new Date();
    const [row] = await tx
      .update(payoutRequests)
      .set({ status: "canceled", canceledAt: now, updatedAt: now, releaseEntryId: entryId })
      .where(eq(payoutRequests.id, request.id))
      .returning();
    return view(row!);
  });
}

function requireAdmin(actor: Pick<User, "id" | "acctType">) {
  if (!isAdminAccount(actor)) throw new PayoutError(404, NO_REQUEST);
}

/** An administrator rejects a pending or approved (not yet paid) request with a reason; the reservation is released. */
export async function rejectPayoutRequest(actor: Pick<User, "id" | "acctType">, requestId: number, reason: unknown): Promise<PayoutRequestView> {
  requireAdmin(actor);
  const text = typeof reason === "string" ? reason.trim() : "";
  if (text.length < 3 || text.length > 500) throw new PayoutError(400, "Give the member a reason (3 to 500 characters).", "reason");
  return db().transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, () => true);
    if (request.status !== "pending" && request.status !== "approved") throw new PayoutError(409, `This request is ${statusWord[request.status]} already.`);
    const entryId = await release(tx, request, actor.id, "rejected");
    const now = new Date();
    const [row] = await tx
      .update(payoutRequests)
      .set({ status: "rejected", rejectionReason: text, rejectedAt: now, updatedAt: now, decidedBy: actor.id, releaseEntryId: entryId })
      .where(eq(payoutRequests.id, request.id))
      .returning();
    return view(row!);
  });
}

/** An administrator approves a pending request (for a provider that pays later, e.g. Stripe); nothing moves yet. */
export async function approvePayoutRequest(actor: Pick<User, "id" | "acctType">, requestId: number): Promise<PayoutRequestView> {
  requireAdmin(actor);
  return db().transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, () => true);
    if (request.status !== "pending") throw new PayoutError(409, `This request is ${statusWord[request.status]} already.`);
    const now = new Date();
    const [row] = await tx
      .update(payoutRequests)
      .set({ status: "approved", approvedAt: now, updatedAt: now, decidedBy: actor.id })
      .where(eq(payoutRequests.id, request.id))
      .returning();
    return view(row!);
  });
}

/**
 * Records a payment: reserved -> paid (net), withholding and the method fee, each its own posting. The fee and
 * withholding are worked out again at payment from the member's tax status then (a W-9 sent after the request
 * counts; a declaration withdrawn meanwhile counts too), so the request row ends with what was really paid.
 */
async function pay(tx: Db, request: PayoutRequest, actorId: number | null, send: string | PaymentSender, now: Date): Promise<PayoutRequestView> {
  const [config, status] = [await payoutConfig(tx), await taxStatusOf(request.userId, tx)];
  const simulation = simulatePayout(microsToCentsFloor(request.amountMicros), request.method, status, config, now);
  if (simulation.netCents <= 0n) throw new PayoutError(409, "After the fee and withholding nothing would be paid: reject this request instead.");
  // A provider moves the net now, under the member's lock and the request's row lock, and answers its reference.
  const reference = typeof send === "string" ? send : await send(request, simulation, tx);
  const fee = centsToMicros(simulation.feeCents);
  const withheld = centsToMicros(simulation.withholdingCents);
  const net = centsToMicros(simulation.netCents);
  const entryId = await postEntry(tx, {
    kind: "payout_payment",
    memo: `Payout request #${request.id} paid (${request.method}, reference ${reference})`,
    createdBy: actorId,
    postings: [
      { account: Accounts.payoutsReserved(request.userId), amountMicros: -request.amountMicros },
      { account: Accounts.payoutsPaid(request.userId), amountMicros: net },
      { account: withholdingAccount(request.userId), amountMicros: withheld },
      { account: payoutFeesAccount(), amountMicros: fee },
    ],
  });
  const [row] = await tx
    .update(payoutRequests)
    .set({
      status: "paid",
      reference,
      feeMicros: fee,
      withholdingBps: simulation.withholdingBps,
      withholdingMicros: withheld,
      netMicros: net,
      approvedAt: request.approvedAt ?? now,
      paidAt: now,
      updatedAt: now,
      decidedBy: actorId,
      paymentEntryId: entryId,
    })
    .where(eq(payoutRequests.id, request.id))
    .returning();
  return view(row!);
}

/** An administrator approves and pays a manual request, recording the bank transfer's reference. */
export async function payManualPayoutRequest(
  actor: Pick<User, "id" | "acctType">,
  requestId: number,
  reference: unknown,
  now = new Date(),
): Promise<PayoutRequestView> {
  requireAdmin(actor);
  const text = typeof reference === "string" ? reference.trim() : "";
  if (text.length < 3 || text.length > 120) throw new PayoutError(400, "Enter the transfer's reference (3 to 120 characters).", "reference");
  return db().transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, () => true);
    if (request.status !== "pending" && request.status !== "approved") throw new PayoutError(409, `This request is ${statusWord[request.status]} already.`);
    if (request.method !== "manual") throw new PayoutError(409, "This request is paid through Stripe, not by a manual transfer.");
    return pay(tx, request, actor.id, text, now);
  });
}

/**
 * Moves a provider's money for a request and answers the reference to record (a Stripe transfer id). It runs
 * inside the payment's transaction, holding the member's lock and the request's row lock, so a request is
 * sent once at a time; it must itself be idempotent per request (a retry after a failure may call it again).
 */
export type PaymentSender = (request: PayoutRequest, simulation: PayoutSimulation, tx: Db) => Promise<string>;

/**
 * Pays a pending or approved request through its provider (Stripe): `send` moves the net, then the same
 * `payout_payment` entry as a manual payment is posted with the provider's reference. `actorId` is the
 * administrator (the caller checks who may act), or null when Stripe's own event records a transfer.
 * `executor` lets a caller's transaction (a webhook's) hold it, as a savepoint.
 */
export async function payThroughProvider(
  actorId: number | null,
  requestId: number,
  method: PayoutMethod,
  send: PaymentSender,
  options: { now?: Date; executor?: Db } = {},
): Promise<PayoutRequestView> {
  return (options.executor ?? db()).transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, () => true);
    if (request.status !== "pending" && request.status !== "approved") throw new PayoutError(409, `This request is ${statusWord[request.status]} already.`);
    if (request.method !== method) throw new PayoutError(409, `This request is paid by ${request.method === "manual" ? "a manual transfer" : "Stripe"}.`);
    return pay(tx, request, actorId, send, options.now ?? new Date());
  });
}

/**
 * The provider took back (part of) what it paid: a Stripe transfer reversal. `reversedTotalMicros` is the
 * cumulative amount reversed so far (Stripe's `amount_reversed`); only what is new is posted, so the same
 * reversal told twice changes nothing. A partial reversal moves that much of the net from payouts_paid back
 * to earnings; once the whole net is reversed the rest of the payment is undone too (withholding and fee back),
 * the request becomes `reversed` and its whole amount is available again.
 */
export async function reversePaidPayout(
  requestId: number,
  reversedTotalMicros: bigint,
  reference: string,
  options: { now?: Date; executor?: Db } = {},
): Promise<PayoutRequestView | null> {
  return (options.executor ?? db()).transaction(async (tx) => {
    const request = await lockRequest(tx, requestId, () => true);
    if (request.status !== "paid" || reversedTotalMicros <= request.reversedMicros) return null;
    const total = reversedTotalMicros > request.netMicros ? request.netMicros : reversedTotalMicros;
    const delta = total - request.reversedMicros;
    const full = total === request.netMicros;
    const postings = full
      ? [
          { account: Accounts.payoutsPaid(request.userId), amountMicros: -delta },
          { account: withholdingAccount(request.userId), amountMicros: -request.withholdingMicros },
          { account: payoutFeesAccount(), amountMicros: -request.feeMicros },
          { account: Accounts.earnings(request.userId), amountMicros: delta + request.withholdingMicros + request.feeMicros },
        ]
      : [
          { account: Accounts.payoutsPaid(request.userId), amountMicros: -delta },
          { account: Accounts.earnings(request.userId), amountMicros: delta },
        ];
    const entryId = await postEntry(tx, {
      kind: "payout_reversal",
      memo: `Payout request #${request.id} ${full ? "reversed" : "partly reversed"} by the provider (${reference}): ${formatMicros(delta)} back to earnings`,
      reversesEntryId: request.paymentEntryId,
      postings,
    });
    const now = options.now ?? new Date();
    const [row] = await tx
      .update(payoutRequests)
      .set({ reversedMicros: total, reversalEntryId: entryId, reversedAt: now, updatedAt: now, ...(full ? { status: "reversed" as const } : {}) })
      .where(eq(payoutRequests.id, request.id))
      .returning();
    return view(row!);
  });
}

/* ------------------------------------------------------------------ reading */

/** The member's requests, newest first (the member themself or an administrator; 404 otherwise). */
export async function listMemberPayoutRequests(actor: Pick<User, "id" | "acctType">, memberId: number, limit = 100): Promise<PayoutRequestView[]> {
  if (actor.id !== memberId && !isAdminAccount(actor)) throw new PayoutError(404, "This member does not exist.");
  const rows = await db()
    .select()
    .from(payoutRequests)
    .where(eq(payoutRequests.userId, memberId))
    .orderBy(desc(payoutRequests.createdAt), desc(payoutRequests.id))
    .limit(limit);
  return rows.map(view);
}

/** One request as GET /api/members/{id}/royalties-report/payments answers it (docs/money.md amounts: six-decimal strings). */
export interface PaymentRequestJson {
  id: number;
  memberId: number;
  status: PayoutStatus;
  method: PayoutMethod;
  currency: string;
  amount: string;
  fee: string;
  withholding: string;
  withholding_rate_bps: number;
  net: string;
  reference: string | null;
  rejection_reason: string | null;
  requested_at: string;
  approved_at: string | null;
  paid_at: string | null;
  rejected_at: string | null;
  canceled_at: string | null;
  /** What the provider took back of the net (Stripe transfer reversals), and when. */
  reversed: string;
  reversed_at: string | null;
  /** The journal entries behind it: the reservation, its release (canceled or rejected) and the payment. */
  entries: { reserve: number | null; release: number | null; payment: number | null };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function paymentRequestJson(r: PayoutRequestView): PaymentRequestJson {
  return {
    id: r.id,
    memberId: r.userId,
    status: r.status,
    method: r.method,
    currency: r.currency,
    amount: formatMicros(r.amountMicros),
    fee: formatMicros(r.feeMicros),
    withholding: formatMicros(r.withholdingMicros),
    withholding_rate_bps: r.withholdingBps,
    net: formatMicros(r.netMicros),
    reference: r.reference,
    rejection_reason: r.rejectionReason,
    requested_at: r.createdAt.toISOString(),
    approved_at: iso(r.approvedAt),
    paid_at: iso(r.paidAt),
    rejected_at: iso(r.rejectedAt),
    canceled_at: iso(r.canceledAt),
    reversed: formatMicros(r.reversedMicros),
    reversed_at: iso(r.reversedAt),
    entries: { reserve: r.reserveEntryId, release: r.releaseEntryId, payment: r.paymentEntryId },
  };
}
