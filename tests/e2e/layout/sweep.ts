import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "../support/test";

/**
 * The layout sweep's tools: which pages of an area to visit (found by following the area's own links, one page
 * per route), and what a page must not do at a width (scroll sideways, cut text off in its box, draw a chart
 * label over another).
 */

export const WIDTHS = [1280, 390] as const;

/** Collections whose next segment is a username or slug (but their "profiles" moderation page is a page of its own). */
const SLUG_AFTER = new Set(["artists", "musicians", "audio-engineers", "music-producers", "studios"]);
/** Release pages: an artist's slug and the release's. */
const TWO_SLUGS_AFTER = new Set(["release-page", "releases"]);

/** A path's route: ids, usernames and slugs stand for any (one page per route is enough). */
export function routeOf(pathname: string): string {
  const parts = pathname.split("/");
  for (let i = 1; i < parts.length; i++) {
    if (/^\d+$/.test(parts[i]!)) parts[i] = ":id";
    else if (SLUG_AFTER.has(parts[i - 1]!) && parts[i] !== "profiles") parts[i] = ":slug";
    else if (TWO_SLUGS_AFTER.has(parts[i - 1]!) || TWO_SLUGS_AFTER.has(parts[i - 2]!)) parts[i] = ":slug";
  }
  return parts.join("/");
}

/** Links that are not pages of the area: downloads, exports, resource routes, leaving or acting. */
const NOT_A_PAGE = [
  /\.csv$/,
  /\/export/,
  /\/split-sheet\//,
  /\/delivery\//,
  /^\/storage\//,
  /^\/api\//,
  /stripe/,
  /^\/logout/,
  /\/create-account/,
  /-invite\//,
];

/** The hrefs of the page's links inside the area (`prefix`), as pathnames. */
async function areaLinks(page: Page, prefix: string): Promise<string[]> {
  const hrefs = await page.locator("a[href]:not([download])").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  const origin = new URL(page.url()).origin;
  const paths = new Set<string>();
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== origin || !url.pathname.startsWith(prefix)) continue;
    if (NOT_A_PAGE.some((pattern) => pattern.test(url.pathname))) continue;
    paths.add(url.pathname.replace(/\/$/, ""));
  }
  return [...paths];
}

/**
 * Every page of the area reachable from `starts` through its links, one per route (the first met), breadth
 * first: the menu's pages first, then the pages they lead to. At most `limit` pages.
 */
export async function crawlArea(page: Page, starts: string[], prefix: string, limit = 120): Promise<string[]> {
  const found = new Map<string, string>(starts.map((start) => [routeOf(start), start]));
  const queue = [...starts];
  for (let i = 0; i < queue.length && found.size < limit; i++) {
    const response = await page.goto(queue[i]!);
    if (!response || response.status() >= 400 || !page.url().includes(prefix)) continue;
    for (const path of await areaLinks(page, prefix)) {
      const route = routeOf(path);
      if (found.has(route)) continue;
      found.set(route, path);
      queue.push(path);
    }
  }
  return [...found.values()];
}

/** Waits until the page has hydrated and its charts, if any, are drawn and have finished moving (800 ms). */
export async function settle(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector("header");
    return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps$")));
  });
  const charts = page.locator("[data-chart-height]");
  const count = await charts.count();
  for (let i = 0; i < count; i++) await expect(charts.nth(i).locator("svg").first()).toBeAttached({ timeout: 15_000 });
  if (count) await page.waitForTimeout(1_200);
}

export interface LayoutProblem {
  kind: "horizontal scroll" | "text cut off" | "chart labels overlap" | "outside the screen";
  detail: string;
}

/** What is wrong with the page's layout as drawn now. Runs in the page. */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: Array<{ kind: "horizontal scroll" | "text cut off" | "chart labels overlap" | "outside the screen"; detail: string }> = [];
    const describe = (el: Element) => {
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60);
      const cls = typeof el.className === "string" ? el.className.split(" ").slice(0, 4).join(".") : "";
      return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ""}> "${text}"`;
    };
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
      // Name the widest culprits: elements whose right edge passes the screen's.
      const wide = [...document.body.querySelectorAll("*")]
        .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && el.getBoundingClientRect().width > 0)
        .slice(-3)
        .map(describe);
      problems.push({ kind: "horizontal scroll", detail: `scrollWidth ${doc.scrollWidth} > ${doc.clientWidth}: ${wide.join("; ")}` });
    }
    for (const el of document.body.querySelectorAll("*")) {
      const style = getComputedStyle(el);
      if (style.overflowX !== "hidden" && style.overflowX !== "clip") continue;
      const box = el.getBoundingClientRect();
      // Screen-reader-only text (1 px boxes) and what is not shown are not cut off for anyone who sees the page.
      if (box.width <= 1 || box.height <= 1 || style.visibility === "hidden" || style.display === "none") continue;
      if (el.closest("[data-chart-height]") && el.tagName.toLowerCase() !== "div") continue;
      if (el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? "").trim()) {
        problems.push({ kind: "text cut off", detail: `${describe(el)}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}` });
      }
    }
    for (const chart of document.querySelectorAll("[data-chart-height]")) {
      const labels = [...chart.querySelectorAll("svg text")]
        // A tick still fading in or out (nivo animates a redrawn axis) is not part of the settled drawing.
        .filter((t) => {
          for (let el: Element | null = t; el && el !== chart; el = el.parentElement) if (Number(getComputedStyle(el).opacity) < 0.99) return false;
          return true;
        })
        .map((t) => ({ text: (t.textContent ?? "").trim(), box: t.getBoundingClientRect() }))
        .filter((l) => l.text && l.box.width > 0 && l.box.height > 0);
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const a = labels[i]!.box;
          const b = labels[j]!.box;
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 1 && y > 1) {
            problems.push({ kind: "chart labels overlap", detail: `${chart.getAttribute("aria-label")}: "${labels[i]!.text}" and "${labels[j]!.text}"` });
          }
        }
      }
    }
    return problems;
  });
}

/** Opens the header's notifications panel and says whether it stays on the screen. */
export async function notificationPanelProblems(page: Page): Promise<LayoutProblem[]> {
  const bell = page.locator("details[data-notifications]").first();
  if ((await bell.count()) === 0) return [];
  await bell.locator("summary").click();
  const panel = bell.locator("summary + div");
  await expect(panel).toBeVisible();
  const box = (await panel.boundingBox())!;
  const width = page.viewportSize()!.width;
  await bell.locator("summary").click();
  return box.x < 0 || box.x + box.width > width + 1
    ? [{ kind: "outside the screen", detail: `notifications panel from ${Math.round(box.x)} to ${Math.round(box.x + box.width)} on a ${width} px screen` }]
    : [];
}

/** The canonical digital statement header (docs/money.md). */
const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

/**
 * A statement that gives the charts something to draw, as a real catalogue has: eight stores with long names,
 * four tracks, five countries (two of them tiny), months with gaps between them, amounts in the tens of
 * thousands. All of it pays the demo catalogue (Mia, Paul and the held share).
 */
export async function uploadChartStatement(api: APIRequestContext, tag: string) {
  const stores = ["Spotify", "Apple Music", "Amazon Music", "YouTube Music", "iTunes", "Deezer", "Tidal", "Pandora"];
  const tracks = [
    ["Late Trains", "USBL12600001"],
    ["Early Mornings", "USBL12600002"],
    ["Platform Nine", "USBL12600003"],
    ["Northbound", "USBL12600005"],
  ];
  const countries = [
    ["US", 1],
    ["GB", 0.2],
    ["DE", 0.1],
    ["JP", 0.004],
    ["BR", 0.001],
  ] as const;
  const months = ["2031-01", "2031-03", "2031-04", "2031-07"];
  const statementId = `E2E-LAYOUT-${tag}`;
  const lines = [DIGITAL_HEADER];
  let n = 0;
  for (const month of months)
    for (const [s, store] of stores.entries())
      for (const [title, isrc] of tracks)
        for (const [country, weight] of countries) {
          n++;
          const amount = ((43_192.43 / (s + 1)) * weight * (1 + (n % 7) / 10)).toFixed(4);
          lines.push(
            `${statementId},${month}-28,${month},${month},${store},,stream,track,${country},Midnight Owls,,,${title},${isrc},1000,0.01,USD,${amount},${amount},USD,`,
          );
        }
  const response = await api.post("/admin/upload-sales?index", {
    multipart: { kind: "digital", exchange_rate: "", file: { name: `layout-${tag}.csv`, mimeType: "text/csv", buffer: Buffer.from(`${lines.join("\n")}\n`) } },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const importId = Number(/\/admin\/upload-sales\/(\d+)$/.exec(response.headers()["location"] ?? "")?.[1]);
  await expect.poll(async () => (await (await api.get(`/api/admin/sales-imports/${importId}`)).json()).data.status, { timeout: 60_000 }).toBe("completed");
}
