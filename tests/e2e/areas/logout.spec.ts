import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, type App } from "../support/test";

/** Logging out of an area ends the session; nothing of the area is shown afterwards, not even via Back. */

const LOGIN_FOR_DASHBOARD = `/login?${new URLSearchParams({ redirect: "/member/2/dashboard" })}`;

async function openDashboard(page: Page, app: App) {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  await expect(page.getByText(/^Member since /)).toBeVisible();
  expect(await app.sessionCookie()).toBeDefined();
}

async function expectLoggedOut(page: Page, app: App) {
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  expect(await app.sessionCookie(), "the backline_session cookie").toBeUndefined();

  // Back in history: the dashboard's data is not shown; the guard sends the browser to log in.
  await page.goBack();
  await expect(page).toHaveURL(LOGIN_FOR_DASHBOARD);
  await expect(page.getByLabel("Email")).toBeVisible();
  await expect(page.getByText(/^Member since /)).toHaveCount(0);
  await expect(page.getByText("Mia Member")).toHaveCount(0);
  await page.reload();
  await expect(page).toHaveURL(LOGIN_FOR_DASHBOARD);
  await expect(page.getByText(/^Member since /)).toHaveCount(0);

  // Opening the dashboard again asks to log in, remembering where to go.
  await page.goto("/member/2/dashboard");
  await expect(page).toHaveURL(LOGIN_FOR_DASHBOARD);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  expect(await app.sessionCookie()).toBeUndefined();
}

test("logout through the avatar menu clears the session; the dashboard is gone, also via Back", async ({ page, app }) => {
  // Radix unmounts the item while the click is handled; the menu submits the logout form from onSelect.
  await openDashboard(page, app);
  await page.getByRole("button", { name: "Account menu for Mia Member" }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expectLoggedOut(page, app);
});

test("logout through the area menu clears the session; the dashboard is gone, also via Back", async ({ page, app }) => {
  await openDashboard(page, app);
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("button", { name: "Logout" }).click();
  await expectLoggedOut(page, app);
});
