import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { flash } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { DRAFT_DOCUMENT } from "./accounts";

/**
 * /admin/documents, /admin/document/create and /admin/document/edit/{id} (app/modules/legal/documents/): create,
 * errors beside the fields with the values kept, drafts and their sanitised preview, the editor. Nothing here
 * publishes (publish.spec.ts does, once, with a document of its own), so other specs never see these documents.
 */

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const HTML = "Text (HTML)";
const preview = (page: Page) => page.getByTestId("document-preview");

async function openEdit(page: Page, name: string) {
  await page.goto("/admin/documents");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/document\/edit\/\d+$/);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("lists the documents and creates one: errors beside the fields, values kept, then a sanitised draft nobody else sees", async ({
    page,
    app,
    browserErrors,
  }) => {
    browserErrors.allowStatus(400, 404);
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await page.goto("/admin/documents");
    await expect(page).toHaveTitle("Documents | Admin Area | Backline");
    const table = page.getByRole("table", { name: "Legal documents" });
    await expect(table.getByRole("row", { name: /Terms of Service/ })).toContainText("Published");
    await expect(table.getByRole("row", { name: /Terms of Service/ })).toContainText("Required");

    await page.getByRole("link", { name: "New document" }).click();
    await expect(page).toHaveURL("/admin/document/create");
    await expect(page).toHaveTitle("New document | Admin Area | Backline");
    await expect(page.getByRole("heading", { level: 1, name: "New document" })).toBeVisible();

    // Empty name and a bad slug: both messages, the typed values kept.
    await field(page, "Slug").fill("Not A Slug!");
    await field(page, HTML).fill("<p>Kept text</p>");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Enter the document's name.")).toBeVisible();
    await expect(page.getByText("Use lowercase letters, digits and single hyphens between words, e.g. terms-of-service.")).toBeVisible();
    await expect(field(page, "Slug")).toHaveValue("Not A Slug!");
    await expect(field(page, "Slug")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, HTML)).toHaveValue("<p>Kept text</p>");

    // A slug another document has.
    await field(page, "Name").fill("Duplicate Terms");
    await field(page, "Slug").fill("terms-of-service");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Another document already uses this slug.")).toBeVisible();
    await expect(field(page, "Name")).toHaveValue("Duplicate Terms");
    await expect(field(page, HTML)).toHaveValue("<p>Kept text</p>");

    // Valid, with XSS attempts in the HTML: saved as a draft, sanitised.
    const slug = `e2e-created-${crypto.randomBytes(3).toString("hex")}`;
    const name = `E2E Created ${slug.slice(-6)}`;
    await field(page, "Name").fill(name);
    await field(page, "Slug").fill(slug);
    await page.getByLabel(/^Required/).uncheck();
    await field(page, HTML).fill(
      '<h2>Intro</h2><p onclick="alert(1)">Hello <a href="javascript:alert(2)">there</a>.</p><img src=x onerror="alert(3)"><script>document.title="pwned"</script>',
    );
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/admin\/document\/edit\/\d+$/);
    await expect(page).toHaveTitle(`${name} | Edit document | Admin Area | Backline`);
    await expect(flash(page)).toContainText(`${name} was saved as a draft.`);
    await expect(preview(page).getByRole("heading", { name: "Intro" })).toBeVisible();
    await expect(preview(page)).toContainText("Hello there.");
    const html = await preview(page).innerHTML();
    expect(html).not.toMatch(/<script|onclick|onerror|javascript:|<img/i);
    // The form shows the sanitised text back.
    await expect(field(page, HTML)).not.toHaveValue(/script|onclick|javascript:/);
    // Not published: not on Legal Terms, listed as a draft.
    expect((await page.request.get(`/legal-terms/${slug}`)).status()).toBe(404);
    await page.goto("/admin/documents");
    await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Draft (never published)");
  });

  test("a draft of a published document changes nothing public until published; discarding it keeps the published text", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await openEdit(page, "Privacy Policy");
    await expect(page.getByRole("heading", { name: "Published text (version 1)" })).toBeVisible();
    const published = await field(page, HTML).inputValue();
    await field(page, HTML).fill(`${published}\n<p>A sentence only in the draft.</p>`);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(flash(page)).toContainText("Draft saved.");
    await expect(page.getByRole("heading", { name: "Preview of the draft (version 2, not published)" })).toBeVisible();
    await expect(preview(page)).toContainText("A sentence only in the draft.");
    await expect(page.getByRole("button", { name: "Publish version 2" })).toBeVisible();

    const publicPage = await page.request.get("/legal-terms/privacy-policy");
    expect(await publicPage.text()).not.toContain("A sentence only in the draft.");

    await page.getByRole("button", { name: "Discard the draft" }).click();
    await expect(flash(page)).toContainText("The draft was discarded.");
    await expect(page.getByRole("heading", { name: "Published text (version 1)" })).toBeVisible();
    await expect(field(page, HTML)).toHaveValue(published);
  });
});

test("the rich-text editor loads on the document pages only, after hydration, and saves what is typed", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const editorChunks: string[] = [];
  page.on("request", (request) => {
    if (/document-editor/.test(request.url())) editorChunks.push(request.url());
  });
  await app.goto("/admin/documents");
  await app.goto("/admin/signatures");
  expect(editorChunks).toEqual([]);

  await openEdit(page, DRAFT_DOCUMENT.name);
  await app.hydrated();
  const editor = page.getByTestId("document-editor");
  await expect(editor).toBeVisible();
  expect(editorChunks.length).toBeGreaterThan(0);
  await expect(editor).toContainText("This policy is never published by the e2e suite.");
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeVisible();
  // The HTML field is hidden behind the editor, which is labelled by it.
  await expect(page.getByRole("textbox", { name: "Text" })).toBeVisible();

  const words = `Typed in the editor ${crypto.randomBytes(3).toString("hex")}.`;
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type(words);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(flash(page)).toContainText("Draft saved.");
  await expect(preview(page).locator("strong")).toHaveText(words);

  // The HTML view shows the same text; switching back keeps it.
  await page.getByRole("button", { name: "Edit the HTML" }).click();
  await expect(field(page, HTML)).toHaveValue(new RegExp(`<strong>${words.replace(/\./g, "\\.")}</strong>`));
  await page.getByRole("button", { name: "Back to the editor" }).click();
  await expect(page.getByTestId("document-editor")).toContainText(words);
});
