import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "../support/test";

/**
 * Helpers for the income specs: a statement uploaded as the admin's multipart POST, amounts read
 * from the pages' data-micros attributes and compared with the income API exactly, in micro-units.
 *
 * The e2e database is shared by every spec, and other specs upload statements that pay Mia while these run.
 * So a page is compared with the API only when the API answered the same before and after the page was read
 * (`stableRead`), and a statement's own figures (its row, its lines, its month) are checked exactly: each run
 * uses its own statement id, file name and a sale month no other spec uses.
 */

export const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A sale month (YYYY-MM) that no other spec uses: years from..from+29 are this file's alone. */
export function uniqueMonth(fromYear: number): string {
  const year = fromYear + Math.floor(Math.random() * 30);
  const month = 1 + Math.floor(Math.random() * 12);
  return `${year}-${String(month).padStart(2, "0")}`;
}

/**
 * The statement every income test uploads (digital, canonical CSV, amounts with sub-cent micro-units so that
 * rounding shows), and what each party gets after the 10 % commission (half-to-even on the magnitude):
 *
 * Line numbers are the file's (the header is line 1).
 *
 * 2. Early Mornings (no split: Mia 100 %), 7.123457: commission 0.712346, Mia 6.411111.
 * 3. Late Trains (Mia 50 %, Paul 30 %, nina 20 % held), 3.333333: commission 0.333333, net 3.000000:
 *    Mia 1.500000, Paul 0.900000, nina (held) 0.600000.
 * 4. Platform Nine (Mia 100 %), a refund of -1.000001: commission -0.100000, Mia -0.900001.
 *
 * Mia 7.011110 over 3 lines, Paul 0.900000 over 1, the statement 9.456789.
 */
export const EXPECTED = {
  total: "9.456789",
  mia: "7.011110",
  miaPostings: 3,
  paul: "0.900000",
  held: "0.600000",
  lines: [
    { lineNo: 2, track: "Early Mornings", amount: "7.123457", mia: "6.411111" },
    {
      lineNo: 3,
      track: "Late Trains",
      amount: "3.333333",
      mia: "1.500000",
      paul: "0.900000",
    },
    {
      lineNo: 4,
      track: "Platform Nine",
      amount: "-1.000001",
      mia: "-0.900001",
    },
  ],
} as const;

export interface Uploaded {
  importId: number;
  fileName: string;
  statementId: string;
  month: string;
}

/** Uploads the statement above as the signed-in admin (the page's cookies) and waits until it is posted. */
export async function uploadIncomeStatement(api: APIRequestContext, month: string, label = "income"): Promise<Uploaded> {
  const id = unique();
  const statementId = `E2E-${label.toUpperCase()}-${id}`;
  const fileName = `${label}-${id}.csv`;
  const store = `E2E Income ${id}`;
  const row = (track: string, isrc: string, amount: string) =>
    `${statementId},${month}-28,${month},${month},${store},,stream,track,US,Midnight Owls,,,${track},${isrc},100,0.01,USD,${amount},${amount},USD,`;
  const csv = [
    DIGITAL_HEADER,
    row("Early Mornings", "USBL12600002", "7.123457"),
    row("Late Trains", "USBL12600001", "3.333333"),
    row("Platform Nine", "USBL12600003", "-1.000001"),
  ].join("\n");
  const response = await api.post("/admin/upload-sales?index", {
    multipart: {
      kind: "digital",
      exchange_rate: "",
      file: {
        name: fileName,
        mimeType: "text/csv",
        buffer: Buffer.from(`${csv}\n`),
      },
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const importId = Number(/^\/admin\/upload-sales\/(\d+)$/.exec(response.headers()["location"] ?? "")?.[1]);
  expect(importId, response.headers()["location"]).toBeGreaterThan(0);
  await expect.poll(async () => (await (await api.get(`/api/admin/sales-imports/${importId}`)).json()).data.status, { timeout: 60_000 }).toBe("completed");
  const summary = await (await api.get(`/api/admin/sales-imports/${importId}`)).json();
  expect(summary.data).toMatchObject({
    lines: 3,
    matched: 3,
    unmatched: 0,
    total: EXPECTED.total,
    suspense: "0.000000",
    error: null,
  });
  return { importId, fileName, statementId, month };
}

/* ------------------------------------------------------------------ exact amounts */

/** A six-decimal string (the API's and the pages' data-micros) as micro-units. */
export function micros(decimal: string | null | undefined): bigint {
  const match = /^(-?)(\d+)\.(\d{6})$/.exec(decimal ?? "");
  if (!match) throw new Error(`not a six-decimal amount: ${JSON.stringify(decimal)}`);
  const value = BigInt(match[2]!) * 1_000_000n + BigInt(match[3]!);
  return match[1] ? -value : value;
}

export function formatMicros(value: bigint): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  return `${negative ? "-" : ""}${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, "0")}`;
}

export const sumMicros = (values: Array<string | null>) => values.reduce((sum, v) => sum + micros(v), 0n);

/** Whole cents rounded down (toward negative infinity), as the pages show amounts. */
export function floorCents(value: bigint): bigint {
  const q = value / 10_000n;
  return value % 10_000n < 0n ? q - 1n : q;
}

/** Cents as the pages print them (en-US, the browser's locale here). */
export const dollars = (cents: bigint) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(cents) / 100);

/** A shown amount: its exact data-micros and its text, which must be the amount cut at the cent. */
export async function shownAmount(locator: Locator): Promise<{ micros: string; text: string }> {
  const micros = await locator.getAttribute("data-micros");
  const text = ((await locator.textContent()) ?? "").trim();
  expect(micros, "data-micros").not.toBeNull();
  return { micros: micros!, text };
}

export function expectShown(shown: { micros: string; text: string }, expected: string, what: string) {
  expect(shown.micros, `${what}: data-micros`).toBe(expected);
  expect(shown.text, `${what}: shown in cents rounded down`).toBe(dollars(floorCents(micros(expected))));
}

/* ------------------------------------------------------------------ the API, and pages read against it */

export interface IncomeJson {
  memberId: number;
  currency: "USD";
  earned: string;
  held: string;
  reserved: string;
  paid_out: string;
  available: string;
  by_source: Record<string, string>;
}

export async function incomeApi(api: APIRequestContext, memberId: number): Promise<IncomeJson> {
  const response = await api.get(`/api/members/${memberId}/royalties-report/income`);
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("private, no-store");
  return (await response.json()).data;
}

/**
 * Reads a page between two identical answers of the income API (retrying when another spec's statement
 * landed in between), so the page and the API describe the same ledger.
 */
export async function stableRead<T>(api: APIRequestContext, memberId: number, read: () => Promise<T>): Promise<{ api: IncomeJson; seen: T }> {
  const deadline = Date.now() + 45_000;
  for (let attempt = 1; ; attempt++) {
    const before = await incomeApi(api, memberId);
    const seen = await read();
    const after = await incomeApi(api, memberId);
    if (JSON.stringify(after) === JSON.stringify(before)) return { api: before, seen };
    // Another spec's statement landed in between: read again (a failure inside `read` fails the test at once).
    if (Date.now() > deadline) expect(after, `the ledger kept changing while the page was read (${attempt} attempts)`).toEqual(before);
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
}

export const CARDS = [
  ["earned", "Earned"],
  ["held", "Held for pending parties"],
  ["reserved", "Reserved"],
  ["paid_out", "Paid out"],
  ["available", "Available"],
] as const;

export interface IncomePageFigures {
  cards: Record<(typeof CARDS)[number][0], { micros: string; text: string }>;
  bySource: Record<string, { micros: string; text: string }>;
  sourceTotal: { micros: string; text: string };
  monthTotals: string[];
}

/** Every figure of the Income & Shares page's totals, its by-source table and its monthly table. */
export async function readIncomePage(page: Page): Promise<IncomePageFigures> {
  const totals = page.getByTestId("income-totals");
  const cards = {} as IncomePageFigures["cards"];
  for (const [key, label] of CARDS) {
    const card = totals.locator(":scope > div").filter({ has: page.getByText(label, { exact: true }) });
    cards[key] = await shownAmount(card.locator("[data-micros]"));
  }
  const bySource: IncomePageFigures["bySource"] = {};
  const sourceTable = page.getByTestId("income-by-source");
  for (const row of await sourceTable.getByRole("row").all()) {
    const label = ((await row.getByRole("rowheader").textContent()) ?? "").trim();
    bySource[label] = await shownAmount(row.locator("[data-micros]"));
  }
  const { Total: sourceTotal, ...sources } = bySource;
  const monthTable = page.getByRole("table", {
    name: "Income by month and source",
  });
  const monthTotals = await monthTable
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.querySelector("td:last-child [data-micros]")?.getAttribute("data-micros") ?? ""));
  return { cards, bySource: sources, sourceTotal: sourceTotal!, monthTotals };
}

const SOURCE_LABELS: Record<string, string> = {
  digital: "Digital",
  pro: "PRO",
  license: "Licence",
  marketplace: "Marketplace",
  affiliate: "Affiliate",
};

/** The page's figures against the API's, to the micro-unit, and each shown in cents rounded down. */
export function expectPageMatchesApi(figures: IncomePageFigures, api: IncomeJson) {
  for (const [key, label] of CARDS) expectShown(figures.cards[key], api[key], `the ${label} card`);
  for (const [source, amount] of Object.entries(api.by_source)) {
    const label = SOURCE_LABELS[source]!;
    if (figures.bySource[label]) expectShown(figures.bySource[label], amount, `the ${label} source`);
    else expect(amount, `${source} is not shown, so it is zero`).toBe("0.000000");
  }
  expectShown(figures.sourceTotal, api.earned, "the sources' total");
  expect(formatMicros(sumMicros(Object.values(api.by_source))), "the API's sources sum to earned").toBe(api.earned);
  expect(formatMicros(sumMicros(figures.monthTotals)), "the months sum to earned").toBe(api.earned);
}

/** The member id in a member-area path (where a member's login lands). */
export function memberIdOf(location: string): number {
  const id = Number(/\/member\/(\d+)\//.exec(location)?.[1]);
  expect(id, location).toBeGreaterThan(0);
  return id;
}
