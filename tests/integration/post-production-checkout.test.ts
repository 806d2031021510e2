import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, notifications, postProductionJobs, type User } from "~/db/schema";
import { runQueuedJobsNow } from "~/modules/jobs/queue.server";
import { CHECKOUT_REFUND_JOB } from "~/modules/marketplace/checkout.server";
import { escrowAccountBalanceMicros, jobEscrowAccount } from "~/modules/marketplace/escrow.server";
import { createJob } from "~/modules/post-production/job-creation.server";
import { acceptJob, cancelJob, fundJob } from "~/modules/post-production/job-transitions.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember, createUser } from "../helpers/factories";
import { createOwnedSong } from "../helpers/marketplace";
import { sessionCookieFor } from "../helpers/requests";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { useTestSettings } from "../setup/settings";

useTestDatabase();

const WEBHOOK_SECRET = "whsec_test_backline_job_checkout";
const PRICE_CENTS = 15_000;

/**
 * Card funding of a post-production job through Stripe Checkout (decision 023), against the stand-in, through the
 * real pages, webhook handler and SDK: the same rules as a project's (tests/integration/project-checkout.test.ts).
 */
describe("post-production job funding by Stripe Checkout (stand-in)", () => {
  let stand: StripeStandIn;
  let server: AppServer;
  let owner: User;
  let engineer: User;
  let stranger: User;
  let admin: User;
  let cookies: { owner: string; engineer: string; stranger: string };
  const stripeSettings = () => ({ STRIPE_SECRET_KEY: "sk_test_backline_job_checkout", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stand.url });

  beforeAll(async () => {
    stand = await startStripeStandIn();
    useTestSettings(stripeSettings());
    owner = await createSignedMember("Olive");
    engineer = await createSignedMember("Eddie");
    stranger = await createSignedMember("Sid");
    admin = await createUser({ acctType: 2, roleId: 2 });
    cookies = { owner: await sessionCookieFor(owner.id), engineer: await sessionCookieFor(engineer.id), stranger: await sessionCookieFor(stranger.id) };
    server = await startAppServer();
  });

  afterAll(async () => {
    await server?.close();
    await stand?.close();
    useTestSettings();
  });

  /** A priced job the engineer accepted: it awaits the owner's funding. */
  async function awaitingJob() {
    const song = await createOwnedSong(owner, `Song ${Math.random().toString(36).slice(2, 7)}`);
    const { job } = await createJob(owner, { songId: song.id, service: "mixing_and_mastering", amount: "150.00", engineerEmail: engineer.email });
    return acceptJob(engineer, job.id);
  }
  const pagePath = (member: User, id: number) => `/member/${member.id}/post-production-job/${id}`;
  const row = async (id: number) => (await db().select().from(postProductionJobs).where(eq(postProductionJobs.id, id)))[0]!;
  const fundingEntries = (id: number, sessionId: string) =>
    db()
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "marketplace_funding"), eq(journalEntries.memo, `Post-production job #${id} funded (Stripe Checkout ${sessionId})`)));
  const escrow = (id: number) => escrowAccountBalanceMicros(jobEscrowAccount(id));
  const webhook = (type: string, session: unknown, id?: string) =>
    stand.sendEvent(stand.event(type, session, id), { url: `${server.url}/api/stripe/webhooks`, secret: WEBHOOK_SECRET });
  const lastSession = () => [...stand.checkoutSessions.values()].at(-1)!;

  it("offers the card only where Stripe is configured; the owner gets one Stripe page per job, others get 404 and no session", async () => {
    const job = await awaitingJob();
    useTestSettings();
    try {
      const without = await server.getAs(pagePath(owner, job.id), cookies.owner);
      expect(without.status).toBe(200);
      expect(await without.text()).not.toContain("by card");
      expect((await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner)).status).toBe(409);
    } finally {
      useTestSettings(stripeSettings());
    }
    const page = await server.getAs(pagePath(owner, job.id), cookies.owner);
    expect(await page.text()).toContain("by card");
    // The engineer's page offers no payment.
    expect(await (await server.getAs(pagePath(engineer, job.id), cookies.engineer)).text()).not.toContain("by card");

    const first = await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    expect(first.status).toBe(303);
    const location = first.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^${stand.url}/checkout/pay/cs_test_`));
    const session = lastSession();
    expect(session).toMatchObject({
      amount_total: PRICE_CENTS,
      currency: "usd",
      metadata: { backline_post_production_job_id: String(job.id) },
      customer_email: owner.email,
    });
    expect((await row(job.id)).checkoutSessionId).toBe(session.id);

    // A second click reuses the open session: never two payments for one job.
    const again = await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    expect(again.headers.get("location")).toBe(location);
    const sessions = stand.checkoutSessions.size;
    expect((await server.postForm(pagePath(engineer, job.id), { intent: "checkout" }, cookies.engineer)).status).toBe(404);
    expect((await server.postForm(pagePath(stranger, job.id), { intent: "checkout" }, cookies.stranger)).status).toBe(404);
    expect(stand.checkoutSessions.size).toBe(sessions);
    expect(await row(job.id)).toMatchObject({ status: "awaiting_funding", fundingStatus: "unfunded" });
  });

  it("the webhook funds a paid session once; the owner's return then only shows it", async () => {
    const job = await awaitingJob();
    await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    const session = lastSession();

    // Back before paying (or with a made-up paid flag in the URL): Stripe says unpaid, nothing is recorded.
    const early = await server.getAs(`${pagePath(owner, job.id)}?checkout=done&session_id=${session.id}&payment_status=paid`, cookies.owner);
    expect(early.status).toBe(302);
    expect((await row(job.id)).fundingStatus).toBe("unfunded");

    stand.payCheckoutSession(session.id);
    const sent = await webhook("checkout.session.completed", session);
    expect(sent.status).toBe(200);
    expect(await row(job.id)).toMatchObject({
      status: "in_progress",
      stage: "in_mixing_and_mastering",
      fundingStatus: "funded",
      fundingMethod: "stripe",
      fundingReference: `Stripe Checkout ${session.id}`,
    });
    expect(await escrow(job.id)).toBe(BigInt(PRICE_CENTS) * 10_000n);
    const engineerNotices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, engineer.id), eq(notifications.type, "PostProductionJobFunded")));
    expect(engineerNotices.some((n) => JSON.stringify(n.data).includes(`job #${job.id} is funded`))).toBe(true);

    // Stripe delivers twice (same event), sends the async event too, and the owner comes back: one entry.
    expect(JSON.parse((await stand.sendEvent(sent.event, { url: `${server.url}/api/stripe/webhooks`, secret: WEBHOOK_SECRET })).body)).toMatchObject({
      duplicate: true,
    });
    expect((await webhook("checkout.session.async_payment_succeeded", session)).status).toBe(200);
    const back = await server.getAs(`${pagePath(owner, job.id)}?checkout=done&session_id=${session.id}`, cookies.owner);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toMatch(new RegExp(`^${pagePath(owner, job.id)}\\?done=checkout-`));
    expect(await fundingEntries(job.id, session.id)).toHaveLength(1);
    expect(await escrow(job.id)).toBe(BigInt(PRICE_CENTS) * 10_000n);
    // Paid: no payment is offered any more.
    expect((await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner)).status).toBe(409);
  });

  it("the owner's return funds the job when it comes before the webhook; another job's session is not this job's", async () => {
    const job = await awaitingJob();
    await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    const session = lastSession();
    stand.payCheckoutSession(session.id);

    const other = await awaitingJob();
    const wrong = await server.getAs(`${pagePath(owner, other.id)}?checkout=done&session_id=${session.id}`, cookies.owner);
    expect(wrong.status).toBe(302);
    expect((await row(other.id)).fundingStatus).toBe("unfunded");
    expect((await server.getAs(`${pagePath(stranger, job.id)}?checkout=done&session_id=${session.id}`, cookies.stranger)).status).toBe(404);

    const back = await server.getAs(`${pagePath(owner, job.id)}?checkout=done&session_id=${session.id}`, cookies.owner);
    expect(back.headers.get("location")).toMatch(/\?done=checkout-/);
    expect(await row(job.id)).toMatchObject({ status: "in_progress", fundingStatus: "funded", fundingMethod: "stripe" });
    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    expect(await fundingEntries(job.id, session.id)).toHaveLength(1);
    expect(await escrow(job.id)).toBe(BigInt(PRICE_CENTS) * 10_000n);
  });

  it("a session for another amount or currency is not recorded", async () => {
    const job = await awaitingJob();
    await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    const session = lastSession();
    stand.payCheckoutSession(session.id);
    expect((await webhook("checkout.session.completed", { ...session, amount_total: PRICE_CENTS - 1 })).status).toBe(200);
    expect((await webhook("checkout.session.completed", { ...session, currency: "eur" })).status).toBe(200);
    expect(await row(job.id)).toMatchObject({ status: "awaiting_funding", fundingStatus: "unfunded", fundingReference: null });
    expect(await fundingEntries(job.id, session.id)).toHaveLength(0);
    expect(await escrow(job.id)).toBe(0n);
    expect(stand.refunds.size === 0 || [...stand.refunds.values()].every((r) => r.payment_intent !== session.payment_intent)).toBe(true);
  });

  const refundsOf = (session: { payment_intent: string | null }) => [...stand.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
  const ownerRefundNotices = () =>
    db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, owner.id), eq(notifications.type, "PostProductionPaymentRefunded")));

  it("a payment that arrives after the job was canceled is refunded to the card, once, and nothing is recorded", async () => {
    const job = await awaitingJob();
    await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    const session = lastSession();
    // Canceled while the Stripe page is still open in another tab, then paid there.
    await cancelJob(owner, job.id, "Found someone closer to home");
    stand.payCheckoutSession(session.id);
    const noticesBefore = (await ownerRefundNotices()).length;

    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    // The refund is a job recorded with the webhook's transaction: nothing was refunded before it runs.
    expect(refundsOf(session)).toHaveLength(0);
    expect(await runQueuedJobsNow(CHECKOUT_REFUND_JOB)).toMatchObject({ completed: 1, failed: 0 });
    const refunds = refundsOf(session);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: PRICE_CENTS,
      currency: "usd",
      metadata: { backline_post_production_job_id: String(job.id), backline_checkout_session: session.id },
    });
    expect(await row(job.id)).toMatchObject({ status: "canceled", fundingStatus: "unfunded" });
    expect(await escrow(job.id)).toBe(0n);
    expect(await fundingEntries(job.id, session.id)).toHaveLength(0);
    const notices = await ownerRefundNotices();
    expect(notices).toHaveLength(noticesBefore + 1);
    expect(JSON.stringify(notices.at(-1)!.data)).toContain(`post-production job #${job.id} arrived after the job was canceled`);

    // The owner's return asks again: the same refund, told on the page, nothing recorded, no second refund.
    const back = await server.getAs(`${pagePath(owner, job.id)}?checkout=done&session_id=${session.id}`, cookies.owner);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(pagePath(owner, job.id));
    await runQueuedJobsNow(CHECKOUT_REFUND_JOB);
    expect(refundsOf(session)).toHaveLength(1);
    expect(await ownerRefundNotices()).toHaveLength(noticesBefore + 1);
    expect(await row(job.id)).toMatchObject({ status: "canceled", fundingStatus: "unfunded" });
  });

  it("a payment for a job funded otherwise meanwhile is refunded; the other funding stands", async () => {
    const job = await awaitingJob();
    await server.postForm(pagePath(owner, job.id), { intent: "checkout" }, cookies.owner);
    const session = lastSession();
    await fundJob(admin, job.id, `WIRE-${job.id}`);
    stand.payCheckoutSession(session.id);
    expect((await webhook("checkout.session.completed", session)).status).toBe(200);
    expect(await runQueuedJobsNow(CHECKOUT_REFUND_JOB)).toMatchObject({ completed: 1, failed: 0 });
    expect(refundsOf(session)).toHaveLength(1);
    expect(await row(job.id)).toMatchObject({ status: "in_progress", fundingStatus: "funded", fundingMethod: "manual", fundingReference: `WIRE-${job.id}` });
    expect(await escrow(job.id)).toBe(BigInt(PRICE_CENTS) * 10_000n);
    expect(JSON.stringify((await ownerRefundNotices()).at(-1)!.data)).toContain(`arrived after the job was paid otherwise`);
  });
});
