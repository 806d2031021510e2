import type { BrowserContext, Page, Route } from "@playwright/test";
import { expect, test } from "../support/test";
import { waitForActiveWorker } from "./helpers";

/**
 * A new deploy. The browser first installs an "old build": the real /sw.js
 * with one more message handler, served by the test for the first registration only. Its next update
 * check (the browser's own, after the reload) fetches the real script, which differs: that is the new
 * version, installed and kept waiting until the user agrees.
 */

const OLD_BUILD = `
;self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "E2E_BUILD") event.ports[0].postMessage("old");
});
`;
const PROMPT = "New version available! Would you like to update?";

/**
 * While a route is installed Playwright intercepts every request of the context, and Chromium then
 * treats the first page as public: its analytics call to the loopback stand-in is refused. Test-only.
 */
const INTERCEPTED_ANALYTICS = [
  /Access to fetch at 'http:\/\/127\.0\.0\.1:\d+\/api\/event' .* the `loopback` address space/,
  /net::ERR_FAILED \(http:\/\/127\.0\.0\.1:\d+\/api\/event\)/,
];

async function installOldBuild(context: BrowserContext) {
  const handler = async (route: Route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()) + OLD_BUILD });
    // Once: later requests (and the browser's update checks) see the real script, and the pages
    // load without interception.
    await context.unroute("**/sw.js", handler);
  };
  await context.route("**/sw.js", handler);
}

/** Which build controls the page: "old", or "new" when the controller does not answer as the old one. */
function controllingBuild(page: Page) {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve("none");
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(String(event.data));
        controller.postMessage({ type: "E2E_BUILD" }, [channel.port2]);
        setTimeout(() => resolve("new"), 1000);
      }),
  );
}

test("a waiting new version asks the user; accepting shows 'Updating...' and reloads once under it", async ({ page, context, app, browserErrors }) => {
  browserErrors.allow(...INTERCEPTED_ANALYTICS);
  await installOldBuild(context);
  // Records the loader the moment it appears (the page reloads right after).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const overlay = document.querySelector('[data-testid="updating-overlay"]');
      if (overlay) sessionStorage.setItem("e2e:overlay", overlay.textContent ?? "");
    }).observe(document, { childList: true, subtree: true });
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });

  await app.goto("/login");
  await waitForActiveWorker(page);
  expect(dialogs, "a first install is not an update").toEqual([]);

  let loads = 0;
  page.on("load", () => loads++);
  await page.reload();
  await expect.poll(() => dialogs).toEqual([`confirm: ${PROMPT}`]);
  // The reload above, then exactly one more into the new worker.
  await expect.poll(() => loads, { timeout: 15_000 }).toBe(2);
  await app.hydrated();
  expect(await controllingBuild(page)).toBe("new");
  expect(await page.evaluate(() => sessionStorage.getItem("backline:new-version"))).toBe("true");
  expect(await page.evaluate(() => sessionStorage.getItem("e2e:overlay"))).toBe("Updating...");
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.waiting ?? null)).toBeNull();

  // No loop: no further prompt or reload.
  await page.waitForTimeout(2000);
  expect(loads).toBe(2);
  expect(dialogs).toHaveLength(1);
  await expect(page.getByTestId("updating-overlay")).toHaveCount(0);
});

test("declining keeps the page under the old worker; the new one stays waiting", async ({ page, context, app, browserErrors }) => {
  browserErrors.allow(...INTERCEPTED_ANALYTICS);
  await installOldBuild(context);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await app.goto("/login");
  await waitForActiveWorker(page);
  let loads = 0;
  page.on("load", () => loads++);
  await page.reload();
  await app.hydrated();
  await expect.poll(() => dialogs).toEqual([PROMPT]);
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.waiting?.state ?? null)).toBe("installed");
  await page.waitForTimeout(1000);
  expect(loads).toBe(1);
  expect(await controllingBuild(page)).toBe("old");
  await expect(page.getByTestId("updating-overlay")).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem("backline:new-version"))).toBeNull();
});
