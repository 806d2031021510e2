import { expect, test } from "../support/test";

/**
 * The browser's fetch interceptor (app/components/http-interceptor.client.ts): a 401 from the API sends
 * the user to /login?redirect=<where they were>.
 *
 * Not covered: the exception for a 401/419 whose `errors` is 'Invalid signature.' (no redirect). No route
 * of the app answers the API with that today (signed links answer HTML pages), so there is nothing to call.
 */

test("a 401 from the API sends a logged-out page to /login with the redirect back", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(401);
  await app.goto("/legal-terms/privacy-policy?from=test");
  // Fire and forget: the navigation the interceptor starts would end an awaited evaluate.
  await page.evaluate(() => {
    void fetch("/api/config");
  });
  await expect(page).toHaveURL(`/login?${new URLSearchParams({ redirect: "/legal-terms/privacy-policy?from=test" })}`);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("other failures (404) do not redirect", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.goto("/legal-terms");
  const status = await page.evaluate(async () => (await fetch("/api/nope")).status);
  expect(status).toBe(404);
  await page.waitForTimeout(300);
  await expect(page).toHaveURL("/legal-terms");
});
