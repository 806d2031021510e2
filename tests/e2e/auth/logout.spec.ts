import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, sendAppOrigin } from "../support/test";

const MEMBER_DASHBOARD = /\/member\/\d+\/dashboard$/;

test("GET /logout only redirects to /login and does not log anyone out", async ({ page, app, request, browserErrors }) => {
  browserErrors.allowStatus(404);
  const anonymous = await request.get("/logout", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers()["location"]).toBe("/login");

  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await page.goto("/logout");
  // Still logged in: /login sends the member on to the dashboard.
  await expect(page).toHaveURL(MEMBER_DASHBOARD);
  expect(await app.sessionCookie()).toBeDefined();
});

test("the header's Logout button ends the session on the server and clears the cookie", async ({ page, app, browser, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/legal-terms");
  const account = page.getByRole("navigation", { name: "Account" });
  await expect(account).toContainText("Mia Member");
  const cookie = await app.sessionCookie();
  expect(cookie).toBeDefined();

  await account.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await expect(account.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(account).not.toContainText("Mia Member");
  expect(await app.sessionCookie()).toBeUndefined();

  // Going back does not bring the session back.
  await page.goBack();
  await expect(page).toHaveURL("/legal-terms");
  await page.reload();
  await expect(account).not.toContainText("Mia Member");
  await page.goto("/login");
  await expect(page).toHaveURL("/login");
  await expect(page.getByLabel("Email")).toBeVisible();

  // The old cookie, replayed from elsewhere, no longer opens a session: it was deleted on the server.
  const thief = await browser.newContext();
  sendAppOrigin(thief.request);
  browserErrors.watch(thief);
  await thief.addCookies([cookie!]);
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/login");
  await expect(thiefPage).toHaveURL("/login");
  await expect(thiefPage.getByRole("heading", { name: "Log in" })).toBeVisible();
  await thiefPage.goto("/legal-terms");
  await expect(thiefPage.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Login" })).toBeVisible();
  await thief.close();
});

test("logging out when not logged in just shows the login page", async ({ request }) => {
  const response = await request.post("/logout", { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()["location"]).toBe("/login");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Logout button works as a plain form", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logIn(DEMO.admin, DEMO_PASSWORD, { redirect: "/legal-terms" });
    await expect(page).toHaveURL("/legal-terms");
    await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    expect(await app.sessionCookie()).toBeUndefined();
  });
});
