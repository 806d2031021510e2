import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { estimates, users, workRequests, type User } from "~/db/schema";
import { sendEstimate } from "~/modules/marketplace/estimates.server";
import { createWorkRequest } from "~/modules/marketplace/work-requests.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember } from "../helpers/factories";
import { createOwnedSong, createProviderProfile, estimateInput, isoIn, requestInput } from "../helpers/marketplace";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();

/**
 * The work request pages through the real request handler, as a browser without JavaScript posts them:
 * the guards (strangers get 404 on reads and writes, members get no admin page) and bad input (400, errors
 * beside the fields, values kept). The whole flow in a browser: tests/e2e/marketplace/work-requests.spec.ts.
 */
describe("work request pages (no JavaScript)", () => {
  let server: AppServer;
  let client: User;
  let provider: User;
  let stranger: User;
  let admin: User;
  let profileId: number;
  let requestId: number;
  let cookies: {
    client: string;
    provider: string;
    stranger: string;
    admin: string;
  };

  beforeAll(async () => {
    client = await createSignedMember("Cleo");
    provider = await createSignedMember("Pete");
    stranger = await createSignedMember("Stan");
    admin = await createSignedMember("Ada");
    await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id));
    profileId = (await createProviderProfile(provider, "musician")).id;
    requestId = (await createWorkRequest(client, profileId, requestInput())).id;
    cookies = {
      client: await sessionCookieFor(client.id),
      provider: await sessionCookieFor(provider.id),
      stranger: await sessionCookieFor(stranger.id),
      admin: await sessionCookieFor(admin.id),
    };
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  it("strangers get 404 on the request, its estimate and their posts; members get no admin page", async () => {
    const s = `/member/${stranger.id}`;
    expect((await server.getAs(`${s}/work-request/${requestId}`, cookies.stranger)).status).toBe(404);
    expect((await server.getAs(`${s}/work-request/estimate/${requestId}`, cookies.stranger)).status).toBe(404);
    expect((await server.getAs(`/member/${client.id}/work-request/${requestId}`, cookies.stranger)).status).toBe(404);
    expect((await server.postForm(`${s}/work-request/${requestId}`, { intent: "message", body: "hi" }, cookies.stranger)).status).toBe(404);
    expect((await server.postForm(`${s}/work-request/${requestId}`, { intent: "cancel" }, cookies.stranger)).status).toBe(404);
    expect((await server.postForm(`${s}/work-request/estimate/${requestId}`, { intent: "accept", estimateId: "1" }, cookies.stranger)).status).toBe(404);
    // The client may not send an estimate for their own request (the provider's form).
    const asClient = await server.postForm(
      `/member/${client.id}/work-request/estimate/${requestId}`,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "10",
        deliveryDays: "3",
        revisionsIncluded: "1",
        expiresAt: isoIn(5),
      },
      cookies.client,
    );
    expect(asClient.status).toBe(404);
    // Another directory's id is not found; one's own profile is refused.
    expect((await server.getAs(`/member/${client.id}/studios/${profileId}/create-work-request`, cookies.client)).status).toBe(404);
    const own = await server.postForm(
      `/member/${provider.id}/musicians/${profileId}/create-work-request`,
      {
        service: "mixing",
        description: "Mix my own song please.",
        budget: "10",
        deadline: isoIn(3),
      },
      cookies.provider,
    );
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("you cannot hire yourself");

    const adminList = await server.getAs("/admin/work-requests", cookies.client);
    expect(adminList.status).toBe(302);
    expect(adminList.headers.get("location")).toBe("/login");
    const visitingPath = `/member/${client.id}/musicians/${profileId}/create-work-request`;
    const visiting = await server.getAs(visitingPath, cookies.admin);
    expect(visiting.status).toBe(200);
    const visitingHtml = await visiting.text();
    expect(visitingHtml).toContain("Only the member whose area this is can ask for work here.");
    expect(visitingHtml).not.toContain("Send work request");
    const visitingPost = await server.postForm(
      visitingPath,
      {
        service: "mixing",
        description: "Mix it for them please.",
        budget: "10",
        deadline: isoIn(3),
      },
      cookies.admin,
    );
    expect(visitingPost.status).toBe(404);
    expect((await server.getAs(`/admin/work-request/${requestId}`, cookies.admin)).status).toBe(200);
    expect((await server.getAs("/admin/work-request/999999", cookies.admin)).status).toBe(404);
  });

  it("bad input: 400 beside the fields with the values kept; then sent", async () => {
    const path = `/member/${client.id}/musicians/${profileId}/create-work-request`;
    const bad = await server.postForm(
      path,
      {
        service: "yodelling",
        description: "Mix <b>",
        budget: "12.345",
        deadline: "2001-02-30",
      },
      cookies.client,
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Choose a service.");
    expect(html).toContain("Enter a budget in dollars, such as 500 or 499.99.");
    expect(html).toContain("Enter the deadline as a date.");
    expect(html).toContain("Describe the work in 10 to 5000 characters.");
    expect(html).toContain("Mix &lt;b&gt;");
    expect(html).toContain('value="12.345"');

    const sent = await server.postForm(
      path,
      {
        service: "mixing",
        description: "Mix my single, 12 stems.",
        referenceLinks: "https://example.com/a\nhttps://example.com/b",
        budget: "1,250.50",
        deadline: isoIn(10),
      },
      cookies.client,
    );
    expect(sent.status).toBe(302);
    const id = Number(/work-request\/(\d+)$/.exec(sent.headers.get("location") ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    const page = await (await server.getAs(`/member/${client.id}/work-request/${id}`, cookies.client)).text();
    expect(page).toContain("$1,250.50");
    expect(page).toContain("https://example.com/b");

    const estimatePath = `/member/${provider.id}/work-request/estimate/${id}`;
    const badEstimate = await server.postForm(
      estimatePath,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "0",
        deliveryDays: "400",
        revisionsIncluded: "1",
        points: "60",
        expiresAt: isoIn(200),
      },
      cookies.provider,
    );
    expect(badEstimate.status).toBe(400);
    const estimateHtml = await badEstimate.text();
    expect(estimateHtml).toContain("Enter an amount in dollars above $0.00.");
    expect(estimateHtml).toContain("Delivery takes 1 to 365 days.");
    expect(estimateHtml).toContain("Points are 0.01% to 50% of the song&#x27;s master royalties, or empty.");
    // The expiry is the service's rule: it answers after the form's checks pass.
    const late = await server.postForm(
      estimatePath,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "99",
        deliveryDays: "4",
        revisionsIncluded: "1",
        expiresAt: isoIn(200),
      },
      cookies.provider,
    );
    expect(late.status).toBe(400);
    expect(await late.text()).toContain("The estimate expires within 90 days from now.");
    const ok = await server.postForm(
      estimatePath,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "99",
        deliveryDays: "4",
        revisionsIncluded: "1",
        expiresAt: isoIn(20),
      },
      cookies.provider,
    );
    expect(ok.status).toBe(302);

    // The client's revision needs a note; a second estimate for a pending request is a 409 (now awaiting approval: revised instead).
    const noNote = await server.postForm(`/member/${client.id}/work-request/estimate/${id}`, { intent: "revision", estimateId: "0" }, cookies.client);
    expect(noNote.status).toBe(400);
  });

  it("names the request's song by its title (linked for its owner), and opens the list on Received while a request waits there", async () => {
    const song = await createOwnedSong(client, "Harbour <Lights>");
    const withSong = await createWorkRequest(client, profileId, requestInput({ songId: song.id }));
    const text = async (path: string, cookie: string) => (await (await server.getAs(path, cookie)).text()).replace(/<!-- -->/g, "");
    const forClient = await text(`/member/${client.id}/work-request/${withSong.id}`, cookies.client);
    expect(forClient).toContain(`href="/member/${client.id}/song-profile/${song.id}"`);
    expect(forClient).toContain("Harbour &lt;Lights&gt;");
    expect(forClient).not.toMatch(/Song #\d/);
    const forProvider = await text(`/member/${provider.id}/work-request/${withSong.id}`, cookies.provider);
    expect(forProvider).toContain("Harbour &lt;Lights&gt;");
    expect(forProvider).not.toContain(`/song-profile/${song.id}`);
    const estimatePage = await text(`/member/${provider.id}/work-request/estimate/${withSong.id}`, cookies.provider);
    expect(estimatePage).toContain("for Harbour &lt;Lights&gt;");
    expect(await text(`/admin/work-request/${withSong.id}`, cookies.admin)).toContain(`href="/admin/song-profile/${song.id}"`);

    // The provider has requests waiting for an estimate: the plain list opens on Received; the tabs still choose.
    const providerList = await text(`/member/${provider.id}/work-requests`, cookies.provider);
    expect(providerList).toMatch(/aria-current="page"[^>]*>Received</);
    expect(providerList).toContain(`/member/${provider.id}/work-request/${withSong.id}`);
    expect(await text(`/member/${provider.id}/work-requests?as=client`, cookies.provider)).toMatch(/aria-current="page"[^>]*>Sent</);
    // The client has nothing waiting on Received: Sent.
    expect(await text(`/member/${client.id}/work-requests`, cookies.client)).toMatch(/aria-current="page"[^>]*>Sent</);
  });

  it("a comma that is not a thousands separator is refused beside the field, never read as $1,000.00", async () => {
    const COMMA = "Use a point for cents, such as 10.00: a comma only separates thousands, as in 1,000.00.";
    const requestsBefore = await db().select({ id: workRequests.id }).from(workRequests);
    const budget = await server.postForm(
      `/member/${client.id}/musicians/${profileId}/create-work-request`,
      { service: "mixing", description: "Mix my single, 12 stems.", budget: "10,00", deadline: isoIn(10) },
      cookies.client,
    );
    expect(budget.status).toBe(400);
    const budgetHtml = await budget.text();
    expect(budgetHtml).toContain(COMMA);
    expect(budgetHtml).toContain('value="10,00"');
    expect(await db().select({ id: workRequests.id }).from(workRequests)).toEqual(requestsBefore);

    const id = (await createWorkRequest(client, profileId, requestInput())).id;
    const estimatesBefore = await db().select({ id: estimates.id }).from(estimates);
    const line = await server.postForm(
      `/member/${provider.id}/work-request/estimate/${id}`,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "10,00",
        deliveryDays: "4",
        revisionsIncluded: "1",
        expiresAt: isoIn(20),
      },
      cookies.provider,
    );
    expect(line.status).toBe(400);
    expect(await line.text()).toContain(COMMA);
    expect(await db().select({ id: estimates.id }).from(estimates)).toEqual(estimatesBefore);

    // Thousands separators and a dollar sign are read as written.
    const sent = await server.postForm(
      `/member/${provider.id}/work-request/estimate/${id}`,
      {
        intent: "estimate",
        "lineItems[0].description": "Mix",
        "lineItems[0].amount": "$1,000.00",
        deliveryDays: "4",
        revisionsIncluded: "1",
        expiresAt: isoIn(20),
      },
      cookies.provider,
    );
    expect(sent.status).toBe(302);
    const [estimate] = await db().select().from(estimates).where(eq(estimates.workRequestId, id));
    expect(estimate!.totalCents).toBe(100_000);
  });

  it("an estimate id from another request is not found on this request's page", async () => {
    const other = await createWorkRequest(client, profileId, requestInput());
    const estimate = await sendEstimate(provider, other.id, estimateInput());
    const wrongPage = await server.postForm(
      `/member/${client.id}/work-request/estimate/${requestId}`,
      { intent: "accept", estimateId: String(estimate.id) },
      cookies.client,
    );
    expect(wrongPage.status).toBe(404);
    const accepted = await server.postForm(
      `/member/${client.id}/work-request/estimate/${other.id}`,
      { intent: "accept", estimateId: String(estimate.id) },
      cookies.client,
    );
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe(`/member/${client.id}/work-request/${other.id}`);
    const html = await (await server.getAs(`/member/${client.id}/work-request/${other.id}`, cookies.client)).text();
    expect(html).toMatch(/Open project #(<!-- -->)?\d+/);
  });
});
