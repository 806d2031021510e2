import { request as playwrightRequest, type Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { expect, test, type App } from "../support/test";
import { VERSION_MEMBERS, VERSION_PASSWORD } from "../support/version-accounts";
import {
  expectNoModal,
  latest,
  markLatestSeen,
  publishAsAdmin,
  realtimeState,
  signedIn,
  uniqueVersionName,
  VERSIONS_CHANNEL,
  waitForSubscription,
  whatsNew,
} from "./helpers";

/**
 * "What's new" (app/components/whats-new.tsx): the newest version's notes in a modal, once per version per
 * user, recorded by POST /api/versions/{id}/view; live in the member area; refetched after the service
 * worker's update (sessionStorage "backline:new-version"). And the JSON API behind it.
 */

// Several browsers, logins and realtime round trips: slow on a loaded machine.
test.describe.configure({ timeout: 60_000 });

const NEW_VERSION_KEY = "backline:new-version";
const isView = (url: string) => /\/api\/versions\/\d+\/view$/.test(new URL(url).pathname);
const isLatest = (url: string) => new URL(url).pathname === "/api/versions/latest";

/** The modal is open for `version`: a modal dialog named by the version, focus inside it. */
async function expectModalFor(page: Page, version: { id: number; name: string }) {
  const dialog = page.getByRole("dialog", { name: version.name, exact: true });
  await expect(dialog).toBeVisible({ timeout: 10_000 });
  await expect(dialog).toHaveAttribute("data-whats-new", String(version.id));
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  expect(await dialog.evaluate((el) => el.contains(document.activeElement) && (el as HTMLDialogElement).open)).toBe(true);
  // Opened with showModal(): in the top layer, the page behind is inert.
  expect(await dialog.evaluate((el) => el.matches(":modal"))).toBe(true);
  return dialog;
}

/** Logs a member in through the login form (with JavaScript: the app's own client navigation). */
async function logInThroughForm(app: App, email: string, page: Page): Promise<number> {
  await app.logIn(email, VERSION_PASSWORD, { page });
  await page.waitForURL(/\/member\/\d+\/dashboard$/);
  await app.hydrated(page);
  return Number(/\/member\/(\d+)\/dashboard$/.exec(page.url())![1]);
}

test("after a version is published, a member who logs in sees it once: not after a reload, a navigation or in a new browser; a second member too", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  const version = await publishAsAdmin(uniqueVersionName("Release 4.0"), "<h2>Setlists</h2><p>Share a setlist with your band.</p>");

  // The first member logs in: the modal opens, the view is recorded.
  const viewed = page.waitForResponse((r) => r.request().method() === "POST" && isView(r.url()));
  const memberId = await logInThroughForm(app, VERSION_MEMBERS.once, page);
  const dialog = await expectModalFor(page, version);
  await expect(dialog.getByRole("region", { name: "Release notes" })).toContainText("Share a setlist with your band.");
  await expect(dialog.getByText("What’s new", { exact: true })).toBeVisible();
  const view = await viewed;
  expect(view.status()).toBe(204);
  expect(new URL(view.url()).pathname).toBe(`/api/versions/${version.id}/view`);

  // Tab stays inside.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `focus after Tab ${i + 1}`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(whatsNew(page)).toHaveCount(0);
  await expect(page).toHaveURL(`/member/${memberId}/dashboard`);

  // Not again: a reload, a client-side navigation, and back to the dashboard.
  await page.reload();
  await app.hydrated();
  await expectNoModal(page);
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Account", exact: true }).click();
  await expect(page).toHaveURL(`/member/${memberId}/profile`);
  await expectNoModal(page, 1_000);
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page).toHaveURL(`/member/${memberId}/dashboard`);
  await expectNoModal(page, 1_000);

  // Nor in another browser (its own storage) for the same member: the view is kept on the server.
  const again = await otherBrowser(browser, browserErrors);
  await logInThroughForm(app, VERSION_MEMBERS.once, again.page);
  await expectNoModal(again.page);
  expect((await latest(again.page.request)).data).toMatchObject({ version: { id: version.id }, seen: true });
  await again.context.close();

  // A second member sees it too, once; "Got it" closes it.
  const second = await otherBrowser(browser, browserErrors);
  const secondId = await logInMember(app, VERSION_MEMBERS.second, VERSION_PASSWORD, second.page);
  const secondViewed = second.page.waitForResponse((r) => r.request().method() === "POST" && isView(r.url()));
  await app.goto(`/member/${secondId}/dashboard`, second.page);
  const secondDialog = await expectModalFor(second.page, version);
  expect((await secondViewed).status()).toBe(204);
  await secondDialog.getByRole("button", { name: "Got it" }).click();
  await expect(whatsNew(second.page)).toHaveCount(0);
  await second.page.reload();
  await app.hydrated(second.page);
  await expectNoModal(second.page);
  await second.context.close();
});

test("a member already on their dashboard gets a newly published version live, without a page load", async ({ page, app }) => {
  const memberId = await logInMember(app, VERSION_MEMBERS.live, VERSION_PASSWORD);
  await markLatestSeen(page.request);
  const subscribed = waitForSubscription(page, VERSIONS_CHANNEL);
  await app.goto(`/member/${memberId}/dashboard`);
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "connected", { timeout: 15_000 });
  await subscribed;
  await expectNoModal(page, 500);
  await page.evaluate(() => {
    (window as unknown as { __versionMarker?: string }).__versionMarker = "kept";
  });
  const loads: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) loads.push(frame.url());
  });
  const refetched = page.waitForResponse((r) => isLatest(r.url()), { timeout: 20_000 });
  const viewed = page.waitForResponse((r) => r.request().method() === "POST" && isView(r.url()), { timeout: 20_000 });

  const version = await publishAsAdmin(uniqueVersionName("Live 4.1"), "<p>Published while you were here.</p>");

  // The refetch waits up to 1.5 s on purpose (spread over the open pages).
  await expect((await refetched).status()).toBe(200);
  const dialog = await expectModalFor(page, version);
  await expect(dialog).toContainText("Published while you were here.");
  expect((await viewed).status()).toBe(204);
  await page.keyboard.press("Escape");
  await expect(whatsNew(page)).toHaveCount(0);

  expect(await page.evaluate(() => (window as unknown as { __versionMarker?: string }).__versionMarker)).toBe("kept");
  expect(loads, "navigations in the member's page").toEqual([]);
  expect((await latest(page.request)).data).toMatchObject({ version: { id: version.id }, seen: true });
});

test.describe("the JSON API", () => {
  test("GET /api/versions/latest says seen false before the modal and true after; unknown ids 404; no session 401", async ({ page, app }) => {
    const name = uniqueVersionName("API 4.2");
    const version = await publishAsAdmin(name, "<p>Through the API</p><script>alert(1)</script>");
    expect(version.content).toBe("<p>Through the API</p>");

    const memberId = await logInMember(app, VERSION_MEMBERS.api, VERSION_PASSWORD);
    const before = await page.request.get("/api/versions/latest");
    expect(before.status()).toBe(200);
    expect(before.headers()["content-type"]).toMatch(/^application\/json/);
    expect(before.headers()["cache-control"]).toBe("private, no-store");
    expect(await before.json()).toEqual({ data: { version: { id: version.id, name, content: "<p>Through the API</p>" }, seen: false } });

    // The modal records the view.
    const viewed = page.waitForResponse((r) => r.request().method() === "POST" && isView(r.url()));
    await app.goto(`/member/${memberId}/dashboard`);
    await expectModalFor(page, version);
    expect((await viewed).status()).toBe(204);
    expect(await latest(page.request)).toEqual({ data: { version: { id: version.id, name, content: "<p>Through the API</p>" }, seen: true } });

    // Recording again changes nothing (idempotent).
    expect((await page.request.post(`/api/versions/${version.id}/view`)).status()).toBe(204);
    expect((await latest(page.request)).data?.seen).toBe(true);

    for (const id of ["999999", "0", "abc"]) {
      const response = await page.request.post(`/api/versions/${id}/view`);
      expect(response.status(), `POST /api/versions/${id}/view`).toBe(404);
      expect(response.headers()["content-type"]).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: "Not found.", errors: "Not found." });
    }

    // No session: 401 JSON, for both.
    const anonymous = await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL });
    for (const response of [await anonymous.get("/api/versions/latest"), await anonymous.post(`/api/versions/${version.id}/view`)]) {
      expect(response.status(), response.url()).toBe(401);
      expect(response.headers()["content-type"]).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ message: "Unauthenticated.", errors: "Unauthenticated." });
    }
    await anonymous.dispose();

    // Someone else's state is their own: another member has not seen it.
    const other = await signedIn(VERSION_MEMBERS.handoffFetch, VERSION_PASSWORD);
    expect((await latest(other.api)).data).toMatchObject({ version: { id: version.id }, seen: false });
    await other.api.dispose();
  });
});

test.describe("the service worker's handoff", () => {
  // page.route does not see requests a service worker answers: keep the worker out of these pages.
  test.use({ serviceWorkers: "block" });

  test('sessionStorage "backline:new-version" = "true": a reload refetches the latest version and removes the key', async ({ page, app }) => {
    await publishAsAdmin(uniqueVersionName("Handoff 4.3"), "<p>After an update</p>");
    const memberId = await logInMember(app, VERSION_MEMBERS.handoff, VERSION_PASSWORD);
    await markLatestSeen(page.request);
    const latestRequests: string[] = [];
    page.on("request", (r) => {
      if (isLatest(r.url())) latestRequests.push(r.url());
    });

    // Without the key, loading the page does not fetch it (the layout's data says it was seen).
    await app.goto(`/member/${memberId}/dashboard`);
    await expectNoModal(page);
    expect(latestRequests, "fetches of /api/versions/latest without the key").toEqual([]);

    await page.evaluate((key) => sessionStorage.setItem(key, "true"), NEW_VERSION_KEY);
    const refetched = page.waitForResponse((r) => isLatest(r.url()));
    await page.reload();
    const response = await refetched;
    expect(response.status()).toBe(200);
    expect((await response.json()).data.seen).toBe(true);
    await expect.poll(() => page.evaluate((key) => sessionStorage.getItem(key), NEW_VERSION_KEY)).toBeNull();
    // Seen already: nothing opens.
    await expectNoModal(page);
    expect(latestRequests).toHaveLength(1);

    // Once only: the next reload does not fetch again.
    await page.reload();
    await app.hydrated();
    await page.waitForTimeout(1_500);
    expect(latestRequests).toHaveLength(1);
  });

  test("the refetched version is the one the modal shows, even when the page's own data says there is nothing new", async ({ page, app }) => {
    await publishAsAdmin(uniqueVersionName("Handoff 4.4"), "<p>Loader notes</p>");
    const memberId = await logInMember(app, VERSION_MEMBERS.handoffFetch, VERSION_PASSWORD);
    await markLatestSeen(page.request);
    await app.goto(`/member/${memberId}/dashboard`);
    await expectNoModal(page, 500);

    // What the server answers after a deploy that the page's loader data does not know about yet.
    const fresh = { id: 2_000_000_000, name: uniqueVersionName("Just installed"), content: "<p>Straight from the refetch</p>" };
    await page.route("**/api/versions/latest", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ data: { version: fresh, seen: false } }) }),
    );
    const views: string[] = [];
    await page.route("**/api/versions/*/view", (route) => {
      views.push(new URL(route.request().url()).pathname);
      return route.fulfill({ status: 204 });
    });

    await page.evaluate((key) => sessionStorage.setItem(key, "true"), NEW_VERSION_KEY);
    await page.reload();
    const dialog = await expectModalFor(page, fresh);
    await expect(dialog).toContainText("Straight from the refetch");
    await expect.poll(() => views).toEqual([`/api/versions/${fresh.id}/view`]);
    await expect.poll(() => page.evaluate((key) => sessionStorage.getItem(key), NEW_VERSION_KEY)).toBeNull();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(whatsNew(page)).toHaveCount(0);
  });
});
