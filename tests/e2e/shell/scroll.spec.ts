import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/**
 * Scroll positions (app/components/scroll.ts, ScrollRestoration's getKey): a new path starts at the top;
 * routes flagged `handle.keepScroll` (the legal documents) share one key, so moving between them keeps it.
 */

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const scrollable = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
  await expect.poll(() => scrollY(page)).toBe(y);
}

test.describe("on a short desktop viewport", () => {
  test.use({ viewport: { width: 1100, height: 400 } });

  test("after scrolling down, a link to another path opens the new page at the top", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await app.goto("/member/2/dashboard");
    expect(await scrollable(page), "the member dashboard is longer than the viewport").toBeGreaterThan(300);
    await scrollTo(page, 250);

    // The header is sticky, so the avatar menu is still at hand.
    await page.getByRole("button", { name: "Account menu for Ada Admin" }).click();
    await page.getByRole("menuitem", { name: "Admin Area" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    expect(await scrollable(page), "the admin dashboard is longer than the viewport").toBeGreaterThan(250);
    await expect.poll(() => scrollY(page)).toBe(0);

    // Back restores the position the member dashboard was left at: positions are kept per history entry.
    await page.goBack();
    await expect(page).toHaveURL("/member/2/dashboard");
    await expect.poll(() => scrollY(page)).toBe(250);
  });
});

test.describe("on a short desktop viewport for the legal documents", () => {
  test.use({ viewport: { width: 1000, height: 300 } });

  test("keep-scroll: moving between legal documents from the side list keeps the scroll position", async ({ page, app }) => {
    await app.goto("/legal-terms/terms-of-service");
    expect(await scrollable(page), "the terms are longer than the viewport").toBeGreaterThan(400);
    await scrollTo(page, 180);
    const side = page.getByRole("navigation", { name: "Legal documents" });
    await side.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL("/legal-terms/privacy-policy");
    await expect(page.getByRole("heading", { level: 2, name: "privacy policy", exact: true })).toBeVisible();
    expect(await scrollable(page), "the privacy policy is long enough to stay at 180").toBeGreaterThan(180);
    // Give ScrollRestoration its frame, then the position must be unchanged.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await scrollY(page)).toBe(180);
  });
});
