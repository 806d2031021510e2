import type { Page } from "@playwright/test";
import { expect } from "../support/test";

/** Waits until the page's registration has an activated worker (the first page load is not controlled). */
export async function waitForActiveWorker(page: Page) {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.state ?? null), { timeout: 20_000 })
    .toBe("activated");
}

/** Loads `path`, lets the worker install and activate, then reloads so the worker controls the page. */
export async function openControlled(page: Page, path: string) {
  await page.goto(path);
  await waitForActiveWorker(page);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js/);
}

/** Every cached URL, by cache name. */
export function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const result: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      result[name] = (await cache.keys()).map((request) => request.url);
    }
    return result;
  });
}
