import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** On a phone the area menu is a drawer behind the header's menu button (app/components/area-shell.tsx). */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("the nav is hidden; the menu button opens it as a drawer that starts at the top and closes on Escape, outside clicks and navigation", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  const nav = page.locator("#area-nav");
  const toggle = page.locator('header button[aria-controls="area-nav"]');

  await expect(nav).toBeHidden();
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAccessibleName("Open menu");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // Open: a drawer over the page.
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(toggle).toHaveAccessibleName("Close menu");
  await expect(nav).toBeVisible();
  await expect(nav).toHaveCSS("position", "fixed");
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeFocused();

  // Scroll it down, close with Escape (focus goes back to the button), reopen: it starts at the top again.
  const scrolled = await nav.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
    return el.scrollTop;
  });
  expect(scrolled, "the drawer is taller than the phone screen").toBeGreaterThan(100);
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
  await expect(toggle).toBeFocused();

  await toggle.click();
  await expect(nav).toBeVisible();
  await expect.poll(() => nav.evaluate((el) => el.scrollTop)).toBe(0);

  // A click outside the drawer (on the dimmed page to its right) closes it.
  const box = (await nav.boundingBox())!;
  expect(box.width).toBeLessThan(390);
  await page.mouse.click(box.x + box.width + 40, 500);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
  await expect(page).toHaveURL("/admin/dashboard");

  // Following a link in the drawer closes it.
  await toggle.click();
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Songs" }).click();
  await expect(page).toHaveURL("/admin/songs");
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Songs" })).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(nav).toBeHidden();
});

test("the member area uses the same drawer", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  const nav = page.getByRole("navigation", { name: "Member menu", includeHidden: true });
  const toggle = page.locator('header button[aria-controls="area-nav"]');
  await expect(nav).toBeHidden();
  await toggle.click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("heading", { level: 2 }).first()).toHaveText("Menu");
  await nav.getByRole("link", { name: "Legal Terms" }).click();
  await expect(page).toHaveURL("/legal-terms");
  await expect(page.getByRole("heading", { level: 1, name: "Legal Terms" })).toBeVisible();
});
