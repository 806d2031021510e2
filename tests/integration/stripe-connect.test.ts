import { and, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, payoutAccounts, payoutRequests, stripeWebhookEvents, users, type User } from "~/db/schema";
import { PayoutError } from "~/modules/payouts/payout-errors";
import { availableCents, requestPayout } from "~/modules/payouts/payouts.server";
import { stripeMethodData, payStripePayoutRequest, transferGroupFor } from "~/modules/payouts/stripe/stripe-connect.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { creditEarnings } from "../helpers/ledger";
import { createSignedMember } from "../helpers/factories";
import { confirmedSessionCookieFor, sessionCookieFor } from "../helpers/requests";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { useTestSettings } from "../setup/settings";

useTestDatabase();

const SECRET_KEY = "sk_test_backline_stand_in";
const WEBHOOK_SECRET = "whsec_test_backline_stand_in";

/**
 * Stripe Connect Express against the local stand-in (tests/helpers/stripe-stand-in.ts), through the real
 * request handler and the SDK: onboarding links, an expired link refreshed, account.updated, paying a
 * Stripe request (one transfer however often it is retried), transfer.reversed returning the money,
 * signatures refused, events handled once, and someone else's account id answered 404.
 */
describe("Stripe Connect payouts (stand-in)", () => {
  // Each test starts from a member of its own (onboarded by the helpers below), so one failure never
  // cascades into the next; only the stand-in and the server are shared.
  let stand: StripeStandIn;
  let server: AppServer;
  let admin: User;
  let adminCookie: string;

  beforeAll(async () => {
    stand = await startStripeStandIn();
    useTestSettings({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stand.url });
    admin = await createSignedMember("Ada");
    [admin] = await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id)).returning();
    adminCookie = await sessionCookieFor(admin.id);
    server = await startAppServer();
  });

  afterAll(async () => {
    await server?.close();
    await stand?.close();
    useTestSettings();
  });

  const post = (path: string, fields: Record<string, string>, cookie: string) => server.postForm(path, fields, cookie);
  const get = (path: string, cookie: string) => server.getAs(path, cookie);
  const webhookUrl = () => `${server.url}/api/stripe/webhooks`;
  const send = (event: Stripe.Event, target: { secret?: string; signature?: string } = {}) =>
    stand.sendEvent(event, { url: webhookUrl(), secret: WEBHOOK_SECRET, ...target });
  const accountRow = async (userId: number) => (await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)))[0];
  const requestRow = async (id: number) => (await db().select().from(payoutRequests).where(eq(payoutRequests.id, id)))[0]!;
  const accountsAtStripeOf = (member: User) => [...stand.accounts.values()].filter((a) => a.metadata.backline_member_id === String(member.id));
  const transfersTo = (accountId: string) => [...stand.transfers.values()].filter((t) => t.destination === accountId);

  /** A member with earnings and a session confirmed in the last 10 minutes (changing the payout method needs one, decision 020). */
  async function member(name: string): Promise<{ user: User; cookie: string }> {
    const user = await createSignedMember(name);
    await creditEarnings(user.id, 200_000_000n);
    return { user, cookie: await confirmedSessionCookieFor(user.id) };
  }

  /** Starts Stripe onboarding as the member; answers the Express account's id. */
  async function startOnboarding(user: User, cookie: string, country = "US"): Promise<string> {
    const started = await post(`/member/${user.id}/payment-account-stripe-onboarding`, { country }, cookie);
    expect(started.status).toBe(302);
    return (await accountRow(user.id))!.stripeAccountId!;
  }

  /** A member whose Express account finished onboarding (Stripe's account.updated received). */
  async function onboardedMember(name: string): Promise<{ user: User; cookie: string; accountId: string }> {
    const { user, cookie } = await member(name);
    const accountId = await startOnboarding(user, cookie);
    expect((await send(stand.event("account.updated", stand.completeOnboarding(accountId)))).status).toBe(200);
    return { user, cookie, accountId };
  }

  it("onboarding: an Express account once, and an account link back to the refresh and payouts pages", async () => {
    const { user: mia, cookie } = await member("Mia");
    const { cookie: otherCookie } = await member("Other");
    // Without a confirmation in the last 10 minutes: the confirm form (403), and no account at Stripe.
    expect((await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "US" }, await sessionCookieFor(mia.id))).status).toBe(403);
    expect(accountsAtStripeOf(mia)).toHaveLength(0);
    const missing = await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "U" }, cookie);
    expect(missing.status).toBe(302);
    expect(missing.headers.get("location")).toBe(`/member/${mia.id}/payouts-provider`);
    expect(accountsAtStripeOf(mia)).toHaveLength(0);

    const started = await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "us" }, cookie);
    expect(started.status).toBe(302);
    const location = started.headers.get("location")!;
    expect(location.startsWith(`${stand.url}/connect/onboarding/`)).toBe(true);
    const [account, ...more] = accountsAtStripeOf(mia);
    expect(more).toHaveLength(0);
    const accountId = account!.id;
    expect(account).toMatchObject({ type: "express", country: "US", email: mia.email, metadata: { backline_member_id: String(mia.id) } });
    const link = [...stand.links.values()].at(-1)!;
    expect(link.refreshUrl).toBe(`http://localhost:3999/member/${mia.id}/payment-account-stripe-refresh/${accountId}`);
    expect(link.returnUrl).toBe(`http://localhost:3999/member/${mia.id}/payouts-provider`);
    expect(await accountRow(mia.id)).toMatchObject({ method: "stripe", country: "US", stripeAccountId: accountId, stripeOnboardingStatus: "pending" });

    // Again: the same account, a fresh link.
    const again = await post(`/member/${mia.id}/payment-account-stripe-onboarding`, {}, cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).not.toBe(location);
    expect(accountsAtStripeOf(mia)).toHaveLength(1);

    // Nobody starts it for someone else.
    expect((await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "US" }, otherCookie)).status).toBe(404);
    expect((await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "US" }, adminCookie)).status).toBe(404);

    // A pending account cannot be paid to yet: requesting is refused beside the field.
    await expect(requestPayout(mia, mia.id, "20.00")).rejects.toMatchObject({ status: 400, field: "amount", message: expect.stringContaining("Stripe") });
  });

  it("an expired link sends the member to the refresh page, which issues a fresh link", async () => {
    const { user: mia, cookie } = await member("Mia");
    const accountId = await startOnboarding(mia, cookie);
    stand.expireLinks();
    const expired = [...stand.links.values()].at(-1)!;
    const hosted = await fetch(`${stand.url}/connect/onboarding/${expired.id}`, { redirect: "manual" });
    expect(hosted.status).toBe(302);
    expect(hosted.headers.get("location")).toBe(expired.refreshUrl);

    const linksBefore = stand.links.size;
    const refreshed = await get(`/member/${mia.id}/payment-account-stripe-refresh/${accountId}`, cookie);
    expect(refreshed.status).toBe(302);
    const fresh = refreshed.headers.get("location")!;
    expect(fresh.startsWith(`${stand.url}/connect/onboarding/`)).toBe(true);
    expect(stand.links.size).toBe(linksBefore + 1);
    const page = await fetch(fresh, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Agree and submit");
  });

  it("someone else's account id is 404 on both refresh pages", async () => {
    const { user: mia, cookie: miaCookie } = await member("Mia");
    const { user: other, cookie: otherCookie } = await member("Other");
    const accountId = await startOnboarding(mia, miaCookie);
    const otherAccount = await startOnboarding(other, otherCookie, "GB");
    expect(otherAccount).toMatch(/^acct_/);
    expect(stand.accounts.get(otherAccount)?.tos_acceptance.service_agreement).toBe("recipient");

    expect((await get(`/member/${mia.id}/payment-account-stripe-refresh/${otherAccount}`, miaCookie)).status).toBe(404);
    expect((await get(`/member/${other.id}/payment-account-stripe-refresh/${accountId}`, otherCookie)).status).toBe(404);
    expect((await get(`/member/${other.id}/payment-account-stripe-refresh/${otherAccount}`, miaCookie)).status).toBe(404);
    expect((await get(`/member/${mia.id}/payment-account-stripe-refresh/acct_unknown123`, miaCookie)).status).toBe(404);
    expect((await get(`/admin/member/${other.id}/payment-account-stripe-refresh/${accountId}`, adminCookie)).status).toBe(404);
    expect((await get(`/admin/member/${mia.id}/payment-account-stripe-refresh/${otherAccount}`, adminCookie)).status).toBe(404);
    // A member on the admin path is sent to log in as an administrator.
    expect((await get(`/admin/member/${mia.id}/payment-account-stripe-refresh/${accountId}`, miaCookie)).status).toBe(302);

    const byAdmin = await get(`/admin/member/${mia.id}/payment-account-stripe-refresh/${accountId}`, adminCookie);
    expect(byAdmin.status).toBe(302);
    expect(byAdmin.headers.get("location")).toBe("/admin/payment-accounts?method=stripe");
  });

  it("webhooks: a bad or missing signature is 400 and changes nothing; account.updated completes onboarding once", async () => {
    const { user: mia, cookie } = await member("Mia");
    const accountId = await startOnboarding(mia, cookie);
    const completed = stand.completeOnboarding(accountId);
    const event = stand.event("account.updated", completed);
    const recorded = () => db().select().from(stripeWebhookEvents).where(eq(stripeWebhookEvents.id, event.id));

    const forged = await send(event, { secret: "whsec_wrong_secret" });
    expect(forged.status).toBe(400);
    const unsigned = await fetch(webhookUrl(), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(400);
    const stale = await send(event, { signature: new Stripe(SECRET_KEY).webhooks.generateTestHeaderString({ payload: "{}", secret: WEBHOOK_SECRET }) });
    expect(stale.status).toBe(400);
    expect((await accountRow(mia.id))!.stripeOnboardingStatus).toBe("pending");
    expect(await recorded()).toHaveLength(0);

    const ok = await send(event);
    expect(ok.status).toBe(200);
    expect(await accountRow(mia.id)).toMatchObject({ method: "stripe", stripeOnboardingStatus: "complete" });
    const twice = await send(event);
    expect(twice.status).toBe(200);
    expect(JSON.parse(twice.body)).toMatchObject({ received: true, duplicate: true });
    expect(await recorded()).toHaveLength(1);

    const data = await stripeMethodData(mia, mia.id);
    expect(data).toMatchObject({ accountId, status: "complete", active: true });
    // Complete: the refresh page sends the member back to payouts-provider, no new link.
    const refreshed = await get(`/member/${mia.id}/payment-account-stripe-refresh/${accountId}`, cookie);
    expect(refreshed.headers.get("location")).toBe(`/member/${mia.id}/payouts-provider`);
  });

  it("webhooks: a signed event whose id, type or data.object is null or missing is 400, records nothing and logs one line", async () => {
    const { user, cookie } = await member("Mia");
    const accountId = await startOnboarding(user, cookie);
    const base = stand.event("account.updated", stand.completeOnboarding(accountId)) as unknown as Record<string, unknown>;
    const broken: Array<[string, unknown]> = [
      ["data.object null", { ...base, data: { object: null } }],
      ["data.object missing", { ...base, data: {} }],
      ["data null", { ...base, data: null }],
      ["data.object without its id", { ...base, data: { object: { object: "account" } } }],
      ["id null", { ...base, id: null }],
      ["id missing", { ...base, id: undefined }],
      ["type null", { ...base, type: null }],
      ["type missing", { ...base, type: undefined }],
      ["the event null", null],
    ];
    // The log lines are read as written (a spy, nothing replaced).
    const warn = vi.spyOn(console, "warn");
    let warnings: string[];
    try {
      for (const [label, event] of broken) {
        const sent = await send(event as Stripe.Event);
        expect(sent.status, label).toBe(400);
        expect(JSON.parse(sent.body).message, label).toMatch(/^Malformed event: /);
      }
      warnings = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("stripe webhook refused"));
    } finally {
      warn.mockRestore();
    }
    expect(warnings).toHaveLength(broken.length);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn", message: "stripe webhook refused", reason: "no data.object", event: base.id });
    expect(
      await db()
        .select()
        .from(stripeWebhookEvents)
        .where(eq(stripeWebhookEvents.id, base.id as string)),
    ).toHaveLength(0);
  });

  it("paying a Stripe request makes exactly one transfer of the net, even when retried", async () => {
    const { user: mia, accountId } = await onboardedMember("Mia");
    const before = await availableCents(mia.id);
    const request = await requestPayout(mia, mia.id, "50.00");
    expect(request.method).toBe("stripe");
    await expect(payStripePayoutRequest(mia, request.id)).rejects.toMatchObject({ status: 404 });

    // The first answer is lost on the wire: the SDK retries with the same idempotency key and Stripe replays it.
    const requestsBefore = stand.requests.length;
    stand.dropNextTransferResponse();
    const paid = await payStripePayoutRequest(admin, request.id);
    expect(transfersTo(accountId)).toHaveLength(1);
    const [transfer] = transfersTo(accountId);
    expect(paid).toMatchObject({ status: "paid", reference: transfer!.id });
    expect(BigInt(transfer!.amount) * 10_000n).toBe(paid.netMicros);
    expect(transfer).toMatchObject({
      destination: accountId,
      currency: "usd",
      transfer_group: transferGroupFor(request.id),
      metadata: { payout_request_id: String(request.id) },
    });
    const keys = stand.requests
      .slice(requestsBefore)
      .filter((r) => r.method === "POST" && r.path === "/v1/transfers")
      .map((r) => r.idempotencyKey);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);

    // Paying again: 409, no second transfer; Stripe's transfer.created for it changes nothing.
    await expect(payStripePayoutRequest(admin, request.id)).rejects.toBeInstanceOf(PayoutError);
    expect(transfersTo(accountId)).toHaveLength(1);
    expect((await send(stand.event("transfer.created", transfer))).status).toBe(200);
    expect((await requestRow(request.id)).paymentEntryId).toBe(paid.paymentEntryId);
    expect(await availableCents(mia.id)).toBe(before - 5000n);
  });

  it("a transfer made but not recorded (the app stopped) is recorded by transfer.created, and never made twice", async () => {
    const { user: mia, accountId } = await onboardedMember("Mia");
    const request = await requestPayout(mia, mia.id, "30.00");
    const stripe = new Stripe(SECRET_KEY, { host: "127.0.0.1", port: stand.port, protocol: "http" });
    // The net the payment will compute: amount - Stripe fee ($0.25 + 0.25%) - 24% US backup withholding.
    const net = Number(request.netMicros / 10_000n);
    const transfer = await stripe.transfers.create({
      amount: net,
      currency: "usd",
      destination: accountId,
      transfer_group: transferGroupFor(request.id),
      metadata: { payout_request_id: String(request.id) },
    });
    // The administrator pays: the existing transfer is found by its group, not made again.
    const retried = await payStripePayoutRequest(admin, request.id);
    expect(retried.reference).toBe(transfer.id);
    expect(transfersTo(accountId)).toHaveLength(1);

    // And a request whose payment was lost is recorded from the event alone.
    const third = await requestPayout(mia, mia.id, "20.00");
    const lost = await stripe.transfers.create({
      amount: Number(third.netMicros / 10_000n),
      currency: "usd",
      destination: accountId,
      transfer_group: transferGroupFor(third.id),
      metadata: { payout_request_id: String(third.id) },
    });
    expect((await send(stand.event("transfer.created", lost))).status).toBe(200);
    expect(await requestRow(third.id)).toMatchObject({ status: "paid", reference: lost.id });
    await expect(payStripePayoutRequest(admin, third.id)).rejects.toMatchObject({ status: 409 });
    expect(transfersTo(accountId)).toHaveLength(2);
  });

  it("transfer.reversed returns the whole amount to the member's earnings, once", async () => {
    const { user: mia, accountId } = await onboardedMember("Mia");
    const request = await requestPayout(mia, mia.id, "50.00");
    await payStripePayoutRequest(admin, request.id);
    const [transfer] = transfersTo(accountId);
    const before = await availableCents(mia.id);
    const paid = await requestRow(request.id);
    const reversed = stand.reverseTransfer(transfer!.id);
    const event = stand.event("transfer.reversed", reversed);
    expect((await send(event)).status).toBe(200);
    const row = await requestRow(request.id);
    expect(row).toMatchObject({ status: "reversed", reversedMicros: paid.netMicros });
    expect(await availableCents(mia.id)).toBe(before + paid.amountMicros / 10_000n);
    const [entry] = await db().select().from(journalEntries).where(eq(journalEntries.id, row.reversalEntryId!));
    expect(entry).toMatchObject({ kind: "payout_reversal", reversesEntryId: paid.paymentEntryId });
    // The entry undoes the payment's postings exactly (paid, withholding, fee back to earnings).
    const sums = await db().execute(sql`
      select a.kind, sum(p.amount_micros)::text as total from postings p join ledger_accounts a on a.id = p.account_id
      where p.entry_id in (${paid.paymentEntryId}, ${row.reversalEntryId}) group by a.kind order by a.kind`);
    const byKind = Object.fromEntries((sums as unknown as { rows: Array<{ kind: string; total: string }> }).rows.map((r) => [r.kind, BigInt(r.total)]));
    expect(byKind).toEqual({ earnings: paid.amountMicros, payout_fees: 0n, payouts_paid: 0n, payouts_reserved: -paid.amountMicros, withholding: 0n });

    const again = await send(event);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true });
    // A second event with the same cumulative reversal (a new id) changes nothing either.
    expect((await send(stand.event("transfer.reversed", reversed))).status).toBe(200);
    expect(await availableCents(mia.id)).toBe(before + paid.amountMicros / 10_000n);
    const reversals = await db()
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "payout_reversal"), eq(journalEntries.reversesEntryId, paid.paymentEntryId!)));
    expect(reversals).toHaveLength(1);
  });

  it("without STRIPE_SECRET_KEY the Stripe method is hidden, its pages are 404 and webhooks are refused", async () => {
    const { user: mia, accountId } = await onboardedMember("Mia");
    useTestSettings();
    try {
      expect(await stripeMethodData(mia, mia.id)).toBeNull();
      expect((await post(`/member/${mia.id}/payment-account-stripe-onboarding`, { country: "US" }, await sessionCookieFor(mia.id))).status).toBe(404);
      expect((await get(`/member/${mia.id}/payment-account-stripe-refresh/${accountId}`, await sessionCookieFor(mia.id))).status).toBe(404);
      expect((await send(stand.event("account.updated", stand.accounts.get(accountId)))).status).toBe(404);
    } finally {
      useTestSettings({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stand.url });
    }
  });
});
