import type { APIRequestContext } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/**
 * The JSON API of the product specification (app/routes/api.*): session-cookie auth, `{ data }` on success and
 * `{ message, errors }` with 401 (no session), 403 (not an admin) or 404 (someone else's member id).
 */

async function logIn(request: APIRequestContext, email: string) {
  const response = await request.post("/login", { form: { email, password: DEMO_PASSWORD, redirect: "" }, maxRedirects: 0 });
  expect(response.status(), `log in ${email}`).toBe(302);
}

async function expectJsonError(request: APIRequestContext, path: string, status: number, message: string) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(status);
  expect(response.headers()["content-type"], path).toMatch(/^application\/json/);
  expect(await response.json(), path).toEqual({ message, errors: message });
}

test("without a session every endpoint answers 401 JSON", async ({ request }) => {
  for (const path of [
    "/api/members/profile/logged-user/2",
    "/api/members/profile/member-area/2",
    "/api/members/2/dashboard/stats",
    "/api/admin/dashboard/system-financial-summary",
    "/api/admin/dashboard/system-profiles-summary",
    "/api/config",
  ]) {
    await expectJsonError(request, path, 401, "Unauthenticated.");
  }
});

test("as the member: their own profile, area and dashboard sections; someone else's is 404; admin endpoints 403", async ({ request }) => {
  await logIn(request, DEMO.member);

  const me = await request.get("/api/members/profile/logged-user/2");
  expect(me.status()).toBe(200);
  const { data: user } = await me.json();
  expect(user).toMatchObject({
    id: 2,
    acct_type: 1,
    agreed_to_all_documents: true,
    fullname: "Mia Member",
    email: DEMO.member,
    post_production_jobs_count: 0,
  });
  expect(user).not.toHaveProperty("password_hash");
  expect(user).not.toHaveProperty("passwordHash");
  await expectJsonError(request, "/api/members/profile/logged-user/1", 404, "Not found.");

  const area = await request.get("/api/members/profile/member-area/2");
  expect(area.status()).toBe(200);
  expect((await area.json()).data).toMatchObject({ id: 2, fullname: "Mia Member" });
  await expectJsonError(request, "/api/members/profile/member-area/1", 404, "Not found.");
  await expectJsonError(request, "/api/members/profile/member-area/abc", 404, "Not found.");

  const stats = await request.get("/api/members/2/dashboard/stats");
  expect(stats.status()).toBe(200);
  expect((await stats.json()).data).toMatchObject({
    email_verified: true,
    documents_agreed: 2,
    documents_required: 2,
    // The demo data: one artist page and one musician profile.
    artists: 1,
    provider_profiles: 1,
    projects: 0,
    work_requests: 0,
    balance_cents: 0,
    currency: "USD",
  });
  const profiles = await request.get("/api/members/2/dashboard/profiles");
  expect(profiles.status()).toBe(200);
  expect((await profiles.json()).data).toEqual({
    owned_affiliate: null,
    artists: [{ id: expect.any(Number), name: "Mia and the Midnight Owls", username: "midnight-owls", can_edit: true }],
    musician: { id: expect.any(Number) },
    audio_engineer: null,
    studio: null,
    music_producer: null,
  });
  for (const section of ["projects", "work-requests"]) {
    const response = await request.get(`/api/members/2/dashboard/${section}`);
    expect(response.status(), section).toBe(200);
    expect(await response.json(), section).toEqual({ data: [] });
  }
  await expectJsonError(request, "/api/members/2/dashboard/nope", 404, "Not found.");
  await expectJsonError(request, "/api/members/1/dashboard/stats", 404, "Not found.");

  await expectJsonError(request, "/api/admin/dashboard/system-financial-summary", 403, "This action is unauthorized.");
  await expectJsonError(request, "/api/admin/dashboard/system-profiles-summary", 403, "This action is unauthorized.");

  const config = await request.get("/api/config");
  expect(config.status()).toBe(200);
  expect((await config.json()).data).toMatchObject({ app_name: "Backline", app_version: "0.1.0", currency: "USD" });
});

test("as the admin: another member's area and the system summaries", async ({ request }) => {
  await logIn(request, DEMO.admin);

  const area = await request.get("/api/members/profile/member-area/2");
  expect(area.status()).toBe(200);
  expect((await area.json()).data).toMatchObject({ id: 2, fullname: "Mia Member" });
  const stats = await request.get("/api/members/2/dashboard/stats");
  expect(stats.status()).toBe(200);

  const me = await request.get("/api/members/profile/logged-user/1");
  expect(me.status()).toBe(200);
  expect((await me.json()).data).toMatchObject({ id: 1, acct_type: 2, role_id: 1, fullname: "Ada Admin" });
  // logged-user is only ever one's own, even for an admin.
  await expectJsonError(request, "/api/members/profile/logged-user/2", 404, "Not found.");

  const financial = await request.get("/api/admin/dashboard/system-financial-summary");
  expect(financial.status()).toBe(200);
  // Other specs upload statements into the same database (affiliates, royalties), in any order: the figure is
  // whole cents, never negative; its value is checked against the ledger by the service tests.
  const figures = (await financial.json()).data;
  expect(figures).toMatchObject({ currency: "USD", income_cents: expect.any(Number) });
  expect(Number.isInteger(figures.income_cents) && figures.income_cents >= 0).toBe(true);
  const profiles = await request.get("/api/admin/dashboard/system-profiles-summary");
  expect(profiles.status()).toBe(200);
  const summary = (await profiles.json()).data;
  expect(summary.admins).toBeGreaterThanOrEqual(1);
  expect(summary.members).toBeGreaterThanOrEqual(2);
  expect(summary.artists).toBeGreaterThanOrEqual(1);
  expect(summary.provider_profiles).toBeGreaterThanOrEqual(1);
  expect(summary.profiles_pending_approval).toEqual(expect.any(Number));

  const config = await request.get("/api/config");
  expect(config.status()).toBe(200);
});

test("unknown API paths answer 404 JSON, never the HTML page", async ({ request }) => {
  await expectJsonError(request, "/api/nope", 404, "Not found.");
  await expectJsonError(request, "/api/members/2/nothing/here", 404, "Not found.");
  const post = await request.post("/api/nope", { data: {} });
  expect(post.status()).toBe(404);
  expect(await post.json()).toEqual({ message: "Not found.", errors: "Not found." });
});
