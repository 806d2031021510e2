import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/**
 * The sales pages. An administrator uploads a digital statement through `/admin/upload-sales`
 * (the multipart POST of docs/money.md, as a browser without JavaScript sends it) and waits for the import to
 * complete; the figures are then read on the member's and the admin's pages. Each run's statement uses a
 * store name of its own, and the pages are filtered by it, so other tests' statements never change the
 * figures here. Lines: Early Mornings (no split: Mia 100 %) 10.00 in the US and Platform Nine 2.50 in
 * GB; after the 10 % commission Mia earns 9.00 + 2.25 = 11.25.
 */
test.describe.configure({ timeout: 120_000 });

const HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

async function uploadStatement(page: Page, id: string, store: string) {
  const lines = [
    `SALES-${id},2030-02-15,2030-01,2030-01,${store},,stream,track,US,Midnight Owls,,,Early Mornings,USBL12600002,100,0.1,USD,10.00,10.00,USD,`,
    `SALES-${id},2030-02-15,2030-01,2030-01,${store},,stream,track,GB,Midnight Owls,,,Platform Nine,USBL12600003,25,0.1,USD,2.50,2.50,USD,`,
  ];
  const response = await page.request.post("/admin/upload-sales?index", {
    multipart: {
      kind: "digital",
      exchange_rate: "",
      file: { name: `sales-${id}.csv`, mimeType: "text/csv", buffer: Buffer.from([HEADER, ...lines].join("\n") + "\n") },
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const importId = Number(/\/admin\/upload-sales\/(\d+)/.exec(response.headers()["location"] ?? "")?.[1]);
  expect(importId).toBeGreaterThan(0);
  await expect
    .poll(async () => (await (await page.request.get(`/api/admin/sales-imports/${importId}`)).json()).data.status, { timeout: 60_000 })
    .toBe("completed");
}

async function memberIdOf(location: string) {
  const id = Number(/\/member\/(\d+)\//.exec(location)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

test("a member's sales pages agree with the statement to the cent, drill down to the lines and export them; others' figures stay hidden", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(404);
  const id = unique();
  const store = `E2E Store ${id}`;
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await uploadStatement(page, id, store);

  // The admin list: the whole statement, its commission and the net, for that store.
  const filter = `?store=${encodeURIComponent(store)}`;
  await app.goto(`/admin/sales/digital${filter}`);
  await expect(page.getByRole("heading", { level: 1, name: "Digital" })).toBeVisible();
  const adminRow = page.getByRole("row").filter({ hasText: "Mia and the Midnight Owls" });
  await expect(adminRow).toContainText("$12.50");
  await expect(adminRow).toContainText("$1.25");
  await expect(adminRow).toContainText("$11.25");

  // Mia's own list and detail.
  await app.dropSession();
  const miaId = await memberIdOf(await app.logInQuickly(DEMO.member, DEMO_PASSWORD));
  await app.goto(`/member/${miaId}/sales/digital${filter}`);
  await expect(page.getByRole("heading", { level: 1, name: "Digital Sales" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Mia and the Midnight Owls" });
  await expect(row).toContainText("$11.25");
  await row.getByRole("link", { name: "Mia and the Midnight Owls" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Mia and the Midnight Owls" })).toBeVisible();
  await app.hydrated();
  await expect(page.getByText("Your earnings").first()).toBeVisible();
  await expect(page.locator("main")).toContainText("$11.25");
  // Charts are drawn at the card's heights.
  await expect(page.locator("[data-chart-height='380']")).toHaveCount(1);

  // Group by country, then follow Great Britain's figure to its line.
  await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Country" }).click();
  await expect(page).toHaveURL(/group=country/);
  const breakdown = page.getByRole("table", { name: /by country/ });
  await expect(breakdown.getByRole("row").filter({ hasText: "GB" })).toContainText("$2.25");
  await breakdown.getByRole("link", { name: /the lines of country GB/ }).click();
  await expect(page).toHaveURL(/key=GB/);
  const lines = page.getByRole("table", { name: /statement lines of country GB/ });
  await expect(lines.getByRole("row")).toHaveCount(2); // the header and one line
  await expect(lines).toContainText("Platform Nine");
  await expect(lines).toContainText("$2.25");

  // The export of those lines: streamed CSV, six decimals.
  const href = await page.getByRole("link", { name: "Export lines (CSV)" }).getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="backline-digital-sales-member-\d+-artist-\d+-lines-country-gb\.csv"$/);
  const csvRows = (await csv.text()).trim().split("\r\n");
  expect(csvRows).toHaveLength(2);
  expect(csvRows[1]).toMatch(/,2030-01,E2E Store \d+,GB,,Platform Nine,25,2\.500000,2\.250000$/);

  // Paul earns nothing on these songs: his page for the same artist and store is empty; Mia's area is 404 to him.
  const miaDetailPath = new URL(page.url()).pathname;
  await app.dropSession();
  const paulId = await memberIdOf(await app.logInQuickly(DEMO.producer, DEMO_PASSWORD));
  const detailPath = miaDetailPath.replace(`/member/${miaId}/`, `/member/${paulId}/`);
  await app.goto(`${detailPath}${filter}`);
  await expect(page.getByText("You have no share of statement lines on this artist page.")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("$11.25");
  const response = await page.goto(`/member/${miaId}/sales/digital${filter}`);
  expect(response?.status()).toBe(404);
  expect((await page.request.get(`/member/${miaId}/sales/digital/export.csv`)).status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filters, the grouping and the drill-down work as plain links and forms", async ({ page, app }) => {
    const id = unique();
    const store = `E2E NoJS ${id}`;
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await uploadStatement(page, id, store);
    await page.goto("/admin/sales/digital");
    await page.getByLabel("Store").fill(store);
    await page.getByLabel("From (month)").fill("2030-01");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/store=E2E\+NoJS/);
    await page.getByRole("link", { name: "Mia and the Midnight Owls" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Mia and the Midnight Owls" })).toBeVisible();
    await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Track" }).click();
    const breakdown = page.getByRole("table", { name: /by track/ });
    await expect(breakdown.getByRole("row").filter({ hasText: "Early Mornings" })).toContainText("$10.00");
    await breakdown.getByRole("link", { name: /the lines of track Early Mornings/ }).click();
    const lines = page.getByRole("table", { name: /statement lines of track Early Mornings/ });
    await expect(lines.getByRole("row")).toHaveCount(2);
    await expect(lines).toContainText("$1.00"); // the commission on 10.00
  });
});
