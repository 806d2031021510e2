import type { Page } from "@playwright/test";
import { UNSIGNED, UNSIGNED_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** The top progress bar (app/components/progress-bar.tsx): 2px, z-index 999999, red when a request failed. */

interface BarSample {
  state: string | null;
  background: string;
  height: string;
  zIndex: string;
}

/** Records every state the bar passes through (a MutationObserver), since "complete"/"failed" last only briefly. */
async function recordBar(page: Page) {
  await page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('[role="progressbar"]');
    if (!bar) throw new Error("no progress bar");
    const samples: BarSample[] = [];
    const sample = () => {
      const style = getComputedStyle(bar);
      const last = samples[samples.length - 1];
      const next = { state: bar.dataset.state ?? null, background: style.backgroundColor, height: style.height, zIndex: style.zIndex };
      if (!last || last.state !== next.state || last.background !== next.background) samples.push(next);
    };
    sample();
    new MutationObserver(sample).observe(bar, { attributes: true, attributeFilter: ["data-state", "style"] });
    (window as unknown as { __barSamples: BarSample[] }).__barSamples = samples;
  });
}

const samples = (page: Page) => page.evaluate(() => (window as unknown as { __barSamples: BarSample[] }).__barSamples);
/** The states after the first "loading", up to (not including) the bar going idle again. */
const run = (list: BarSample[]) => {
  const start = list.findIndex((s) => s.state === "loading");
  const rest = list.slice(start);
  const end = rest.findIndex((s) => s.state === "idle");
  return end === -1 ? rest : rest.slice(0, end);
};

test("the bar's element: role progressbar, 2px high, z-index 999999, idle at rest", async ({ page, app }) => {
  await app.goto("/login");
  const bar = page.getByRole("progressbar", { includeHidden: true });
  await expect(bar).toHaveCount(1);
  await expect(bar).toHaveAttribute("data-state", "idle");
  await expect(bar).toHaveCSS("height", "2px");
  await expect(bar).toHaveCSS("z-index", "999999");
  await expect(bar).toHaveCSS("position", "fixed");
  await expect(bar).toHaveCSS("top", "0px");
});

test("a normal navigation ends 'complete' in green", async ({ page, app }) => {
  await app.goto("/legal-terms");
  await recordBar(page);
  await page.getByRole("navigation", { name: "Legal documents" }).getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL("/legal-terms/terms-of-service");
  const bar = page.getByRole("progressbar", { includeHidden: true });
  await expect(bar).toHaveAttribute("data-state", "idle");
  const states = run(await samples(page));
  expect(states.map((s) => s.state)).toEqual(["loading", "complete"]);
  expect(states.at(-1)).toEqual({ state: "complete", background: "rgb(20, 83, 45)", height: "2px", zIndex: "999999" });
});

test("a failed submission (a wrong password) ends 'failed' in red", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  await app.goto("/login");
  await recordBar(page);
  await page.getByLabel("Email").fill(UNSIGNED.wrongPassword);
  await page.getByLabel("Password").fill(`${UNSIGNED_PASSWORD}-wrong`);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
  await expect(page).toHaveURL("/login");

  const bar = page.getByRole("progressbar", { includeHidden: true });
  await expect.poll(async () => run(await samples(page)).at(-1)?.state).toBe("failed");
  const states = run(await samples(page));
  expect(states[0]!.state).toBe("loading");
  expect(states.at(-1)).toEqual({ state: "failed", background: "rgb(220, 38, 38)", height: "2px", zIndex: "999999" });
  // It does not stay red: it finishes and goes idle.
  await expect(bar).toHaveAttribute("data-state", "idle", { timeout: 4_000 });
});
