import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

test("lists the published documents for anyone", async ({ page, app }) => {
  const response = await app.goto("/legal-terms");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Legal Terms | Backline");
  await expect(page.getByRole("heading", { level: 1, name: "Legal Terms" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Legal documents" });
  await expect(nav.getByRole("link")).toHaveText(["Privacy Policy", "Terms of Service"]);
  await expect(page.getByText("Choose a document to read it.")).toBeVisible();

  await nav.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL("/legal-terms/terms-of-service");
  await expect(page).toHaveTitle("terms of service | Legal Terms | Backline");
  await expect(page.getByRole("heading", { level: 2, name: "terms of service", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "1. Who we are" })).toBeVisible();
  await expect(page.getByText(/^Version 1, updated \d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(nav.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("aria-current", "page");
});

test("opens a document directly, also when logged in", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await page.goto("/legal-terms/privacy-policy");
  await expect(page).toHaveTitle("privacy policy | Legal Terms | Backline");
  await expect(page.getByRole("heading", { name: "What we collect" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Account" })).toContainText("Mia Member");
});

test("an unknown document answers 404", async ({ page, browserErrors }) => {
  browserErrors.allowStatus(404);
  const response = await page.goto("/legal-terms/no-such-document");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
  await expect(page.getByText("This document does not exist or is not published.")).toBeVisible();
  await expect(page.getByText("1. Who we are")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the list and the documents render on the server", async ({ page }) => {
    await page.goto("/legal-terms");
    await page.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL("/legal-terms/privacy-policy");
    await expect(page.getByRole("heading", { name: "Your rights" })).toBeVisible();
  });
});
