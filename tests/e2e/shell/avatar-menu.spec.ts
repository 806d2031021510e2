import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** The avatar dropdown in the area header (app/components/avatar-menu.tsx): Account, Admin Area (admins in the member area), Logout. */

const trigger = (page: Page, name: string) => page.getByRole("button", { name: `Account menu for ${name}` });
const menu = (page: Page) => page.getByRole("menu");

test("with the mouse: a member sees Account and Logout; a click outside closes it; Account opens the profile", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  const button = trigger(page, "Mia Member");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(menu(page)).toHaveCount(0);

  await button.click();
  await expect(menu(page)).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(menu(page)).toContainText("Mia Member");
  await expect(menu(page)).toContainText(DEMO.member);
  await expect(menu(page).getByRole("menuitem")).toHaveText(["Account", "Logout"]);
  await expect(menu(page).getByRole("menuitem", { name: "Admin Area" })).toHaveCount(0);

  // A click outside (on the page heading) closes it.
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).click();
  await expect(menu(page)).toHaveCount(0);
  await expect(button).toHaveAttribute("aria-expanded", "false");

  await button.click();
  await menu(page).getByRole("menuitem", { name: "Account" }).click();
  await expect(page).toHaveURL("/member/2/profile");
  await expect(menu(page)).toHaveCount(0);
});

test("with the keyboard: Enter opens, arrows move, Escape closes and returns focus, Enter activates", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  const button = trigger(page, "Ada Admin");
  // Until hydration the avatar is a disabled stand-in (the dropdown loads after it): wait for the real trigger.
  await expect(button).toHaveAttribute("aria-expanded", "false");

  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu(page)).toBeVisible();
  const items = menu(page).getByRole("menuitem");
  // An admin inside the member area also gets Admin Area.
  await expect(items).toHaveText(["Account", "Admin Area", "Logout"]);
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(items.nth(1)).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(menu(page)).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(page).toHaveURL("/member/2/dashboard");

  // ArrowDown opens it too; then Enter on "Admin Area" follows the link.
  await page.keyboard.press("ArrowDown");
  await expect(menu(page)).toBeVisible();
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toHaveText("Admin Area");
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/admin/dashboard");
  await expect(page).toHaveTitle("Dashboard | Admin Area | Backline");
  await expect(menu(page)).toHaveCount(0);
});

test("an admin inside /admin gets no Admin Area item", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  await trigger(page, "Ada Admin").click();
  await expect(menu(page).getByRole("menuitem")).toHaveText(["Account", "Logout"]);
  await expect(menu(page).getByRole("menuitem", { name: "Account" })).toHaveAttribute("href", "/member/1/profile");
});
