import type { Page } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import {
  dollars,
  EXPECTED,
  expectPageMatchesApi,
  expectShown,
  floorCents,
  formatMicros,
  incomeApi,
  memberIdOf,
  micros,
  readIncomePage,
  shownAmount,
  stableRead,
  sumMicros,
  uniqueMonth,
  uploadIncomeStatement,
  type Uploaded,
} from "./helpers";

/**
 * Income & Shares: after an administrator uploads a statement that pays Mia (and Paul, and
 * nina's held share), the member's page, the dashboard and the income API agree to the micro-unit; the
 * statements table leads to the lines behind the amount; nobody else reads the figures.
 * See helpers.ts for the statement and for how pages are compared with a ledger other specs also write to.
 */
test.describe.configure({ timeout: 120_000 });

/**
 * The statements table's row for an upload, and the lines section it opens. Members see a statement by its
 * source and period with its own reference (the statement id), never by the file the admin uploaded.
 */
const statementRow = (page: Page, upload: Uploaded) =>
  page
    .getByRole("table", { name: "The statements your income came from" })
    .getByRole("row")
    .filter({ hasText: `Statement ${upload.statementId}` });
const statementTitle = (upload: Uploaded) =>
  `Digital sales · ${new Date(`${upload.month}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" })}, statement ${upload.statementId}`;
const linesTable = (page: Page, upload: Uploaded) => page.getByRole("table", { name: `Your lines in ${statementTitle(upload)}` });

/** The lines table's rows: line number, track, line amount and the member's share (exact). */
async function readLines(page: Page, upload: Uploaded) {
  return linesTable(page, upload)
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((r) => {
        const amounts = [...r.querySelectorAll("[data-micros]")].map((e) => e.getAttribute("data-micros"));
        return {
          lineNo: Number(r.querySelector("th")?.textContent),
          title: r.querySelectorAll("td")[3]?.textContent ?? "",
          lineAmount: amounts[0] ?? null,
          share: amounts[1] ?? null,
        };
      }),
    );
}

test("Income & Shares agrees with the income API to the cent; the statement's row opens its lines, which sum to the member's amount", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const upload = await uploadIncomeStatement(page.request, uniqueMonth(2040));

  // The admin reads Mia's page and the API for her: the same figures.
  const miaId = DEMO_IDS.member;
  const asAdmin = await stableRead(page.request, miaId, async () => {
    const response = await app.goto(`/member/${miaId}/member-income`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Income & Shares" })).toBeVisible();
    return readIncomePage(page);
  });
  expectPageMatchesApi(asAdmin.seen, asAdmin.api);
  await expect(statementRow(page, upload)).toHaveCount(1);

  // Mia herself.
  await app.dropSession();
  expect(memberIdOf(await app.logInQuickly(DEMO.member, DEMO_PASSWORD))).toBe(miaId);
  const { api, seen } = await stableRead(page.request, miaId, async () => {
    await app.goto(`/member/${miaId}/member-income`);
    return readIncomePage(page);
  });
  expect(api).toMatchObject({ memberId: miaId, currency: "USD" });
  expectPageMatchesApi(seen, api);
  expect(micros(api.earned)).toBeGreaterThanOrEqual(micros(EXPECTED.mia));
  // The payments API lists what makes up reserved and paid out.
  const payments = await page.request.get(`/api/members/${miaId}/royalties-report/payments`);
  expect(payments.status()).toBe(200);
  const { data } = (await payments.json()) as {
    data: Array<{ account: string; amount: string }>;
  };
  expect(Array.isArray(data)).toBe(true);

  // The month of this statement's sale period is this upload's alone: its row is the statement's amount.
  const monthRow = page
    .getByRole("table", { name: "Income by month and source" })
    .getByRole("row")
    .filter({
      has: page.getByRole("rowheader", { name: upload.month, exact: true }),
    });
  expectShown(await shownAmount(monthRow.locator("td").last().locator("[data-micros]")), EXPECTED.mia, `the month ${upload.month}`);
  expectShown(await shownAmount(monthRow.locator("td").first().locator("[data-micros]")), EXPECTED.mia, `the month ${upload.month}, digital`);

  // The statement's row: digital, named by source and month, 3 postings, Mia's exact amount; its link opens
  // the lines. The admin's file name is not Mia's business.
  const row = statementRow(page, upload);
  await expect(row).toContainText("Digital");
  await expect(row.getByRole("rowheader")).toContainText(statementTitle(upload).split(",")[0]!);
  await expect(page.locator("main")).not.toContainText(upload.fileName);
  expectShown(await shownAmount(row.locator("[data-micros]")), EXPECTED.mia, "the statement's amount");
  await row
    .getByRole("link", {
      name: `${EXPECTED.miaPostings} postings from ${statementTitle(upload)}`,
    })
    .click();
  await expect(page).toHaveURL(new RegExp(`\\?import=${upload.importId}#lines$`));
  await expect(page.locator("#lines")).toBeVisible();
  await expect(linesTable(page, upload).locator("tbody tr")).toHaveCount(3);
  const lines = await readLines(page, upload);
  expect(lines.map((l) => l.lineNo)).toEqual(EXPECTED.lines.map((l) => l.lineNo));
  for (const [i, expected] of EXPECTED.lines.entries()) {
    expect(lines[i]!.title).toContain(expected.track);
    expect(lines[i]!.lineAmount, `line ${expected.lineNo}'s amount`).toBe(expected.amount);
    expect(lines[i]!.share, `Mia's share of line ${expected.lineNo}`).toBe(expected.mia);
  }
  expect(formatMicros(sumMicros(lines.map((l) => l.share))), "the lines sum to the statement's amount").toBe(EXPECTED.mia);
  // The refund line shows in cents rounded down (toward minus infinity).
  const refund = linesTable(page, upload).locator("tbody tr").nth(2).locator("[data-micros]").last();
  await expect(refund).toHaveText(dollars(floorCents(micros("-0.900001"))));
  await expect(refund).toHaveText("-$0.91");
});

test("the member dashboard's balance is the API's available balance", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await uploadIncomeStatement(page.request, uniqueMonth(2070), "dashboard");
  await app.dropSession();
  const miaId = memberIdOf(await app.logInQuickly(DEMO.member, DEMO_PASSWORD));
  const { api, seen } = await stableRead(page.request, miaId, async () => {
    await app.goto(`/member/${miaId}/dashboard`);
    const balance = page.getByText("Balance", { exact: true }).locator("xpath=following-sibling::p[1]");
    return ((await balance.textContent()) ?? "").trim();
  });
  expect(micros(api.available) % 10_000n, "available is whole cents").toBe(0n);
  expect(micros(api.available)).toBeGreaterThan(0n);
  expect(seen).toBe(dollars(micros(api.available) / 10_000n));
  // The income chart has its table of months, and the balance links to Income & Shares.
  await expect(page.getByRole("table", { name: "Income per month" })).toBeAttached();
  await page.getByText("Balance", { exact: true }).locator("xpath=following-sibling::p[1]").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/member/${miaId}/member-income$`));
  await expect(page.getByRole("heading", { level: 1, name: "Income & Shares" })).toBeVisible();
});

test("the statements page by ten; a page that is not a number is the first, one past the last says so and links back to the newest", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await uploadIncomeStatement(page.request, uniqueMonth(2090), "paging");
  await app.dropSession();
  const miaId = memberIdOf(await app.logInQuickly(DEMO.member, DEMO_PASSWORD));
  const rows = page.getByRole("table", { name: "The statements your income came from" }).locator("tbody tr");
  await app.goto(`/member/${miaId}/member-income?statements_page=abc`);
  // Not a number: the first page, at most ten.
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThanOrEqual(10);
  await app.goto(`/member/${miaId}/member-income?statements_page=9999`);
  await expect(page.getByText("No statements on this page.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the newest" }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${miaId}/member-income$`));
  await expect(rows.first()).toBeVisible();
});

test("guards: another member gets 404 for the page, its lines and the API; a visitor is sent to log in or gets 401", async ({
  page,
  app,
  request,
  browserErrors,
}) => {
  browserErrors.allowStatus(404);
  const miaId = DEMO_IDS.member;
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const upload = await uploadIncomeStatement(page.request, uniqueMonth(2040), "guards");
  // Even an admin finds no member that does not exist.
  const nobody = 2_147_483_647;
  expect((await page.request.get(`/api/members/${nobody}/royalties-report/income`)).status()).toBe(404);
  expect((await page.goto(`/member/${nobody}/member-income`))?.status()).toBe(404);

  // A visitor.
  for (const path of [`/api/members/${miaId}/royalties-report/income`, `/api/members/${miaId}/royalties-report/payments`]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(401);
    expect(await response.text()).not.toContain(EXPECTED.mia);
  }
  const visitor = await request.get(`/member/${miaId}/member-income`, {
    maxRedirects: 0,
  });
  expect(visitor.status()).toBe(302);
  expect(visitor.headers()["location"]).toMatch(/^\/login/);

  // Paul: his own page and API are his; Mia's are not found.
  await app.dropSession();
  const paulId = memberIdOf(await app.logInQuickly(DEMO.producer, DEMO_PASSWORD));
  expect(paulId).not.toBe(miaId);
  for (const path of [`/member/${miaId}/member-income`, `/member/${miaId}/member-income?import=${upload.importId}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("income-totals")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(upload.fileName);
  }
  for (const path of [`/api/members/${miaId}/royalties-report/income`, `/api/members/${miaId}/royalties-report/payments`]) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text()).not.toContain(EXPECTED.mia);
  }
  // The same import on his own page shows his one line (Late Trains, 30 % of the net), never Mia's.
  const { api, seen } = await stableRead(page.request, paulId, async () => {
    await app.goto(`/member/${paulId}/member-income?import=${upload.importId}`);
    return readIncomePage(page);
  });
  expect(api.memberId).toBe(paulId);
  expectPageMatchesApi(seen, api);
  expectShown(await shownAmount(statementRow(page, upload).locator("[data-micros]")), EXPECTED.paul, "Paul's amount");
  const lines = await readLines(page, upload);
  expect(lines).toEqual([
    {
      lineNo: 3,
      title: expect.stringContaining("Late Trains"),
      lineAmount: EXPECTED.lines[1].amount,
      share: EXPECTED.paul,
    },
  ]);
  await expect(page.locator("main")).not.toContainText("Early Mornings");
});

test.describe("/admin/transactions", () => {
  const entryOf = (page: Page, upload: Uploaded) =>
    page.getByRole("listitem").filter({
      has: page.getByRole("link", {
        name: `Import #${upload.importId} (${upload.fileName})`,
        exact: true,
      }),
    });

  async function readPostings(page: Page, upload: Uploaded) {
    return entryOf(page, upload)
      .getByRole("table")
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((r) => {
          const cells = [...r.querySelectorAll("td")].map((c) => (c.textContent ?? "").trim());
          return {
            account: cells[0],
            member: cells[1],
            line: cells[3],
            lineHref: r.querySelectorAll("td")[3]?.querySelector("a")?.getAttribute("href") ?? null,
            micros: r.querySelector("[data-micros]")?.getAttribute("data-micros") ?? null,
          };
        }),
      );
  }

  test("guards: a visitor and a member are sent away", async ({ page, app }) => {
    await app.goto("/admin/transactions");
    await expect(page).toHaveURL(/\/login/);
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    await app.goto("/admin/transactions");
    await expect(page).toHaveURL(/\/login|\/member\//);
    await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toHaveCount(0);
    await expect(page.getByRole("form", { name: "Filter the journal" })).toHaveCount(0);
  });

  test("filters by member and kind; an entry's postings sum to zero and link to the import", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    const upload = await uploadIncomeStatement(page.request, uniqueMonth(2040), "journal");
    await app.goto("/admin/transactions");
    await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();

    // By kind: the whole entry, every posting, summing to zero; the statement's 3 lines each with its own postings.
    const form = page.getByRole("form", { name: "Filter the journal" });
    await form.getByLabel("Entry kind").selectOption("statement_import");
    await form.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]kind=statement_import(&|$)/);
    const entry = entryOf(page, upload);
    await expect(entry).toHaveCount(1);
    await expect(entry.getByRole("heading", { level: 2 })).toHaveText(/^Entry #\d+ · statement import$/);
    const all = await readPostings(page, upload);
    // Per line: receipts and commission, then Mia (lines 1, 3) or Mia, Paul and nina's held share (line 2).
    expect(all).toHaveLength(3 + 5 + 3);
    expect(sumMicros(all.map((p) => p.micros)), "the entry balances").toBe(0n);
    // And it visibly adds up: each posting is shown in full (-7.123457, not -7.13), the sum under them is zero.
    const shown = await entry.locator("tbody [data-micros]").allTextContents();
    expect(shown).toContain("-$7.123457");
    await expect(entry.locator("tfoot")).toContainText("Sum of the postings");
    await expect(entry.locator("tfoot [data-micros]")).toHaveAttribute("data-micros", "0.000000");
    expect(formatMicros(sumMicros(all.filter((p) => p.account.startsWith("Receipts")).map((p) => p.micros)))).toBe(`-${EXPECTED.total}`);
    expect(formatMicros(sumMicros(all.filter((p) => p.member === "Mia Member").map((p) => p.micros)))).toBe(EXPECTED.mia);
    expect(all.filter((p) => p.account === "Held").map((p) => [p.member, p.micros])).toEqual([["nina@example.com (pending party)", EXPECTED.held]]);
    // Each posting names its line and links to it on the import's page.
    for (const posting of all) {
      const lineNo = /^#(\d+) line ([234])$/.exec(posting.line ?? "");
      expect(lineNo?.[1], posting.line).toBe(String(upload.importId));
      expect(posting.lineHref).toMatch(new RegExp(`^/admin/upload-sales/${upload.importId}(\\?lines_from=${lineNo![2]})?#line-${lineNo![2]}$`));
    }

    // By member (a name or email search) and kind: only Paul's posting of the entry.
    await form.getByLabel("Member", { exact: true }).fill(DEMO.producer);
    await form.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]member=producer%40example\.com(&|$)/);
    await expect(form.getByLabel("Member", { exact: true })).toHaveValue(DEMO.producer);
    await expect(form.getByLabel("Entry kind")).toHaveValue("statement_import");
    await expect(entry).toHaveCount(1);
    expect(await readPostings(page, upload)).toEqual([
      {
        account: "Earnings",
        member: "Paul Producer",
        line: `#${upload.importId} line 3`,
        lineHref: expect.stringMatching(new RegExp(`^/admin/upload-sales/${upload.importId}(\\?lines_from=3)?#line-3$`)),
        micros: EXPECTED.paul,
      },
    ]);

    // By member id: Mia's three postings, her amount.
    await form.getByLabel("Member", { exact: true }).fill(String(DEMO_IDS.member));
    await form.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]member=${DEMO_IDS.member}(&|$)`));
    await expect(entry.getByRole("table").locator("tbody tr")).toHaveCount(3);
    const mia = await readPostings(page, upload);
    expect(mia.every((p) => p.member === "Mia Member" && p.account === "Earnings")).toBe(true);
    expect(mia.map((p) => p.micros)).toEqual(EXPECTED.lines.map((l) => l.mia));

    // A member with no postings in it, and a kind with no entries: the entry is not listed.
    await app.goto(`/admin/transactions?member=${encodeURIComponent(DEMO.admin)}&kind=statement_import`);
    await expect(entry).toHaveCount(0);
    await app.goto("/admin/transactions?kind=no_such_kind_here");
    await expect(page.getByText("No entry matches these filters.")).toBeVisible();

    // The entry links to its import's page.
    await app.goto(`/admin/transactions?kind=statement_import&member=${DEMO_IDS.member}`);
    await entry
      .getByRole("link", {
        name: `Import #${upload.importId} (${upload.fileName})`,
        exact: true,
      })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/upload-sales/${upload.importId}$`));
    await expect(page.getByRole("heading", { level: 1, name: upload.fileName })).toBeVisible();
    await expect(page.getByTestId("reconciliation-total")).toContainText(`${EXPECTED.total} USD`);

    // A posting's line link opens the import's page at that line.
    await app.goto(`/admin/transactions?kind=statement_import&member=${encodeURIComponent(DEMO.producer)}`);
    await entry.getByRole("link", { name: `#${upload.importId} line 3`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/upload-sales/${upload.importId}(\\?lines_from=3)?#line-3$`));
    await expect(page.locator("#line-3")).toContainText("Late Trains");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Income & Shares shows the API's figures and opens a statement's lines as a plain link", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    const upload = await uploadIncomeStatement(page.request, uniqueMonth(2070), "nojs");
    await app.dropSession();
    const miaId = memberIdOf(await app.logInQuickly(DEMO.member, DEMO_PASSWORD));
    const { api, seen } = await stableRead(page.request, miaId, async () => {
      await page.goto(`/member/${miaId}/member-income`);
      return readIncomePage(page);
    });
    expectPageMatchesApi(seen, api);
    await statementRow(page, upload)
      .getByRole("link", {
        name: `${EXPECTED.miaPostings} postings from ${statementTitle(upload)}`,
      })
      .click();
    await expect(page).toHaveURL(new RegExp(`/member/${miaId}/member-income\\?import=${upload.importId}#lines$`));
    // The URL changes when the new document starts; wait for its lines before reading them.
    await expect(linesTable(page, upload).locator("tbody tr")).toHaveCount(3);
    const lines = await readLines(page, upload);
    expect(lines.map((l) => l.share)).toEqual(EXPECTED.lines.map((l) => l.mia));
    expect(formatMicros(sumMicros(lines.map((l) => l.share)))).toBe(EXPECTED.mia);
    expect(await incomeApi(page.request, miaId)).toMatchObject({
      memberId: miaId,
    });
  });

  test("the transactions filter form is a plain GET form", async ({ page, app }) => {
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    const upload = await uploadIncomeStatement(page.request, uniqueMonth(2070), "nojs-journal");
    await page.goto("/admin/transactions");
    const form = page.getByRole("form", { name: "Filter the journal" });
    await form.getByLabel("Member", { exact: true }).fill("Paul Producer");
    await form.getByLabel("Entry kind").selectOption("statement_import");
    await form.getByLabel("Account").selectOption("earnings");
    await form.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\/admin\/transactions\?account=earnings&member=Paul\+Producer&kind=statement_import/);
    const entry = page.getByRole("listitem").filter({
      has: page.getByRole("link", {
        name: `Import #${upload.importId} (${upload.fileName})`,
        exact: true,
      }),
    });
    await expect(entry.getByRole("table").locator("tbody tr")).toHaveCount(1);
    await expect(entry.getByRole("table").locator("tbody tr")).toContainText("Paul Producer");
    await expect(entry.locator("[data-micros]")).toHaveAttribute("data-micros", EXPECTED.paul);
    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/admin\/transactions\?$|\/admin\/transactions$/);
    await expect(form.getByLabel("Member", { exact: true })).toHaveValue("");
  });
});
