import { and, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { db, type Db } from "~/db/client.server";
import { payoutAccounts, type PayoutAccount, type StripeOnboardingStatus, type User } from "~/db/schema";
import { env } from "~/env.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { notifyMember } from "~/modules/notifications/notifications.server";
import { PayoutError } from "../payout-errors";
import { lockMemberPayouts, payThroughProvider, type PayoutRequestView } from "../payouts.server";
import { requireStripe, stripeClient } from "./client.server";

/**
 * Stripe Connect Express: a member's connected account, its onboarding through account links, and
 * the transfer that pays a Stripe request. Every Stripe call goes through the official SDK (client.server.ts).
 *
 * - A member sets Stripe up: an Express account is created once (under the member's payout lock, with an
 *   idempotency key) and stored on their payout account; they are sent to a Stripe-hosted onboarding link.
 *   Its refresh_url is the member's payment-account-stripe-refresh/{accountId} page (Stripe sends them
 *   there when the link expired: a fresh link is made), its return_url the payouts-provider page.
 * - The onboarding status (none, pending, complete, restricted) is refreshed from the account itself (on
 *   those pages, and by the account.updated webhook). When it becomes complete the member's method becomes
 *   Stripe (they chose it by setting it up); saving bank details switches back to manual.
 * - An administrator pays a Stripe request: a transfer of the net to the connected account, made inside the
 *   payment's transaction (member lock, request row lock) with an idempotency key per request and found
 *   again by its transfer group, then the same `payout_payment` entry as a manual payment with the
 *   transfer id as the reference.
 */

const COUNTRY = /^[A-Z]{2}$/;
const NO_ACCOUNT = "This payout account does not exist.";
const NO_REQUEST = "This payout request does not exist.";

export const transferGroupFor = (requestId: number) => `payout_request_${requestId}`;
export const transferIdempotencyKey = (requestId: number) => `backline-payout-request-${requestId}-transfer`;

/** What an account's own fields say about its onboarding. */
export function onboardingStatusOf(account: Pick<Stripe.Account, "details_submitted" | "payouts_enabled" | "capabilities">): StripeOnboardingStatus {
  if (!account.details_submitted) return "pending";
  return account.capabilities?.transfers === "active" && account.payouts_enabled ? "complete" : "restricted";
}

function appUrl(path: string): string {
  return `${env().APP_URL}${path}`;
}

export const memberRefreshPath = (memberId: number, accountId: string) => `/member/${memberId}/payment-account-stripe-refresh/${encodeURIComponent(accountId)}`;
export const payoutsProviderPath = (memberId: number) => `/member/${memberId}/payouts-provider`;

/** A Stripe failure as the page shows it: Stripe's own message for a request it refused, never a stack. */
export function stripeFailure(error: unknown, what: string): PayoutError {
  const e = error as { type?: string; message?: string; code?: string };
  if (e && typeof e.type === "string" && e.type.startsWith("Stripe")) {
    console.error(`[stripe] ${what} failed: ${e.type}${e.code ? ` (${e.code})` : ""}: ${e.message ?? ""}`);
    if (e.type === "StripeConnectionError" || e.type === "StripeAPIError" || e.type === "StripeRateLimitError") {
      return new PayoutError(502, `Stripe could not be reached to ${what}. Nothing was changed; try again in a moment.`);
    }
    return new PayoutError(502, `Stripe refused to ${what}${e.message ? `: ${e.message}` : "."}`);
  }
  throw error;
}

async function accountOf(memberId: number, executor: Db = db()): Promise<PayoutAccount | null> {
  const [row] = await executor.select().from(payoutAccounts).where(eq(payoutAccounts.userId, memberId)).limit(1);
  return row ?? null;
}

/**
 * Stores a status read from Stripe. Becoming complete makes Stripe the member's method; nothing else changes
 * the method. Answers the row, or null when no payout account has that Stripe account.
 */
export async function applyOnboardingStatus(stripeAccountId: string, status: StripeOnboardingStatus, executor: Db = db()): Promise<PayoutAccount | null> {
  const [row] = await executor
    .update(payoutAccounts)
    .set({
      stripeOnboardingStatus: status,
      method:
        status === "complete"
          ? sql`case when ${payoutAccounts.stripeOnboardingStatus} <> 'complete' then 'stripe' else ${payoutAccounts.method} end`
          : sql`${payoutAccounts.method}`,
      updatedAt: new Date(),
    })
    .where(eq(payoutAccounts.stripeAccountId, stripeAccountId))
    .returning();
  return row ?? null;
}

async function onboardingLink(stripe: Stripe, memberId: number, accountId: string): Promise<string> {
  try {
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: "account_onboarding",
      refresh_url: appUrl(memberRefreshPath(memberId, accountId)),
      return_url: appUrl(payoutsProviderPath(memberId)),
    });
    return link.url;
  } catch (error) {
    throw stripeFailure(error, "start onboarding");
  }
}

export type OnboardingResult = { kind: "link"; url: string } | { kind: "complete"; status: StripeOnboardingStatus };

/**
 * The member sets Stripe up or continues onboarding: their Express account (made once; `country` is needed
 * only when they have no payout account yet), then a fresh onboarding link, or nothing to do when the
 * account is complete (Stripe becomes their method again if they had switched to manual).
 */
export async function startStripeOnboarding(
  actor: Pick<User, "id" | "email">,
  memberId: number,
  input: { country?: string | null } = {},
): Promise<OnboardingResult> {
  if (actor.id !== memberId) throw new PayoutError(404, "This member does not exist.");
  const stripe = stripeClient();
  if (!stripe) throw new PayoutError(404, "Stripe payouts are not offered.");
  const accountId = await db().transaction(async (tx) => {
    await lockMemberPayouts(tx, memberId);
    const existing = await accountOf(memberId, tx);
    if (existing?.stripeAccountId) return existing.stripeAccountId;
    const country = (existing?.country ?? input.country ?? "").trim().toUpperCase();
    if (!COUNTRY.test(country)) throw new PayoutError(400, "Enter your country of residence as two letters, such as US or GB.", "country");
    let account: Stripe.Account;
    try {
      account = await stripe.accounts.create(
        {
          type: "express",
          country,
          email: actor.email,
          business_type: "individual",
          capabilities: { transfers: { requested: true } },
          // Outside the US an Express account that only receives transfers takes the recipient agreement.
          ...(country === "US" ? {} : { tos_acceptance: { service_agreement: "recipient" } }),
          metadata: { backline_member_id: String(memberId) },
        },
        { idempotencyKey: `backline-member-${memberId}-express-${country}` },
      );
    } catch (error) {
      throw stripeFailure(error, "create your Stripe account");
    }
    const status = onboardingStatusOf(account);
    if (existing) {
      await tx
        .update(payoutAccounts)
        .set({ stripeAccountId: account.id, stripeOnboardingStatus: status, updatedAt: new Date() })
        .where(eq(payoutAccounts.id, existing.id));
    } else {
      await tx.insert(payoutAccounts).values({ userId: memberId, method: "stripe", country, stripeAccountId: account.id, stripeOnboardingStatus: status });
    }
    return account.id;
  });
  const account = await accountOf(memberId);
  if (account?.stripeOnboardingStatus === "complete") {
    if (account.method !== "stripe")
      await db().update(payoutAccounts).set({ method: "stripe", updatedAt: new Date() }).where(eq(payoutAccounts.id, account.id));
    return { kind: "complete", status: "complete" };
  }
  return { kind: "link", url: await onboardingLink(stripe, memberId, accountId) };
}

export interface RefreshResult {
  status: StripeOnboardingStatus;
  /** A fresh onboarding link, for the member themself when onboarding is not complete. */
  onboardingUrl: string | null;
}

/**
 * The payment-account-stripe-refresh pages: the account must be this member's (404 otherwise, and for anyone
 * but the member and administrators). Its status is read again from Stripe; the member gets a fresh
 * onboarding link while it is not complete (the one they had expired or was used).
 */
export async function refreshStripeAccount(actor: Pick<User, "id" | "acctType">, memberId: number, accountId: string): Promise<RefreshResult> {
  const own = actor.id === memberId;
  if (!own && !isAdminAccount(actor)) throw new PayoutError(404, NO_ACCOUNT);
  const stripe = stripeClient();
  if (!stripe || !/^acct_[A-Za-z0-9]{1,64}$/.test(accountId)) throw new PayoutError(404, NO_ACCOUNT);
  const [row] = await db()
    .select({ id: payoutAccounts.id })
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.userId, memberId), eq(payoutAccounts.stripeAccountId, accountId)))
    .limit(1);
  if (!row) throw new PayoutError(404, NO_ACCOUNT);
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.retrieve(accountId);
  } catch (error) {
    throw stripeFailure(error, "read your Stripe account");
  }
  const status = onboardingStatusOf(account);
  await applyOnboardingStatus(accountId, status);
  return { status, onboardingUrl: own && status !== "complete" ? await onboardingLink(stripe, memberId, accountId) : null };
}

/** What the Stripe option on payouts-provider shows (null when Stripe is off). A pending account is read again from Stripe. */
export async function stripeMethodData(actor: Pick<User, "id">, memberId: number) {
  const stripe = stripeClient();
  if (!stripe) return null;
  let account = await accountOf(memberId);
  if (account?.stripeAccountId && account.stripeOnboardingStatus !== "complete") {
    try {
      const status = onboardingStatusOf(await stripe.accounts.retrieve(account.stripeAccountId));
      if (status !== account.stripeOnboardingStatus) account = (await applyOnboardingStatus(account.stripeAccountId, status)) ?? account;
    } catch (error) {
      // The page still shows what is stored; the refresh page and the webhook catch up later.
      stripeFailure(error, "read the Stripe account");
    }
  }
  return {
    memberId,
    own: actor.id === memberId,
    accountId: account?.stripeAccountId ?? null,
    status: (account?.stripeAccountId ? account.stripeOnboardingStatus : "none") as StripeOnboardingStatus,
    active: account?.method === "stripe",
    /** A country is asked for only when the member has no payout account yet. */
    needsCountry: !account,
  };
}

/**
 * An administrator pays a Stripe request: a transfer of the net to the member's connected account, then the
 * `payout_payment` entry with the transfer id as the reference. Paying again, or retrying after a failure,
 * never makes a second transfer: the request's transfer group finds one already made, and the idempotency
 * key per request makes Stripe answer the first transfer to a retried create.
 */
export async function payStripePayoutRequest(actor: Pick<User, "id" | "acctType">, requestId: number, now = new Date()): Promise<PayoutRequestView> {
  if (!isAdminAccount(actor)) throw new PayoutError(404, NO_REQUEST);
  if (!stripeClient()) throw new PayoutError(409, "Stripe payouts are not configured (STRIPE_SECRET_KEY): this request cannot be paid here.");
  return payThroughProvider(actor.id, requestId, "stripe", (request, simulation, tx) => sendTransfer(request.id, request.userId, simulation.netCents, tx), {
    now,
  });
}

async function sendTransfer(requestId: number, memberId: number, netCents: bigint, tx: Db): Promise<string> {
  const stripe = requireStripe();
  const account = await accountOf(memberId, tx);
  if (!account?.stripeAccountId) throw new PayoutError(409, "This member has no Stripe account: reject the request, or ask them to set Stripe up.");
  if (account.stripeOnboardingStatus !== "complete")
    throw new PayoutError(409, "This member's Stripe onboarding is not complete: Stripe cannot receive the transfer yet.");
  const transferGroup = transferGroupFor(requestId);
  try {
    const made = await stripe.transfers.list({ transfer_group: transferGroup, limit: 1 });
    const earlier = made.data[0];
    if (earlier) {
      if (BigInt(earlier.amount) !== netCents || earlier.destination !== account.stripeAccountId) {
        throw new PayoutError(
          409,
          `A transfer for this request already exists (${earlier.id}) with another amount or destination: check it in Stripe before paying.`,
        );
      }
      return earlier.id;
    }
    const transfer = await stripe.transfers.create(
      {
        amount: Number(netCents),
        currency: "usd",
        destination: account.stripeAccountId,
        transfer_group: transferGroup,
        description: `Backline payout request #${requestId}`,
        metadata: { payout_request_id: String(requestId), backline_member_id: String(memberId) },
      },
      { idempotencyKey: transferIdempotencyKey(requestId) },
    );
    return transfer.id;
  } catch (error) {
    if (error instanceof PayoutError) throw error;
    throw stripeFailure(error, "make the transfer");
  }
}

/** Pays a Stripe request, then tells the member (as payManualAndNotify does). */
export async function payStripeAndNotify(actor: Pick<User, "id" | "acctType">, requestId: number): Promise<PayoutRequestView> {
  const paid = await payStripePayoutRequest(actor, requestId);
  await notifyMember(paid.userId, {
    type: "PayoutPaid",
    message: `Your payout request #${paid.id} was paid: ${formatCents(microsToCentsFloor(paid.netMicros))} sent to your Stripe account (transfer ${paid.reference}).`,
    color: "green",
    routeName: "member-royalty-payment-requests",
    resourceId: paid.id,
  });
  return paid;
}
