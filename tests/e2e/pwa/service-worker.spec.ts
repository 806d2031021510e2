import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { cachedUrls, openControlled, waitForActiveWorker } from "./helpers";

/** The offline worker: registration, precache, offline fallback, private data, logout. */

test("the worker registers after hydration, precaches the build and controls the page after a reload", async ({ page, app }) => {
  await app.goto("/login");
  // Not controlled on the first visit: the worker never claims pages on its own.
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  await waitForActiveWorker(page);

  await page.reload();
  await app.hydrated();
  const scriptURL = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
  expect(new URL(scriptURL!).pathname).toBe("/sw.js");

  const stored = await cachedUrls(page);
  const precache = Object.keys(stored).find((name) => /^backline-precache-[0-9a-f]{16}$/.test(name));
  expect(precache, Object.keys(stored).join(", ")).toBeDefined();
  const paths = stored[precache!]!.map((url) => new URL(url).pathname);
  expect(paths).toContain("/offline");
  // Every built file this page loaded (scripts, styles) is in the precache.
  const loaded = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith("/assets/")),
  );
  expect(loaded.length).toBeGreaterThan(0);
  for (const file of loaded) expect(paths).toContain(file);
});

test("offline, a page load and a client-side navigation both land on the offline page", async ({ page, app, context, browserErrors }) => {
  // Analytics' page view and realtime cannot leave the browser while it is offline.
  browserErrors.allow(/ERR_INTERNET_DISCONNECTED/, /WebSocket/);
  await openControlled(page, "/login");
  await app.hydrated();

  await context.setOffline(true);
  await page.goto("/register");
  await expect(page).toHaveURL("/offline?from=%2Fregister");
  await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
  await expect(page).toHaveTitle(/^Offline \| /);
  await app.hydrated();
  await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", "/register");

  // A link followed inside the app: its data request fails, the worker turns it into the offline page.
  await page.getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL("/offline?from=%2Flogin");
  await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("API responses, page data and pages are never cached", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await openControlled(page, "/member/2/dashboard");
  await app.hydrated();

  // API calls, single-fetch data (a client-side navigation) and a realtime auth attempt, all through the worker.
  await page.evaluate(async () => {
    await fetch("/api/config", { headers: { Accept: "application/json" } });
    await fetch("/api/members/profile/logged-user/2", { headers: { Accept: "application/json" } });
    await fetch("/member/2/dashboard.data");
  });
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("link").first().click();
  await page.waitForLoadState("networkidle");

  const stored = await cachedUrls(page);
  const all = Object.values(stored)
    .flat()
    .map((url) => new URL(url));
  expect(all.length).toBeGreaterThan(0);
  for (const url of all) {
    expect(url.pathname, url.href).not.toMatch(/^\/api\/|\.data$|^\/broadcasting|^\/logout/);
    // The only page stored is the anonymous offline page.
    expect(url.pathname === "/offline" || /^\/(assets|storage\/images)\//.test(url.pathname), url.href).toBe(true);
  }
  // The stored offline page was rendered without the session: no one's name in it.
  const offlineHtml = await page.evaluate(async () => (await caches.match("/offline"))?.text());
  expect(offlineHtml).toContain("You are offline");
  expect(offlineHtml).not.toContain("Mia Member");
});

test("CLEAR_CACHES empties the runtime caches, and logging out clears them", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await openControlled(page, "/member/2/dashboard");
  await app.hydrated();

  const fillRuntimeCache = () =>
    page.evaluate(async () => {
      const cache = await caches.open("backline-images-v1");
      await cache.put("/storage/images/avatars/00000000000000000000000000000000/64x64.webp", new Response("x"));
    });
  const runtimeCaches = async () => Object.keys(await cachedUrls(page)).filter((name) => !name.startsWith("backline-precache-"));

  await fillRuntimeCache();
  expect(await runtimeCaches()).toContain("backline-images-v1");
  const reply = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller!.postMessage({ type: "CLEAR_CACHES" }, [channel.port2]);
      }),
  );
  expect(reply).toEqual({ type: "CACHES_CLEARED" });
  expect(await runtimeCaches()).toEqual([]);
  // The precache (built assets, the anonymous offline page) stays: the offline page keeps working.
  expect(Object.keys(await cachedUrls(page)).some((name) => name.startsWith("backline-precache-"))).toBe(true);

  await fillRuntimeCache();
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect.poll(runtimeCaches).toEqual([]);
});
