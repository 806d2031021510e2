/**
 * The affiliate sign-up page tells the rate before anyone applies, and offers Stripe as a payout method only
 * where Stripe is configured (a crafted post choosing it elsewhere is refused beside the field).
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { affiliates } from "~/db/schema";
import { action, loader } from "~/routes/register_.affiliate";
import { createUser } from "../helpers/factories";
import { useTestDatabase } from "../helpers/database";
import { routeArgs, sessionCookieFor } from "../helpers/requests";
import { useTestSettings } from "../setup/settings";

useTestDatabase();
afterEach(() => useTestSettings());

type LoaderData = { mode: string; terms: { rateBps: number; platformBps: number; perDollarBps: number; stripe: boolean } };
type ActionResult = { data: { error?: Record<string, string[] | null> }; init: { status?: number } | null };

async function post(cookie: string | null, fields: Record<string, string>) {
  const request = new Request("http://localhost:3999/register/affiliate", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3999", ...(cookie ? { Cookie: cookie } : {}) },
  });
  return (await action((await routeArgs(request)) as never)) as unknown;
}

describe("the affiliate sign-up", () => {
  it("tells the rate before applying: a share of the platform commission, and what it is of each royalty", async () => {
    const data = (await loader((await routeArgs(new Request("http://localhost:3999/register/affiliate"))) as never)) as LoaderData;
    expect(data.mode).toBe("visitor");
    expect(data.terms).toEqual({ rateBps: 2000, platformBps: 1000, perDollarBps: 200, stripe: false });
  });

  it("offers Stripe only where it is configured, and refuses it otherwise, changing nothing", async () => {
    const member = await createUser();
    const cookie = await sessionCookieFor(member.id);
    const refused = (await post(cookie, { audience: "A newsletter for 5,000 bedroom producers", payoutMethod: "stripe" })) as ActionResult;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.error?.payoutMethod).toEqual(["Stripe is not available here: choose a bank transfer."]);
    expect(await db().select().from(affiliates).where(eq(affiliates.userId, member.id))).toEqual([]);

    useTestSettings({ STRIPE_SECRET_KEY: "sk_test_affiliate_terms" });
    const withStripe = (await loader(
      (await routeArgs(new Request("http://localhost:3999/register/affiliate", { headers: { Cookie: cookie } }))) as never,
    )) as LoaderData;
    expect(withStripe).toMatchObject({ mode: "member", terms: { stripe: true } });
    const accepted = (await post(cookie, { audience: "A newsletter for 5,000 bedroom producers", payoutMethod: "stripe" })) as Response;
    expect(accepted.status).toBe(302);
    expect((await db().select().from(affiliates).where(eq(affiliates.userId, member.id)))[0]).toMatchObject({
      payoutMethod: "stripe",
      status: "pending_approval",
    });
  });
});
