import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect as baseExpect, test } from "../support/test";

/**
 * The suspense queue across imports (decision 028): lines of every import still in suspense, grouped by code,
 * biggest amount first; a search feeds the song pickers; matching a group moves every line of it, from every
 * import. Each run uses codes of its own.
 */
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

const HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

async function importStatement(page: Page, statementId: string, lines: Array<{ isrc: string; title: string; net: string }>) {
  const rows = lines.map(
    (l) => `${statementId},2030-03-15,2030-02,2030-02,Queue Store,,stream,track,US,Someone Else,,,${l.title},${l.isrc},10,0.1,USD,${l.net},${l.net},USD,`,
  );
  const response = await page.request.post("/admin/upload-sales?index", {
    multipart: {
      kind: "digital",
      exchange_rate: "",
      file: { name: `${statementId}.csv`, mimeType: "text/csv", buffer: Buffer.from([HEADER, ...rows].join("\n") + "\n") },
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const importId = Number(/\/admin\/upload-sales\/(\d+)/.exec(response.headers()["location"] ?? "")?.[1]);
  await expect
    .poll(async () => (await (await page.request.get(`/api/admin/sales-imports/${importId}`)).json()).data.status, { timeout: 60_000 })
    .toBe("completed");
  return importId;
}

test("guards: a member and a visitor never reach the queue", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(401, 403);
  await app.goto("/admin/suspense");
  await expect(page).toHaveURL(/\/login/);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/admin/suspense");
  await expect(page).toHaveURL(/\/login|\/member\//);
  // A member's post is sent to the login page, matching nothing.
  const post = await page.request.post("/admin/suspense", { form: { intent: "match", line: "1", target: "song:1" }, maxRedirects: 0 });
  expect([post.status(), post.headers()["location"]]).toEqual([302, "/login"]);
});

test("an administrator matches a code found in two imports at once, picking the song by search; bad input is refused beside the form", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(400, 404);
  const run = unique();
  const code = `GBQUE${run.slice(-7)}`;
  const small = `GBQUF${run.slice(-7)}`;
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const first = await importStatement(page, `QUEUE-A-${run}`, [
    { isrc: code, title: "Queue Song", net: "90000.00" },
    { isrc: code, title: "Queue Song", net: "9000.00" },
    { isrc: small, title: "Small Song", net: "0.01" },
  ]);
  const second = await importStatement(page, `QUEUE-B-${run}`, [{ isrc: code, title: "Queue Song", net: "900.00" }]);

  await app.goto("/admin/suspense");
  await expect(page.getByRole("heading", { level: 1, name: "Lines in suspense" })).toBeVisible();
  const queue = page.getByRole("list", { name: "Codes in suspense" });
  const group = queue.getByRole("listitem").filter({ hasText: code });
  await expect(group).toContainText("3 lines");
  await expect(group).toContainText("$99,900.00");
  await expect(group.getByRole("link", { name: `import #${first}` })).toBeVisible();
  await expect(group.getByRole("link", { name: `import #${second}` })).toBeVisible();
  // Biggest first: this run's large group comes before its own small one (if both are on the page).
  await expect(queue.getByRole("listitem").first()).toContainText(code);

  // Bad input: no target, a line that does not exist. Nothing moves.
  const form = page.getByRole("form", { name: `Match ISRC ${code}` });
  const lineId = await form.locator('input[name="line"]').inputValue();
  const noTarget = await page.request.post("/admin/suspense", { form: { intent: "match", line: lineId, target: "" }, maxRedirects: 0 });
  expect(noTarget.status()).toBe(400);
  const noLine = await page.request.post("/admin/suspense", { form: { intent: "match", line: "2000000000", target: "song:1" }, maxRedirects: 0 });
  expect(noLine.status()).toBe(404);
  expect((await (await page.request.get(`/api/admin/sales-imports/${second}`)).json()).data.unmatched).toBe(1);

  // Search the catalogue for the song; the picker offers it; matching moves every line with the code.
  await page.getByLabel("Find a song or release").fill("Platform Nine");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/find=Platform/);
  await expect(page.getByText(/songs and \d+ releases match “Platform Nine”/)).toBeVisible();
  const picker = page.getByRole("form", { name: `Match ISRC ${code}` }).getByLabel("Song or release");
  await picker.selectOption({ label: "Mia and the Midnight Owls — Platform Nine (USBL12600003)" });
  await page
    .getByRole("form", { name: `Match ISRC ${code}` })
    .getByRole("button", { name: "Match" })
    .click();
  // The match runs as a background job: the page says it is queued, then shows the lines moved (live, or by its polling).
  await expect(flash(page)).toContainText("3 lines with the same code are queued to be matched");
  await expect(page.getByRole("region", { name: "Latest matches" })).toContainText("3 lines moved out of suspense.", { timeout: 30_000 });
  await expect(page.getByRole("list", { name: "Codes in suspense" }).getByRole("listitem").filter({ hasText: code })).toHaveCount(0);
  for (const [importId, matched] of [
    [first, 2],
    [second, 1],
  ] as const) {
    const data = (await (await page.request.get(`/api/admin/sales-imports/${importId}`)).json()).data;
    expect(data.matched, `import #${importId}`).toBe(matched);
  }
  // The small code is still waiting.
  expect((await (await page.request.get(`/api/admin/sales-imports/${first}`)).json()).data).toMatchObject({ unmatched: 1, suspense: "0.010000" });

  // The code is remembered, with what it matches; forgotten, later statements with it land in suspense again.
  const remembered = page.getByRole("list", { name: "Remembered codes" }).getByRole("listitem").filter({ hasText: code });
  await expect(remembered).toContainText("Song: Platform Nine (USBL12600003)");
  await page
    .getByRole("form", { name: `Forget ISRC ${code}` })
    .getByRole("button", { name: "Forget" })
    .click();
  await expect(flash(page)).toContainText("The code is forgotten");
  await expect(page.getByRole("list", { name: "Remembered codes" }).getByRole("listitem").filter({ hasText: code })).toHaveCount(0);
  const third = await importStatement(page, `QUEUE-C-${run}`, [{ isrc: code, title: "Queue Song", net: "1.00" }]);
  expect((await (await page.request.get(`/api/admin/sales-imports/${third}`)).json()).data).toMatchObject({ unmatched: 1 });
  // A code that does not exist: 404.
  const gone = await page.request.post("/admin/suspense", { form: { intent: "forget", alias: "2000000000" }, maxRedirects: 0 });
  expect(gone.status()).toBe(404);
});

test("at 390 px the queue reads without sideways scrolling", async ({ page, app }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/suspense");
  await expect(page.getByRole("heading", { level: 1, name: "Lines in suspense" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
