import crypto from "node:crypto";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, sendAppOrigin } from "../support/test";

/**
 * Helpers for tests/e2e/versions (app/routes/admin.versions.tsx, app/components/whats-new.tsx,
 * app/routes/api.versions.*.ts) and tests/e2e/admin/announcements.spec.ts.
 *
 * These specs run in the "versions" project (playwright.config.ts): after every other spec file, one test
 * at a time. Each test publishes its own version, so while it runs that version is the newest.
 */

/** The "What's new" modal (any version). */
export const whatsNew = (page: Page) => page.locator("dialog[data-whats-new]");
/** The flash message's live region (root.tsx). */
export const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
export const realtimeState = (page: Page) => page.locator("[data-realtime-state]");

export const VERSIONS_CHANNEL = "app-versions";

/** A version name no other test uses. */
export const uniqueVersionName = (label: string) => `${label} ${crypto.randomBytes(3).toString("hex")}`;

export interface LatestJson {
  data: { version: { id: number; name: string; content: string }; seen: boolean } | null;
}

/** An API client of its own (its own cookie jar), signed in as `email`; the member id (NaN for an admin). */
export async function signedIn(email: string, password: string): Promise<{ api: APIRequestContext; id: number }> {
  const api = sendAppOrigin(await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL }));
  const response = await api.post("/login", { form: { email, password, redirect: "" }, maxRedirects: 0 });
  expect(response.status(), `log in ${email}`).toBe(302);
  const id = Number(/^\/member\/(\d+)\/dashboard$/.exec(response.headers()["location"] ?? "")?.[1] ?? NaN);
  return { api, id };
}

/** GET /api/versions/latest with this client's session. */
export async function latest(api: APIRequestContext): Promise<LatestJson> {
  const response = await api.get("/api/versions/latest");
  expect(response.status(), "GET /api/versions/latest").toBe(200);
  return response.json();
}

/** Publishes a version through the admin form's POST (as a browser without JavaScript would); returns it. */
export async function publishAsAdmin(name: string, content: string): Promise<{ id: number; name: string; content: string }> {
  const { api } = await signedIn(DEMO.admin, DEMO_PASSWORD);
  try {
    const response = await api.post("/admin/versions", { form: { name, content }, maxRedirects: 0 });
    expect(response.status(), `publish ${name}`).toBe(302);
    // A successful publish comes back with a ?done=<version id> marker (the form then starts empty).
    expect(response.headers()["location"]).toMatch(/^\/admin\/versions\?done=\d+$/);
    const body = await latest(api);
    expect(body.data?.version.name, "the newest version is the one just published").toBe(name);
    // The publisher counts as having seen it.
    expect(body.data?.seen).toBe(true);
    return body.data!.version;
  } finally {
    await api.dispose();
  }
}

/**
 * Records that the signed-in user of `api` (a page's `page.request` shares the page's cookies) has seen
 * the newest version, if there is one: for tests that must start without the modal.
 */
export async function markLatestSeen(api: APIRequestContext) {
  const body = await latest(api);
  if (!body.data || body.data.seen) return;
  const response = await api.post(`/api/versions/${body.data.version.id}/view`);
  expect(response.status(), "record the view").toBe(204);
}

import { waitForSubscription } from "../support/realtime";

export { waitForSubscription };

/**
 * The modal opens in an effect right after hydration (or after a refetch): give it a moment, then
 * check it is still absent. `hydrated` must have resolved before.
 */
export async function expectNoModal(page: Page, settle = 1_500) {
  await page.waitForTimeout(settle);
  await expect(whatsNew(page)).toHaveCount(0);
}
