import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect as baseExpect, test } from "../support/test";

/**
 * Sales uploads: an administrator uploads a statement, watches it post, reads the
 * reconciliation and matches what landed in suspense; bad files are refused beside the field with
 * nothing stored; everything also without JavaScript. Every file here is unique to its run (the
 * platform refuses a file or statement id it has seen), and lines match the demo catalogue.
 */
test.describe.configure({ timeout: 90_000 });
// Uploads are checked whole before the answer: on a loaded machine that takes longer than the default wait.
const expect = baseExpect.configure({ timeout: 15_000 });

const HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

function statement(statementId: string, lines: Array<{ isrc: string; title: string; net: string; currency?: string }>) {
  const rows = lines.map(
    (l) =>
      `${statementId},2026-10-15,2026-09,2026-09,Spotify,Premium,stream,track,US,Midnight Owls,,,${l.title},${l.isrc},100,0.01,${l.currency ?? "USD"},${l.net},${l.net},${l.currency ?? "USD"},`,
  );
  return Buffer.from([HEADER, ...rows].join("\n") + "\n");
}

const unique = (label: string) => `E2E-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

async function upload(page: Page, file: { name: string; buffer: Buffer }, options: { kind?: string; rate?: string } = {}) {
  if (options.kind) await page.getByLabel("Kind").selectOption(options.kind);
  if (options.rate !== undefined) await page.getByLabel("Exchange rate (optional)").fill(options.rate);
  await page.locator("#field-file").setInputFiles({ name: file.name, mimeType: "text/csv", buffer: file.buffer });
  await page.getByRole("button", { name: "Upload and import" }).click();
}

test("guards: a member and a visitor never reach the uploads or an import's figures", async ({ page, app, request, browserErrors }) => {
  browserErrors.allowStatus(401, 403);
  await app.goto("/admin/upload-sales");
  await expect(page).toHaveURL(/\/login/);
  expect((await request.get("/api/admin/sales-imports/1")).status()).toBe(401);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/admin/upload-sales");
  await expect(page).toHaveURL(/\/login|\/member\//);
  expect((await page.request.get("/api/admin/sales-imports/1")).status()).toBe(403);
});

test("an administrator uploads a statement, sees it posted and balanced, and matches the line in suspense", async ({ page, app }) => {
  const id = unique("match");
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/upload-sales");
  await expect(page.getByRole("heading", { level: 1, name: "Upload sales" })).toBeVisible();
  await app.hydrated();
  await upload(page, {
    name: `${id}.csv`,
    buffer: statement(id, [
      { isrc: "US-BL1-26-00005", title: "Northbound", net: "12.50" },
      { isrc: `GBZZZ${String(Date.now()).slice(-7)}`, title: "Stray Line", net: "2.25" },
    ]),
  });
  await expect(page).toHaveURL(/\/admin\/upload-sales\/\d+$/, { timeout: 30_000 });
  await expect(flash(page)).toContainText("is checked and queued");
  const importId = Number(page.url().split("/").pop());
  // The worker posts it; the page hears the progress live and shows the figures.
  await expect(page.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("reconciliation-total")).toContainText("14.750000 USD");
  await expect(page.getByText("✓ balances")).toBeVisible();
  const api = await page.request.get(`/api/admin/sales-imports/${importId}`);
  expect(await api.json()).toEqual({
    data: { id: importId, kind: "digital", status: "completed", lines: 2, matched: 1, unmatched: 1, total: "14.750000", suspense: "2.250000", error: null },
  });

  // Every line is listed as read, with what it matched.
  const lines = page.getByRole("region", { name: "Lines" });
  await expect(lines.getByRole("row")).toHaveCount(3);
  await expect(lines.locator("#line-2")).toContainText("USBL12600005");
  await expect(lines.locator("#line-2")).toContainText("ISRC");
  await expect(lines.locator("#line-3")).toContainText("suspense");

  // The stray line is matched to a song: its money leaves suspense.
  const queue = page.getByRole("region", { name: "Unmatched lines" });
  await expect(queue).toContainText("Stray Line");
  await expect(queue.getByLabel("Song or release")).toHaveAttribute("required", "");
  await queue.getByLabel("Song or release").selectOption({ label: "Mia and the Midnight Owls — Platform Nine (USBL12600003)" });
  await queue.getByRole("button", { name: "Match" }).click();
  // The match runs as a background job: the page says it is queued, then shows it moved (live, or by its polling).
  await expect(flash(page)).toContainText("The line is queued to be matched");
  const matches = page.getByRole("region", { name: "Latest matches" });
  await expect(matches).toContainText("1 line moved out of suspense.", { timeout: 30_000 });
  await expect(queue).toContainText("Every line is matched");
  const after = await (await page.request.get(`/api/admin/sales-imports/${importId}`)).json();
  expect(after.data).toMatchObject({ matched: 2, unmatched: 0, suspense: "0.000000", total: "14.750000" });
  await expect(page.getByTestId("reconciliation-total")).toContainText("14.750000 USD");

  // The history lists it.
  await app.goto("/admin/upload-sales");
  await expect(page.getByRole("link", { name: `#${importId} ${id}.csv` })).toBeVisible();
});

test("bad files are refused beside the field, with the values kept and nothing stored", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400, 409);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/upload-sales");
  await app.hydrated();
  // An unknown layout: the accepted ones are listed.
  await upload(page, { name: "notes.csv", buffer: Buffer.from("title,money\nsomething,1\n") }, { kind: "pro" });
  await expect(page.getByText("This file's columns match none of the accepted PRO layouts: Backline CSV, BMI CSV, ASCAP CSV.")).toBeVisible();
  await expect(page.locator("#field-file")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Kind")).toHaveValue("pro");
  // A foreign line without a rate: the message is beside the rate.
  const id = unique("rate");
  await upload(
    page,
    { name: `${id}.csv`, buffer: statement(id, [{ isrc: "USBL12600005", title: "Northbound", net: "3.00", currency: "EUR" }]) },
    { kind: "digital" },
  );
  await expect(page.getByText(/in EUR and carries no exchange rate/)).toBeVisible();
  await expect(page.getByLabel("Exchange rate (optional)")).toHaveAttribute("aria-invalid", "true");
  // With the rate it goes in; the same file again is refused, naming the earlier import.
  await upload(
    page,
    { name: `${id}.csv`, buffer: statement(id, [{ isrc: "USBL12600005", title: "Northbound", net: "3.00", currency: "EUR" }]) },
    { rate: "1.1" },
  );
  await expect(page).toHaveURL(/\/admin\/upload-sales\/\d+$/, { timeout: 30_000 });
  const importId = Number(page.url().split("/").pop());
  await app.goto("/admin/upload-sales");
  await app.hydrated();
  await upload(
    page,
    { name: "again.csv", buffer: statement(id, [{ isrc: "USBL12600005", title: "Northbound", net: "3.00", currency: "EUR" }]) },
    { rate: "1.1" },
  );
  await expect(page.getByText(new RegExp(`imported already: import #${importId}`))).toBeVisible();
  // A refused upload leaves the address as it was (not the index route's "?index").
  await expect(page).toHaveURL(/\/admin\/upload-sales$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the upload is a plain form post; the import page refreshes itself until the statement is posted", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await app.goto("/admin/upload-sales");
    await page.getByRole("button", { name: "Upload and import" }).click();
    await expect(page.getByText("Choose the statement file.")).toBeVisible();
    const id = unique("nojs");
    await upload(page, { name: `${id}.csv`, buffer: statement(id, [{ isrc: "USBL12600002", title: "Early Mornings", net: "4.00" }]) });
    await expect(page).toHaveURL(/\/admin\/upload-sales\/\d+$/, { timeout: 30_000 });
    await expect(page.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Every line is matched")).toBeVisible();
    await expect(page.getByTestId("reconciliation-total")).toContainText("4.000000 USD");
  });
});
