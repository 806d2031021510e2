import { DEMO, DEMO_PASSWORD, UNSIGNED } from "../support/accounts";
import { expect, test } from "../support/test";
import { GATE_DOCUMENT, LEGAL_ADMIN_PASSWORD, LEGAL_MEMBERS } from "./accounts";

/**
 * /admin/signatures (app/routes/admin.signatures._index.tsx): who agreed to which version, when, from where;
 * filters by document, version and member, the CSV export under the same filters; and a member's own
 * agreements on their Account page. Reads the prepared signatures of accounts.ts only.
 */

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("filters by document, version and member, and exports the filtered rows as CSV", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await page.goto("/admin/signatures");
    await expect(page).toHaveTitle("Signatures | Admin Area | Backline");
    await expect(page.getByRole("heading", { level: 1, name: "Signatures" })).toBeVisible();
    const filters = page.getByRole("search", { name: "Filter signatures" });
    await filters.getByLabel("Document").selectOption({ label: GATE_DOCUMENT.name });
    await filters.getByLabel("Version").fill("1");
    await filters.getByRole("button", { name: "Filter" }).click();
    const table = page.getByRole("table", { name: "Signatures, newest first" });
    const rows = table.getByRole("rowgroup").nth(1).getByRole("row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Lea Legal gate");
    await expect(rows.first()).toContainText("203.0.113.7");
    await expect(rows.first()).toContainText("E2E Gate Browser/1.0");
    await expect(filters.getByLabel("Version")).toHaveValue("1");

    // The export link carries the filters.
    const exportLink = page.getByRole("link", { name: /^Export CSV/ });
    const href = await exportLink.getAttribute("href");
    expect(href).toContain("version=1");
    const csv = await page.request.get(href!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="backline-signatures-document-\d+-v1\.csv"$/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("signature_id,member_id,member,email,document_id,document,version,current_version,signed_at,ip,user_agent");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`Lea Legal gate,${LEGAL_MEMBERS.gate},`);
    expect(lines[1]).toContain(",203.0.113.7,E2E Gate Browser/1.0");

    // By member: the bystander agreed to version 2 ahead, and to the demo documents.
    await page.goto("/admin/signatures");
    await filters.getByLabel("Member name or email").fill("legal-bystander");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(rows.filter({ hasText: GATE_DOCUMENT.name })).toContainText(["2"]);
    await expect(rows.filter({ hasText: "Terms of Service" })).toHaveCount(1);

    // Nothing matches: the empty state offers to clear.
    await page.goto("/admin/signatures?member=nobody-matches-this");
    await expect(page.getByText("No signatures match these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Clear", exact: true }).click();
    await expect(page).toHaveURL("/admin/signatures");
  });

  test("lists who still has to agree to the current versions, and exports them as CSV", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await page.goto("/admin/signatures");
    await page.getByRole("navigation", { name: "Signatures view" }).getByRole("link", { name: "Still to agree" }).click();
    await expect(page).toHaveURL(/[?&]view=outstanding/);
    // This prepared account never agreed to anything (it only ever fails a login): each required document is due.
    const filters = page.getByRole("search", { name: "Filter signatures" });
    await expect(filters.getByLabel("Version")).toHaveCount(0);
    await filters.getByLabel("Member name or email").fill(UNSIGNED.wrongPassword);
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]view=outstanding/);
    const table = page.getByRole("table", { name: "Accounts still to agree to the current versions" });
    const rows = table.getByRole("rowgroup").nth(1).getByRole("row");
    await expect(rows.filter({ hasText: "Terms of Service" })).toContainText("Never");
    await expect(rows.filter({ hasText: "Privacy Policy" })).toContainText("Never");
    // The bystander agreed to everything: nothing is due.
    await page.goto(`/admin/signatures?view=outstanding&member=${encodeURIComponent(LEGAL_MEMBERS.bystander)}`);
    await expect(page.getByText("Nobody matching these filters has anything left to agree to.")).toBeVisible();

    const href = await page.getByRole("link", { name: /^Export CSV/ }).getAttribute("href");
    expect(href).toContain("view=outstanding");
    const csv = await page.request.get(`/admin/signatures/export.csv?view=outstanding&member=${encodeURIComponent(UNSIGNED.wrongPassword)}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="backline-still-to-agree-[a-z0-9-]+\.csv"$/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("member_id,member,email,document_id,document,current_version,last_agreed_version");
    expect(lines.filter((l) => l.includes(UNSIGNED.wrongPassword)).length).toBeGreaterThanOrEqual(2);
  });

  test("a member sees their own agreements on their Account page", async ({ page, app }) => {
    const location = await app.logInQuickly(LEGAL_MEMBERS.gate, LEGAL_ADMIN_PASSWORD);
    const memberId = /^\/member\/(\d+)\/dashboard$/.exec(location)![1];
    await page.goto(`/member/${memberId}/profile`);
    const section = page.getByRole("region", { name: "Legal agreements" });
    await expect(section.getByRole("listitem").filter({ hasText: "Terms of Service" })).toContainText("version 1");
    await expect(section.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/legal-terms/terms-of-service");
    await expect(section.getByRole("listitem").filter({ hasText: GATE_DOCUMENT.name }).first()).toBeVisible();
  });
});

test("the legal admin pages fit a phone's width", async ({ page, app }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  for (const path of ["/admin/documents", "/admin/document/create", "/admin/signatures"]) {
    await app.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
  await page.goto("/admin/documents");
  await page.getByRole("link", { name: GATE_DOCUMENT.name, exact: true }).click();
  await app.hydrated();
  await expect(page.getByTestId("document-editor")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
