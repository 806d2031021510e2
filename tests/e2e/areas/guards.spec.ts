import { DEMO, DEMO_IDS, DEMO_NAMES, DEMO_PASSWORD, UNSIGNED, UNSIGNED_PASSWORD } from "../support/accounts";
import { expect, test, sendAppOrigin } from "../support/test";

/**
 * The area guards of the product specification (app/modules/accounts/guards.server.ts), in a real browser.
 * Rules: 5 no session -> /login?redirect=<path+query>; 2 documents not agreed -> /login listing them;
 * 3 admin routes need an admin; 4/1 a member id that is not yours -> the area's 404 (admins may open any).
 */

const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;

test.describe("without a session", () => {
  test("/admin/dashboard goes to /login?redirect=/admin/dashboard, and logging in lands there", async ({ page, app }) => {
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(loginFor("/admin/dashboard"));
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();

    await app.hydrated();
    await page.getByLabel("Email").fill(DEMO.admin);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
    await expect(page).toHaveTitle("Dashboard | Admin Area | Backline");
  });

  test("/member/2/dashboard?tab=x keeps the query in the redirect, and logging in lands on it", async ({ page, app }) => {
    await page.goto("/member/2/dashboard?tab=x");
    await expect(page).toHaveURL(loginFor("/member/2/dashboard?tab=x"));
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/member/2/dashboard?tab=x");

    await app.hydrated();
    await page.getByLabel("Email").fill(DEMO.member);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL("/member/2/dashboard?tab=x");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page).toHaveTitle("Mia Member | Dashboard | Backline");
  });

  test("a path that already carries a redirect gets an empty redirect", async ({ page, request }) => {
    await page.goto("/member/2/dashboard?redirect=/admin/dashboard");
    await expect(page).toHaveURL("/login?redirect=");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();

    // The same answer without a browser, for the admin area too.
    const response = await request.get("/admin/dashboard?redirect=%2Fsomewhere", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/login?redirect=");
  });
});

test("a user who has not agreed to the documents is sent to /login listing them, and 'I agree' continues to their dashboard", async ({ page, app }) => {
  // new@example.com belongs to legal-agreement.spec.ts; this prepared account is in the same state.
  const location = await app.logInQuickly(UNSIGNED.guard, UNSIGNED_PASSWORD);
  const id = /^\/login\?redirect=%2Fmember%2F(\d+)%2Fdashboard$/.exec(location)?.[1];
  expect(id, `member id in ${location}`).toBeTruthy();
  const dashboard = `/member/${id}/dashboard`;

  await page.goto(dashboard);
  await expect(page).toHaveURL(loginFor(dashboard));
  await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("listitem")).toHaveText([
    /^Privacy Policy\s*Read Privacy Policy$/,
    /^Terms of Service\s*Read Terms of Service$/,
  ]);
  // Only the public site's header: no area shell and no dashboard before agreeing.
  await expect(page.getByRole("navigation", { name: "Member menu" })).toHaveCount(0);
  await expect(page.getByText(/^Member since /)).toHaveCount(0);

  await app.hydrated();
  await page.getByRole("button", { name: "I agree" }).click();
  await expect(page).toHaveURL(dashboard);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page).toHaveTitle("Uma Unsigned guard | Dashboard | Backline");
});

test("a member opening /admin/dashboard ends on their own member dashboard", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
  await expect(page).toHaveTitle("Mia Member | Dashboard | Backline");
  await expect(page.getByRole("navigation", { name: "Admin menu" })).toHaveCount(0);
  await expect(page.getByText(/^Member since /)).toBeVisible();
});

test("a member opening another member's area gets Not Found with status 404 and none of that member's data", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  for (const path of [`/member/${DEMO_IDS.admin}/dashboard`, `/member/${DEMO_IDS.newcomer}/nope`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page).toHaveURL(path);
    await expect(page.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
    const text = await page.locator("body").innerText();
    for (const other of [DEMO_NAMES.admin, DEMO.admin, DEMO_NAMES.newcomer, DEMO.newcomer]) {
      expect(text, `${path} mentions ${other}`).not.toContain(other);
    }
    const html = await response!.text();
    expect(html, `${path} HTML mentions ${DEMO.admin}`).not.toContain(DEMO.admin);
    expect(html).not.toContain(DEMO_NAMES.admin);
    expect(html).not.toContain(DEMO_NAMES.newcomer);
    // No area shell of the other member either.
    await expect(page.getByRole("navigation", { name: "Member menu" })).toHaveCount(0);
  }
});

test("an admin opening /member/2/dashboard sees Mia Member's area with the administrator banner", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const response = await page.goto(`/member/${DEMO_IDS.member}/dashboard`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
  await expect(page.getByText("You are viewing the member area of Mia Member as an administrator.")).toBeVisible();
  await expect(page).toHaveTitle("Mia Member | Dashboard | Backline");
  await expect(page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Dashboard" })).toHaveAttribute(
    "href",
    `/member/${DEMO_IDS.member}/dashboard`,
  );

  // In their own area there is no such banner.
  await page.goto(`/member/${DEMO_IDS.admin}/dashboard`);
  await expect(page).toHaveTitle("Ada Admin | Dashboard | Backline");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText(/as an administrator/)).toHaveCount(0);
});

test("malformed member ids answer 404, for a member and for an admin", async ({ page, app, browser, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  const paths = ["/member/abc/dashboard", "/member/0/dashboard", "/member/02/dashboard", "/member/-2/dashboard", "/member/99999999999/dashboard"];
  for (const path of paths) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  }

  const adminContext = await browser.newContext();
  sendAppOrigin(adminContext.request);
  browserErrors.watch(adminContext);
  const adminPage = await adminContext.newPage();
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD, { page: adminPage });
  for (const path of ["/member/abc/dashboard", "/member/0/dashboard"]) {
    const response = await adminPage.goto(path);
    expect(response?.status(), `${path} as the admin`).toBe(404);
    await expect(adminPage.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  }
  await adminContext.close();
});

test("an unknown path inside the admin area is the area's Not Found (404) inside the shell", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  for (const path of ["/admin/nope", "/admin/deeper/still/nope"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page).toHaveTitle("Not Found | Admin Area | Backline");
    await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin menu" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Back to the dashboard" })).toHaveAttribute("href", "/admin/dashboard");
  }
});

test("an unknown path inside the member area is the area's Not Found (404) inside the shell", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  const response = await page.goto(`/member/${DEMO_IDS.member}/nope`);
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Mia Member | Not Found | Backline");
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Member menu" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Back to the dashboard" })).toHaveAttribute("href", `/member/${DEMO_IDS.member}/dashboard`);
});
