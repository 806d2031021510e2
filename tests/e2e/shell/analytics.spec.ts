import crypto from "node:crypto";
import { devices, type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../support/test";

/**
 * Page views (app/components/analytics.tsx) against the local Plausible stand-in that playwright.config.ts
 * starts (tests/e2e/support/analytics-stand-in.mjs): one event per path change, none for a repeated path,
 * nothing automatic. Every page of the suite reports there, so this test marks its own browser with a
 * User-Agent of its own and reads back only those events.
 */

const marker = `backline-analytics-e2e-${crypto.randomBytes(4).toString("hex")}`;
test.use({ userAgent: `${devices["Desktop Chrome"].userAgent} ${marker}` });

interface RecordedEvent {
  body: { name: string; url: string; domain: string; referrer: string | null };
  userAgent: string;
  origin: string | null;
}

function standIn(): string {
  const url = process.env.E2E_ANALYTICS_URL;
  if (!url) throw new Error("E2E_ANALYTICS_URL is not set: run the suite through playwright.config.ts");
  return url;
}

async function ourEvents(request: APIRequestContext): Promise<RecordedEvent[]> {
  const response = await request.get(`${standIn()}/events?${new URLSearchParams({ ua: marker })}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as RecordedEvent[];
}

const paths = (events: RecordedEvent[]) => events.map((e) => new URL(e.body.url).pathname);

/** A client-side navigation through the app's router (what a Link does), to reach a URL no link points to. */
async function navigateClientSide(page: Page, to: string) {
  await page.evaluate(async (target) => {
    const router = (window as unknown as { __reactRouterDataRouter?: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter;
    if (!router) throw new Error("no React Router data router on window");
    await router.navigate(target);
  }, to);
}

test("one pageview per path change (A, B, A), none for the same path with a new query, none automatic", async ({ page, app, request, baseURL }) => {
  const A = "/legal-terms";
  const B = "/legal-terms/terms-of-service";
  let requestsToStandIn = 0;
  page.on("request", (r) => {
    if (r.url().startsWith(standIn())) requestsToStandIn++;
  });

  // A: the first page load reports once.
  await app.goto(A);
  await expect.poll(async () => paths(await ourEvents(request))).toEqual([A]);

  // A -> B through the side list (a client-side navigation).
  await page.getByRole("navigation", { name: "Legal documents" }).getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL(B);
  await expect.poll(async () => paths(await ourEvents(request))).toEqual([A, B]);

  // B -> B?q=1: the same path, skipped.
  await navigateClientSide(page, `${B}?q=1`);
  await expect(page).toHaveURL(`${B}?q=1`);
  await expect(page.getByRole("heading", { level: 2, name: "terms of service", exact: true })).toBeVisible();

  // B -> A: a path change again.
  await navigateClientSide(page, A);
  await expect(page).toHaveURL(A);
  await expect(page.getByText("Choose a document to read it.")).toBeVisible();
  await expect.poll(async () => paths(await ourEvents(request))).toEqual([A, B, A]);

  // Nothing else arrives later (no automatic page views, no event for ?q=1).
  await page.waitForTimeout(1_000);
  const events = await ourEvents(request);
  expect(paths(events)).toEqual([A, B, A]);
  expect(requestsToStandIn, "requests the page sent to the analytics endpoint").toBe(3);

  // The payload Plausible expects.
  for (const [i, event] of events.entries()) {
    expect(event.body).toMatchObject({ name: "pageview", domain: "backline.test", url: `${baseURL}${paths(events)[i]}` });
    expect(event.origin).toBe(baseURL);
  }
  expect(events[0]!.body.url).toBe(`${baseURL}/legal-terms`);
  expect(events[1]!.body.url).toBe(`${baseURL}/legal-terms/terms-of-service`);
});
