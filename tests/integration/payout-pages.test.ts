import { and, eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, payoutAccounts, payoutDetailChanges, payoutRequests, users, type User } from "~/db/schema";
import { availableCents, requestPayout } from "~/modules/payouts/payouts.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { creditEarnings } from "../helpers/ledger";
import { createSignedMember } from "../helpers/factories";
import { confirmedSessionCookieFor, sessionCookieFor } from "../helpers/requests";
import { TEST_PASSWORD } from "../helpers/factories";
import { enableTwoFactorFor } from "../helpers/two-factor";
import { TWO_FACTOR_REQUIRED } from "~/modules/accounts/two-factor-rules";

useTestDatabase();

const payoutRequestRow = async (id: number) => (await db().select().from(payoutRequests).where(eq(payoutRequests.id, id)))[0]!;

/**
 * The payouts pages through the real request handler, as a browser without JavaScript posts them: the
 * member's payouts-provider (bank details, tax form), the admin queue (pay, reject) and payment accounts.
 */
describe("payout pages (no JavaScript)", () => {
  let server: AppServer;
  let mia: User;
  let other: User;
  let admin: User;
  let cookies: { mia: string; other: string; admin: string };

  beforeAll(async () => {
    mia = await createSignedMember("Mia");
    other = await createSignedMember("Other");
    admin = await createSignedMember("Ada");
    await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id));
    await creditEarnings(mia.id, 100_000_000n);
    // Payout changes need a fresh confirmation: these sessions have one; the confirm form is tested below.
    cookies = { mia: await confirmedSessionCookieFor(mia.id), other: await confirmedSessionCookieFor(other.id), admin: await sessionCookieFor(admin.id) };
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  const post = (path: string, fields: Record<string, string>, cookie: string) => server.postForm(path, fields, cookie);
  const get = (path: string, cookie: string) => server.getAs(path, cookie);
  const provider = () => `/member/${mia.id}/payouts-provider`;

  it("payouts-provider: 400 beside the field with the values kept, then bank details saved (last 4 only) and a W-9", async () => {
    const bad = await post(provider(), { intent: "bank", country: "U1", accountHolder: "Mia Tester", accountNumber: "12-34-5678-9999" }, cookies.mia);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Choose your country of tax residence.");
    expect(badHtml).toMatch(/aria-invalid="true"/);
    expect(badHtml).toContain('value="Mia Tester"');

    const missing = await post(provider(), { intent: "bank", country: "US" }, cookies.mia);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Enter the account holder&#x27;s name.");

    const saved = await post(
      provider(),
      { intent: "bank", country: "us", accountHolder: "Mia Tester", bankName: "First Bank", accountNumber: "0001-2345-6789", routingCode: "021000021" },
      cookies.mia,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`${provider()}?done=bank`);
    const [account] = await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, mia.id));
    expect(account).toMatchObject({ method: "manual", country: "US", bankLast4: "6789" });
    expect(account!.bankDetailsEncrypted).not.toContain("000123456789");

    let html = await (await get(provider(), cookies.mia)).text();
    expect(html).toContain("6789");
    expect(html).not.toContain("000123456789");
    expect(html).toContain("24%</strong> US backup withholding applies");

    const wrongForm = await post(provider(), { intent: "tax", form: "w8", legalName: "Mia Tester", country: "US", tin: "123-45-6789" }, cookies.mia);
    expect(wrongForm.status).toBe(400);
    expect(await wrongForm.text()).toContain("A W-8 is for non-US persons; choose a W-9 for the US.");

    const w9 = await post(provider(), { intent: "tax", form: "w9", legalName: "Mia Tester", country: "US", tin: "123-45-6789" }, cookies.mia);
    expect(w9.status).toBe(302);
    html = await (await get(provider(), cookies.mia)).text();
    expect(html).toContain("W-9 (US person)");
    expect(html).toContain("0%</strong>: no tax is withheld from your payouts");
    expect(html).not.toContain("123456789");
  });

  it("payouts-provider: another member gets 404 and changes nothing; an admin sees the page without the forms", async () => {
    expect((await get(provider(), cookies.other)).status).toBe(404);
    const response = await post(provider(), { intent: "bank", country: "GB", accountHolder: "Thief", accountNumber: "GB29NWBK60161331926819" }, cookies.other);
    expect(response.status).toBe(404);
    const [account] = await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, mia.id));
    expect(account!.bankLast4).toBe("6789");
    const asAdmin = await get(provider(), cookies.admin);
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain("Only the member can change how they are paid");
    expect((await post(provider(), { intent: "bank", country: "GB", accountHolder: "Ada", accountNumber: "12345678" }, cookies.admin)).status).toBe(404);
  });

  it("the admin queue: members are sent away; bad input answers 400 beside the field; pay and reject notify the member", async () => {
    const first = await requestPayout(mia, mia.id, "30.00");
    const second = await requestPayout(mia, mia.id, "20.00");
    expect(await availableCents(mia.id)).toBe(5_000n);
    const queue = "/admin/royalty-payment-requests";
    const pending = await (
      await fetch(`${server.url}/api/admin/dashboard/system-financial-summary`, { headers: { Cookie: cookies.admin, Accept: "application/json" } })
    ).json();
    expect(pending.data).toMatchObject({ pending_payouts: "50.000000", pending_payouts_cents: 5000, pending_payout_requests: 2, paid_out: "0.000000" });
    const dashboard = await (await get("/admin/dashboard", cookies.admin)).text();
    expect(dashboard).toContain('href="/admin/royalty-payment-requests"');

    // Deny by default: a member is sent to login (which sends them on to their own area) and changes nothing.
    expect((await get(queue, cookies.mia)).status).toBe(302);
    expect((await post(queue, { intent: "pay", requestId: String(first.id), reference: "TRF-1" }, cookies.mia)).status).toBe(302);

    // An administrator without two-factor authentication is refused, with the way to turn it on, and nothing moves.
    const without = await post(queue, { intent: "pay", requestId: String(first.id), reference: "TRF-1" }, cookies.admin);
    expect(without.status).toBe(403);
    const withoutHtml = await without.text();
    expect(withoutHtml).toContain(TWO_FACTOR_REQUIRED);
    expect(withoutHtml).toContain(`href="/member/${admin.id}/profile#two-factor"`);
    expect(await availableCents(mia.id)).toBe(5_000n);
    const { secret, recovery } = await enableTwoFactorFor(admin);

    const page = await (await get(queue, cookies.admin)).text();
    expect(page).toMatch(new RegExp(`Request #(<!-- -->)?${first.id}\\b`));
    expect(page).toContain("Mia Tester");

    // Two-factor on is not enough: paying needs a current code (decision 020). Without one, the confirm form
    // asks for it, carrying what was typed, and nothing is paid; a recovery code or a wrong code does not do.
    const payFields = { intent: "pay", requestId: String(first.id), reference: "x" };
    const asked = await post(queue, payFields, cookies.admin);
    expect(asked.status).toBe(403);
    const askedHtml = await asked.text();
    expect(askedHtml).toContain("money decisions need a current code from your authenticator app");
    expect(askedHtml).toContain('name="confirmCode"');
    expect(askedHtml).toContain('name="reference" value="x"');
    for (const code of [recovery[0]!, "000000"]) {
      const refused = await post(queue, { ...payFields, confirmCode: code }, cookies.admin);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("That code is not right.");
    }
    expect(await availableCents(mia.id)).toBe(5_000n);
    expect((await payoutRequestRow(first.id)).status).toBe("pending");

    // The right code lets the decision through to its own checks; for 5 minutes the next ones need none.
    const short = await post(queue, { ...payFields, confirmCode: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) }, cookies.admin);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Enter the transfer&#x27;s reference (3 to 120 characters).");
    expect((await post(queue, { intent: "pay", requestId: "999999", reference: "TRF-1" }, cookies.admin)).status).toBe(404);
    expect((await post(queue, { intent: "pay", requestId: "abc", reference: "TRF-1" }, cookies.admin)).status).toBe(404);

    const paid = await post(queue, { intent: "pay", requestId: String(first.id), reference: "TRF-2026-0001" }, cookies.admin);
    expect(paid.status).toBe(302);
    const again = await post(queue, { intent: "reject", requestId: String(first.id), reason: "Too late" }, cookies.admin);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This request is paid already.");

    const noReason = await post(queue, { intent: "reject", requestId: String(second.id), reason: "" }, cookies.admin);
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("Give the member a reason (3 to 500 characters).");
    const rejected = await post(queue, { intent: "reject", requestId: String(second.id), reason: "Bank details do not match" }, cookies.admin);
    expect(rejected.status).toBe(302);
    expect(await availableCents(mia.id)).toBe(7_000n);

    const told = await db()
      .select({ type: notifications.type, data: notifications.data })
      .from(notifications)
      .where(and(eq(notifications.userId, mia.id), eq(notifications.audience, "member")));
    expect(told.map((n) => n.type).sort()).toEqual(["PayoutPaid", "PayoutRejected"]);
    expect(told.find((n) => n.type === "PayoutRejected")!.data.message).toContain("Bank details do not match");
    expect(told.every((n) => n.data.route_name === "member-royalty-payment-requests")).toBe(true);

    // The admin dashboard's system-financial-summary: paid out (the net) and nothing pending any more.
    const summary = await (
      await fetch(`${server.url}/api/admin/dashboard/system-financial-summary`, { headers: { Cookie: cookies.admin, Accept: "application/json" } })
    ).json();
    expect(summary.data).toMatchObject({
      paid_out: "30.000000",
      paid_out_cents: 3000,
      pending_payouts: "0.000000",
      pending_payouts_cents: 0,
      pending_payout_requests: 0,
    });

    const paidList = await (await get(`${queue}?status=paid&q=mia`, cookies.admin)).text();
    expect(paidList).toContain("TRF-2026-0001");
    const none = await (await get(`${queue}?status=paid&q=nobody-here`, cookies.admin)).text();
    expect(none).toContain("No payout requests match these filters.");
  });

  it("payment accounts: admins only, last 4 only, searchable", async () => {
    expect((await get("/admin/payment-accounts", cookies.mia)).status).toBe(302);
    const html = await (await get("/admin/payment-accounts?q=mia", cookies.admin)).text();
    expect(html).toContain("Mia Tester");
    expect(html).toContain("6789");
    expect(html).toContain("W-9");
    expect(html).not.toContain("000123456789");
    const none = await (await get("/admin/payment-accounts?q=nobody-here", cookies.admin)).text();
    expect(none).toContain("No payment accounts match this search.");
  });

  it("fresh confirmation: an unconfirmed session gets the confirm form carrying what was typed, then the password lets the change through", async () => {
    const cookie = await sessionCookieFor(mia.id);
    const fields = { intent: "tax", form: "w9", legalName: "Mia Tester", country: "US", tin: "987-65-4321" };
    const asked = await post(provider(), fields, cookie);
    expect(asked.status).toBe(403);
    const html = await asked.text();
    expect(html).toContain("Confirm it is you");
    expect(html).toContain('name="legalName" value="Mia Tester"');
    expect(html).toMatch(/autoComplete="current-password"|autocomplete="current-password"/);

    const wrong = await post(provider(), { ...fields, confirmPassword: "not the password" }, cookie);
    expect(wrong.status).toBe(403);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("That password is not right.");
    expect(wrongHtml).not.toContain("not the password");

    const confirmed = await post(provider(), { ...fields, confirmPassword: TEST_PASSWORD }, cookie);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${provider()}?done=tax`);
    const changes = await db().select().from(payoutDetailChanges).where(eq(payoutDetailChanges.userId, mia.id));
    expect(changes.map((c) => c.kind)).toContain("tax_status");
    // Within the 10 minutes, the next change goes through without asking.
    expect((await post(provider(), fields, cookie)).status).toBe(302);
  });
});
