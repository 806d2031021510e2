import { DEMO, DEMO_PASSWORD, UNSIGNED, UNSIGNED_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** A user who has not agreed to every required document is kept on /login until they do. */

test("new@example.com agrees to the documents, continues to the redirect target and is not asked again", async ({ page, app }) => {
  await app.logIn(DEMO.newcomer, DEMO_PASSWORD, { redirect: "/legal-terms/terms-of-service" });
  await expect(page).toHaveURL(`/login?${new URLSearchParams({ redirect: "/legal-terms/terms-of-service" })}`);
  await expect(page).toHaveTitle("Legal agreements | Backline");
  await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  const list = page.getByRole("main").getByRole("listitem");
  await expect(list).toHaveText([/^Privacy Policy\s*Read Privacy Policy$/, /^Terms of Service\s*Read Terms of Service$/]);
  await expect(page.getByRole("link", { name: "Read Terms of Service" })).toHaveAttribute("href", "/legal-terms/terms-of-service");
  // Logged in, but nowhere else to go until the documents are agreed to.
  expect(await app.sessionCookie()).toBeDefined();

  await app.hydrated();
  await page.getByRole("button", { name: "I agree" }).click();
  await expect(page).toHaveURL("/legal-terms/terms-of-service");
  await expect(page.getByRole("heading", { name: "terms of service" })).toBeVisible();

  // Opening /login now goes straight on: nothing is pending any more.
  await page.goto("/login?redirect=/legal-terms");
  await expect(page).toHaveURL("/legal-terms");

  // And a fresh login is not asked again either.
  await page.context().clearCookies();
  await app.logIn(DEMO.newcomer, DEMO_PASSWORD, { redirect: "/legal-terms/privacy-policy" });
  await expect(page).toHaveURL("/legal-terms/privacy-policy");
});

test("agreeing to only some of the documents is refused and the rest stay pending", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400, 404);
  await app.logIn(UNSIGNED.partial, UNSIGNED_PASSWORD, { redirect: "/legal-terms" });
  await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  const ids = await page.locator('input[name="documentId"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  expect(ids).toHaveLength(2);

  // A hand-made request that agrees to the first document only (page.request shares the session cookie).
  const partial = await page.request.post("/login", { form: { intent: "agree", documentId: ids[0]!, redirect: "/legal-terms" }, maxRedirects: 0 });
  expect(partial.status()).toBe(400);
  expect(await partial.text()).toContain("Agree to every document listed to continue.");

  // A request naming no document at all.
  const none = await page.request.post("/login", { form: { intent: "agree", redirect: "/legal-terms" }, maxRedirects: 0 });
  expect(none.status()).toBe(400);

  await app.goto("/login?redirect=/legal-terms");
  await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: "I agree" }).click();
  await expect(page).toHaveURL("/legal-terms");
});

test("agreeing without a session just goes back to the login form", async ({ request }) => {
  const response = await request.post("/login", { form: { intent: "agree", documentId: "1" }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe("/login");
});

test("'Log out instead' ends the session from the agreement page", async ({ page, app }) => {
  await app.logIn(UNSIGNED.logout, UNSIGNED_PASSWORD);
  await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  expect(await app.sessionCookie()).toBeDefined();
  await page.getByRole("button", { name: "Log out instead" }).click();
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(page).toHaveURL("/login");
  expect(await app.sessionCookie()).toBeUndefined();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the agreement list and 'I agree' work and continue to the redirect target", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logIn(UNSIGNED.noJs, UNSIGNED_PASSWORD, { redirect: "/legal-terms/privacy-policy" });
    await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(2);
    await page.getByRole("button", { name: "I agree" }).click();
    await expect(page).toHaveURL("/legal-terms/privacy-policy");
    await page.goto("/login");
    await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);
  });
});
