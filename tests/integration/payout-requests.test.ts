import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "~/db/schema";
import { declareTaxStatus, saveManualPayoutAccount } from "~/modules/payouts/payout-accounts.server";
import { availableCents } from "~/modules/payouts/payouts.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { creditEarnings } from "../helpers/ledger";
import { createSignedMember } from "../helpers/factories";
import { confirmedSessionCookieFor } from "../helpers/requests";

useTestDatabase();

/**
 * The member's Royalty Payment Requests page through the real request handler, as a browser without
 * JavaScript posts it (docs/money.md contract): 400 with the message beside the field and nothing reserved for bad
 * input, a preview that reserves nothing, a request, a cancellation, another member's 404, and the payments API.
 */
describe("royalty payment requests (no JavaScript)", () => {
  let server: AppServer;
  let mia: User;
  let cookies: { mia: string; other: string };

  beforeAll(async () => {
    mia = await createSignedMember("Mia");
    const other = await createSignedMember("Other");
    await creditEarnings(mia.id, 40_000_000n);
    await saveManualPayoutAccount(mia, mia.id, {
      country: "US",
      accountHolder: "Mia Tester",
      bankName: "Bank",
      accountNumber: "000123456789",
      routingCode: "021000021",
    });
    await declareTaxStatus(mia, mia.id, { form: "w9", legalName: "Mia Tester", country: "US", tin: "123456789" });
    // Requesting a payout needs a fresh confirmation: these sessions have one; payout-pages.test.ts tests the confirm form.
    cookies = { mia: await confirmedSessionCookieFor(mia.id), other: await confirmedSessionCookieFor(other.id) };
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  const page = () => `/member/${mia.id}/royalty-payment-requests`;
  const post = (fields: Record<string, string>, cookie = cookies.mia) => server.postForm(page(), fields, cookie);

  it("answers 400 beside the field and reserves nothing: over the balance, below the minimum, malformed", async () => {
    for (const [amount, message] of [
      ["40.01", "You can request at most $40.00, your available balance."],
      ["9.99", "The minimum payout is $10.00."],
      // A comma that is not a thousands separator is refused, never read as a point or dropped.
      ["12,34", "Use a point for cents, such as 10.00: a comma only separates thousands, as in 1,000.00."],
      ["12.345", "Enter an amount such as 12.34."],
    ]) {
      const response = await post({ intent: "request", amount: amount! });
      expect(response.status, amount).toBe(400);
      const html = await response.text();
      expect(html).toContain(message!.replace(/\$/g, "$"));
      expect(html).toMatch(/aria-invalid="true"/);
    }
    expect(await availableCents(mia.id)).toBe(4_000n);
  });

  it("previews without reserving, then requests, lists and cancels", async () => {
    const preview = await post({ intent: "preview", amount: "25.00" });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("You receive");
    expect(await availableCents(mia.id)).toBe(4_000n);

    const made = await post({ intent: "request", amount: "25.00" });
    expect(made.status).toBe(302);
    expect(await availableCents(mia.id)).toBe(1_500n);

    const api = (await (
      await fetch(`${server.url}/api/members/${mia.id}/royalties-report/payments`, { headers: { Cookie: cookies.mia, Accept: "application/json" } })
    ).json()) as {
      data: Array<{ id: number; status: string; amount: string; net: string }>;
    };
    expect(api.data).toMatchObject([{ status: "pending", amount: "25.000000", net: "25.000000" }]);

    // Someone else cannot see the page, post to it, or cancel the request.
    expect((await fetch(`${server.url}${page()}`, { headers: { Cookie: cookies.other }, redirect: "manual" })).status).toBe(404);
    expect((await post({ intent: "cancel", requestId: String(api.data[0]!.id) }, cookies.other)).status).toBe(404);
    expect(
      (await fetch(`${server.url}/api/members/${mia.id}/royalties-report/payments`, { headers: { Cookie: cookies.other, Accept: "application/json" } })).status,
    ).toBe(404);

    const canceled = await post({ intent: "cancel", requestId: String(api.data[0]!.id) });
    expect(canceled.status).toBe(302);
    expect(await availableCents(mia.id)).toBe(4_000n);
    const html = await (await fetch(`${server.url}${page()}`, { headers: { Cookie: cookies.mia } })).text();
    expect(html).toContain("Canceled");
  });

  it("the request form's hidden single-use key: submitted again (or twice at once) it reserves once; a refused submission leaves it usable", async () => {
    const keyOf = async () => /name="idempotencyKey" value="([\w-]+)"/.exec(await (await server.getAs(page(), cookies.mia)).text())?.[1];
    const start = await availableCents(mia.id);
    const key = (await keyOf())!;
    expect(key).toMatch(/^[\w-]{16,64}$/);
    expect(await keyOf()).not.toBe(key); // a fresh key for each page shown

    // Refused (over the balance): nothing reserved, and the key is still good for the corrected amount.
    expect((await post({ intent: "request", amount: "999.00", idempotencyKey: key })).status).toBe(400);
    const first = await post({ intent: "request", amount: "11.00", idempotencyKey: key });
    expect(first.status).toBe(302);
    expect(await availableCents(mia.id)).toBe(start - 1_100n);

    // The same form again: the first request stands, the page says so, nothing more is reserved.
    const again = await post({ intent: "request", amount: "11.00", idempotencyKey: key });
    expect(again.status).toBe(302);
    const flash = again.headers
      .getSetCookie()
      .find((c) => c.startsWith("backline_flash="))!
      .split(";")[0]!;
    expect(await (await server.getAs(page(), `${cookies.mia}; ${flash}`)).text()).toContain("This request was sent already");
    expect(await availableCents(mia.id)).toBe(start - 1_100n);

    // Two submissions of one form at once (a double click): one reservation.
    const twice = (await keyOf())!;
    const both = await Promise.all([
      post({ intent: "request", amount: "12.00", idempotencyKey: twice }),
      post({ intent: "request", amount: "12.00", idempotencyKey: twice }),
    ]);
    expect(both.map((r) => r.status)).toEqual([302, 302]);
    expect(await availableCents(mia.id)).toBe(start - 2_300n);
  });
});
