import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, notifications, projects, type User } from "~/db/schema";
import { runQueuedJobsNow } from "~/modules/jobs/queue.server";
import { escrowBalanceMicros } from "~/modules/marketplace/escrow.server";
import { CHECKOUT_REFUND_JOB } from "~/modules/marketplace/checkout.server";
import { cancelProject } from "~/modules/marketplace/projects.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember } from "../helpers/factories";
import { openProject } from "../helpers/marketplace";
import { sessionCookieFor } from "../helpers/requests";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { useTestSettings } from "../setup/settings";

useTestDatabase();

const WEBHOOK_SECRET = "whsec_test_backline_checkout";

/**
 * Card funding of a marketplace project through Stripe Checkout, against the stand-in, through the real handler
 * and the SDK: one open session per project, only the client may pay, the payment recorded once whether the
 * webhook or the client's return comes first, never from the URL alone.
 */
describe("project funding by Stripe Checkout (stand-in)", () => {
  let stand: StripeStandIn;
  let server: AppServer;
  let client: User;
  let provider: User;
  let stranger: User;
  let cookies: { client: string; provider: string; stranger: string };

  beforeAll(async () => {
    stand = await startStripeStandIn();
    useTestSettings({ STRIPE_SECRET_KEY: "sk_test_backline_checkout", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stand.url });
    client = await createSignedMember("Cleo");
    provider = await createSignedMember("Pax");
    stranger = await createSignedMember("Sid");
    cookies = { client: await sessionCookieFor(client.id), provider: await sessionCookieFor(provider.id), stranger: await sessionCookieFor(stranger.id) };
    server = await startAppServer();
  });

  let standClosed = false;
  afterAll(async () => {
    await server?.close();
    if (!standClosed) await stand?.close();
    useTestSettings();
  });

  const pagePath = (member: User, id: number) => `/member/${member.id}/project/${id}`;
  const row = async (id: number) => (await db().select().from(projects).where(eq(projects.id, id)))[0]!;
  const fundingEntries = async (id: number) =>
    db()
      .select()
      .from(journalEntries)
      .where(
        and(
          eq(journalEntries.kind, "marketplace_funding"),
          eq(journalEntries.memo, `Project #${id} funded (Stripe Checkout ${(await row(id)).checkoutSessionId})`),
        ),
      );
  const webhook = (type: string, session: unknown, id?: string) =>
    stand.sendEvent(stand.event(type, session, id), { url: `${server.url}/api/stripe/webhooks`, secret: WEBHOOK_SECRET });

  it("the client gets one Stripe page per project; the provider and strangers get 404 and no session", async () => {
    const { project } = await openProject(client, provider);
    const page = await server.getAs(pagePath(client, project.id), cookies.client);
    expect(await page.text()).toContain("by card");

    const first = await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    expect(first.status).toBe(303);
    const location = first.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^${stand.url}/checkout/pay/cs_test_`));
    const session = [...stand.checkoutSessions.values()].at(-1)!;
    expect(session).toMatchObject({
      amount_total: project.amountCents,
      currency: "usd",
      metadata: { backline_project_id: String(project.id) },
      customer_email: client.email,
    });
    expect((await row(project.id)).checkoutSessionId).toBe(session.id);

    // A second click reuses the open session: never two payments for one project.
    const again = await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    expect(again.headers.get("location")).toBe(location);
    const sessions = stand.checkoutSessions.size;

    expect((await server.postForm(pagePath(provider, project.id), { intent: "checkout" }, cookies.provider)).status).toBe(404);
    expect((await server.postForm(pagePath(stranger, project.id), { intent: "checkout" }, cookies.stranger)).status).toBe(404);
    expect(stand.checkoutSessions.size).toBe(sessions);
    expect((await row(project.id)).fundingStatus).toBe("unfunded");
  });

  it("the webhook records a paid session once; the client's return then only shows it", async () => {
    const { project } = await openProject(client, provider);
    await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    const session = [...stand.checkoutSessions.values()].at(-1)!;

    // Back before paying (or with a made-up paid flag in the URL): Stripe says unpaid, nothing is recorded.
    const early = await server.getAs(`${pagePath(client, project.id)}?checkout=done&session_id=${session.id}&payment_status=paid`, cookies.client);
    expect(early.status).toBe(302);
    expect((await row(project.id)).fundingStatus).toBe("unfunded");

    stand.payCheckoutSession(session.id);
    const sent = await webhook("checkout.session.completed", session);
    expect(sent.status).toBe(200);
    const funded = await row(project.id);
    expect(funded).toMatchObject({ fundingStatus: "funded", fundingReference: `Stripe Checkout ${session.id}` });
    expect(await escrowBalanceMicros(project.id)).toBe(BigInt(project.amountCents) * 10_000n);

    // Stripe delivers twice (same event), or sends the async event too (another event): one entry.
    expect(JSON.parse((await stand.sendEvent(sent.event, { url: `${server.url}/api/stripe/webhooks`, secret: WEBHOOK_SECRET })).body)).toMatchObject({
      duplicate: true,
    });
    expect((await webhook("checkout.session.async_payment_succeeded", session)).status).toBe(200);
    const back = await server.getAs(`${pagePath(client, project.id)}?checkout=done&session_id=${session.id}`, cookies.client);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toMatch(new RegExp(`^${pagePath(client, project.id)}\\?done=checkout-`));
    expect(await fundingEntries(project.id)).toHaveLength(1);
    expect(await escrowBalanceMicros(project.id)).toBe(BigInt(project.amountCents) * 10_000n);
    // Paid: the page offers no payment any more.
    expect((await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client)).status).toBe(409);
  });

  it("the client's return records the payment when it comes before the webhook", async () => {
    const { project } = await openProject(client, provider);
    await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    const session = [...stand.checkoutSessions.values()].at(-1)!;
    stand.payCheckoutSession(session.id);

    // Another project's session on this project's page is not this project's payment.
    const other = await openProject(client, provider);
    const wrong = await server.getAs(`${pagePath(client, other.project.id)}?checkout=done&session_id=${session.id}`, cookies.client);
    expect(wrong.status).toBe(302);
    expect((await row(other.project.id)).fundingStatus).toBe("unfunded");
    // Nor may someone else confirm it.
    expect((await server.getAs(`${pagePath(stranger, project.id)}?checkout=done&session_id=${session.id}`, cookies.stranger)).status).toBe(404);

    const back = await server.getAs(`${pagePath(client, project.id)}?checkout=done&session_id=${session.id}`, cookies.client);
    expect(back.headers.get("location")).toMatch(/\?done=checkout-/);
    expect((await row(project.id)).fundingStatus).toBe("funded");
    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    expect(await fundingEntries(project.id)).toHaveLength(1);
  });

  it("a canceled payment changes nothing; a session for another amount is not recorded", async () => {
    const { project } = await openProject(client, provider);
    const canceled = await server.getAs(`${pagePath(client, project.id)}?checkout=canceled`, cookies.client);
    expect(canceled.status).toBe(302);
    expect(canceled.headers.get("location")).toBe(pagePath(client, project.id));

    await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    const session = [...stand.checkoutSessions.values()].at(-1)!;
    stand.payCheckoutSession(session.id);
    const tampered = { ...session, amount_total: 1 };
    expect((await webhook("checkout.session.completed", tampered)).status).toBe(200);
    expect((await row(project.id)).fundingStatus).toBe("unfunded");
  });

  const notices = (type: string, userId?: number) =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, type), userId === undefined ? eq(notifications.audience, "admin") : eq(notifications.userId, userId)));

  /** A project the client cancels while its Stripe page is still open in another tab, then pays there. */
  async function paidAfterCancel() {
    const { project } = await openProject(client, provider);
    await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    const session = [...stand.checkoutSessions.values()].at(-1)!;
    await cancelProject(client, project.id, "Found someone closer to home");
    stand.payCheckoutSession(session.id);
    return { project, session };
  }
  const refundsOf = (session: { payment_intent: string | null }) => [...stand.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);

  it("a payment that arrives after the project was canceled is refunded to the card, once, and nothing is recorded", async () => {
    const { project, session } = await paidAfterCancel();
    const refundsBefore = stand.refunds.size;
    const clientNoticesBefore = (await notices("ProjectPaymentRefunded", client.id)).length;

    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    // The refund is a job recorded with the webhook's transaction: nothing was refunded before it runs.
    expect(refundsOf(session)).toHaveLength(0);
    expect(await runQueuedJobsNow(CHECKOUT_REFUND_JOB)).toMatchObject({ completed: 1, failed: 0 });
    const refunds = refundsOf(session);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: project.amountCents,
      currency: "usd",
      metadata: { backline_project_id: String(project.id), backline_checkout_session: session.id },
    });
    expect(stand.requests.filter((r) => r.path === "/v1/refunds").at(-1)!.idempotencyKey).toBe(`backline-checkout-refund-${session.id}`);
    expect(await row(project.id)).toMatchObject({ status: "canceled", fundingStatus: "unfunded" });
    expect(await escrowBalanceMicros(project.id)).toBe(0n);
    expect(await fundingEntries(project.id)).toHaveLength(0);
    expect(await notices("ProjectPaymentRefunded", client.id)).toHaveLength(clientNoticesBefore + 1);

    // The client's return (and the async event) ask again: the same refund, told on the page, nothing recorded,
    // and no second notification (Stripe answers the refund's idempotency key again).
    const back = await server.getAs(`${pagePath(client, project.id)}?checkout=done&session_id=${session.id}`, cookies.client);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(pagePath(client, project.id));
    expect(back.headers.get("set-cookie")).toBeTruthy(); // the flash: "… the payment is being refunded to your card …"
    expect((await webhook("checkout.session.async_payment_succeeded", session)).status).toBe(200);
    await runQueuedJobsNow(CHECKOUT_REFUND_JOB);
    expect(stand.refunds.size).toBe(refundsBefore + 1);
    expect(await row(project.id)).toMatchObject({ status: "canceled", fundingStatus: "unfunded" });
    expect(await fundingEntries(project.id)).toHaveLength(0);
    expect(await notices("ProjectPaymentRefunded", client.id)).toHaveLength(clientNoticesBefore + 1);
  });

  it("a refund Stripe cannot make just now is retried until it is made; one that never succeeds is handed to the administrators", async () => {
    const { session } = await paidAfterCancel();
    const clientNoticesBefore = (await notices("ProjectPaymentRefunded", client.id)).length;
    const adminNoticesBefore = (await notices("ProjectRefundFailed")).length;
    stand.refundsUnavailableFor(2);
    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    // Two failed runs, then the retry that refunds (retries run at once here; the server waits between them).
    expect(await runQueuedJobsNow(CHECKOUT_REFUND_JOB)).toMatchObject({ runs: 3, completed: 1, failed: 2 });
    expect(refundsOf(session)).toHaveLength(1);
    expect(await notices("ProjectPaymentRefunded", client.id)).toHaveLength(clientNoticesBefore + 1);
    expect(await notices("ProjectRefundFailed")).toHaveLength(adminNoticesBefore);

    const never = await paidAfterCancel();
    stand.refundsUnavailableFor(1000);
    expect((await webhook("checkout.session.completed", never.session)).status).toBe(200);
    // The first run and its 10 retries all fail; the last one tells the administrators instead of failing.
    expect(await runQueuedJobsNow(CHECKOUT_REFUND_JOB)).toMatchObject({ runs: 11, completed: 1, failed: 10 });
    stand.refundsUnavailableFor(0);
    expect(refundsOf(never.session)).toHaveLength(0);
    const [alert] = (await notices("ProjectRefundFailed")).slice(adminNoticesBefore);
    expect(JSON.stringify(alert!.data)).toContain(`project #${never.project.id} (Checkout Session ${never.session.id}) could not be refunded`);
  });

  it("when Stripe cannot be reached, the client is told to try again and nothing changes (runs last: it stops the stand-in)", async () => {
    const { project } = await openProject(client, provider);
    await stand.close();
    standClosed = true;
    const refused = await server.postForm(pagePath(client, project.id), { intent: "checkout" }, cookies.client);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Stripe could not open the payment page just now");
    expect(await row(project.id)).toMatchObject({ fundingStatus: "unfunded", checkoutSessionId: null });
    // A return that cannot be checked with Stripe records nothing and says so.
    const back = await server.getAs(`${pagePath(client, project.id)}?checkout=done&session_id=cs_test_unreachable`, cookies.client);
    expect(back.status).toBe(302);
    expect((await row(project.id)).fundingStatus).toBe("unfunded");
  });
});
