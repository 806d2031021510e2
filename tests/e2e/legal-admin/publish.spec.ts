import type { Page } from "@playwright/test";
import { flash, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { GATE_DOCUMENT, LEGAL_ADMIN_PASSWORD, LEGAL_MEMBERS } from "./accounts";

/**
 * Publishing a new version of a required document sends its earlier signers back through the agreement gate
 * on their next request, showing what changed; the public page shows the published,
 * sanitised text.
 *
 * The e2e database is shared with specs running in parallel, so the publication is of "E2E Gate Notice"
 * (accounts.ts): every prepared account agreed to its version 2 ahead, except the gate member, who alone is sent
 * through the gate. While it is published it is also listed on Legal Terms and on the registration form, so the
 * test keeps that window short (edits and previews happen while it is withdrawn) and withdraws it at once.
 */

const HTML = "Text (HTML)";
const V2 =
  "<h2>Notice</h2><p>Members keep their recordings private until they choose to share them.</p><p>Disputes go to mediation first.</p>" +
  '<p onclick="alert(1)">Write to <a href="javascript:alert(2)">the team</a>.</p><script>document.title="pwned"</script>';

async function dashboardOf(page: Page): Promise<string> {
  const location = (await page.request.get("/login", { maxRedirects: 0 })).headers()["location"];
  expect(location).toMatch(/^\/member\/\d+\/dashboard$/);
  return location!;
}

test.describe("without JavaScript for the administrator", () => {
  test.use({ javaScriptEnabled: false });

  test("publishing version 2 of a required document sends its signer through the gate with the diff; the public page is sanitised", async ({
    page,
    app,
    browser,
    browserErrors,
  }) => {
    // The two members are signed in before the publication (their next request meets it).
    const gate = await otherBrowser(browser, browserErrors);
    const bystander = await otherBrowser(browser, browserErrors);
    await app.logInQuickly(LEGAL_MEMBERS.gate, LEGAL_ADMIN_PASSWORD, { page: gate.page });
    await app.logInQuickly(LEGAL_MEMBERS.bystander, LEGAL_ADMIN_PASSWORD, { page: bystander.page });
    const gateDashboard = await dashboardOf(gate.page);
    const bystanderDashboard = await dashboardOf(bystander.page);

    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await page.goto("/admin/documents");
    await expect(page.getByRole("row", { name: new RegExp(GATE_DOCUMENT.name) })).toContainText("Unpublished");
    await page.getByRole("link", { name: GATE_DOCUMENT.name, exact: true }).click();
    await expect(page.getByRole("button", { name: "Publish version 2" })).toBeVisible();
    await expect(page.getByText("every user is asked to agree to it on their next request")).toBeVisible();

    // Edit and preview while withdrawn: nothing public yet.
    await page.getByLabel(HTML, { exact: true }).fill(V2);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(flash(page)).toContainText("Draft saved.");
    const preview = page.getByTestId("document-preview");
    await expect(preview).toContainText("until they choose to share them.");
    expect(await preview.innerHTML()).not.toMatch(/<script|onclick|javascript:/i);
    expect((await page.request.get(`/legal-terms/${GATE_DOCUMENT.slug}`)).status()).toBe(404);

    await page.getByRole("button", { name: "Publish version 2" }).click();
    try {
      await expect(flash(page)).toContainText(`Version 2 of ${GATE_DOCUMENT.name} is published. Every user is asked to agree to it on their next request.`);

      // The signer's next request goes to the agreement page, which shows what changed since version 1.
      await gate.page.goto(gateDashboard);
      await expect(gate.page).toHaveURL(`/login?${new URLSearchParams({ redirect: gateDashboard })}`);
      await expect(gate.page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
      const item = gate.page.getByRole("main").getByRole("listitem").filter({ hasText: GATE_DOCUMENT.name });
      await expect(item.getByText("What changed since version 1, which you agreed to")).toBeVisible();
      const changes = item.getByTestId("document-changes");
      await expect(changes.locator("ins")).toContainText(["choose to"]);
      await expect(changes).toContainText("Write to the team.");
      await expect(changes).not.toContainText("pwned");
      await gate.page.getByRole("button", { name: "I agree" }).click();
      await expect(gate.page).toHaveURL(gateDashboard);

      // Someone who agreed to version 2 ahead is not stopped.
      await bystander.page.goto(bystanderDashboard);
      await expect(bystander.page).toHaveURL(bystanderDashboard);

      // The public page: version 2, sanitised.
      const response = await page.request.get(`/legal-terms/${GATE_DOCUMENT.slug}`);
      expect(response.status()).toBe(200);
      const body = await response.text();
      expect(body).toContain("until they choose to share them.");
      expect(body).toMatch(/Version (<!-- -->)?2(<!-- -->)?, updated/);
      expect(body).not.toMatch(/pwned|onclick="alert|javascript:alert/);
    } finally {
      // Back out of every list and of the gate, whatever happened above.
      await page.goto(`/admin/documents`);
      await page.getByRole("link", { name: GATE_DOCUMENT.name, exact: true }).click();
      await page.getByRole("button", { name: "Withdraw the document" }).click();
      await expect(flash(page)).toContainText("The document was withdrawn");
    }
    expect((await page.request.get(`/legal-terms/${GATE_DOCUMENT.slug}`)).status()).toBe(404);
    await expect(page.getByRole("list", { name: "Published versions, newest first" }).getByRole("listitem")).toHaveCount(2);

    // The signature of version 2 is on record, with its address and browser.
    await page.goto(`/admin/signatures?member=${encodeURIComponent(LEGAL_MEMBERS.gate)}`);
    const rows = page.getByRole("table", { name: "Signatures, newest first" }).getByRole("row");
    await expect(rows.filter({ hasText: GATE_DOCUMENT.name })).toHaveCount(2);
    await gate.context.close();
    await bystander.context.close();
  });
});
