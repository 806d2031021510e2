import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** Page titles: public `[page | ]route | Backline`, admin `… | Admin Area | Backline`, member `Full Name | … | Backline`. */

test("public pages: Login and a legal document", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Login | Backline");
  await page.goto("/legal-terms/terms-of-service");
  await expect(page).toHaveTitle("terms of service | Legal Terms | Backline");
});

test("admin area: Dashboard and Not Found carry 'Admin Area', also after client-side navigation", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  await expect(page).toHaveTitle("Dashboard | Admin Area | Backline");

  await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Affiliates" }).click();
  await expect(page).toHaveURL("/admin/affiliates");
  await expect(page).toHaveTitle("Affiliates | Admin Area | Backline");

  await page.goto("/admin/nope");
  await expect(page).toHaveTitle("Not Found | Admin Area | Backline");
});

test("member area: the member's full name comes first", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  await expect(page).toHaveTitle("Mia Member | Dashboard | Backline");
  await page.goto("/member/2/nope");
  await expect(page).toHaveTitle("Mia Member | Not Found | Backline");
});

test("an admin viewing member 2 sees the member's title pattern, not the admin one", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await page.goto("/member/2/dashboard");
  await expect(page).toHaveTitle("Mia Member | Dashboard | Backline");
});
