import { expect, test } from "../support/test";

/** The service worker script, the web app manifest and its icons. */

test("/sw.js is served from the app's host as JavaScript that is revalidated on every check", async ({ request }) => {
  const response = await request.get("/sw.js");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^(application|text)\/javascript\b/);
  expect(response.headers()["cache-control"]).toBe("no-cache");
  const body = await response.text();
  expect(body).toContain("SKIP_WAITING");
  expect(body).toContain("precache-");
  // The build injected its assets (and the offline page) to precache.
  expect(body).toMatch(/\/assets\/root-[\w-]+\.js/);
  expect(body).toContain("/offline");
});

test("the manifest describes an installable app with 192 and 512 icons, also maskable", async ({ request, page, app }) => {
  const response = await request.get("/manifest.webmanifest");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const manifest = await response.json();
  expect(manifest).toMatchObject({
    name: "Backline",
    short_name: "Backline",
    start_url: "/",
    display: "standalone",
    theme_color: "#14532d",
    background_color: "#fafaf9",
  });
  const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>;
  for (const size of [192, 512]) {
    for (const purpose of ["any", "maskable"]) {
      const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
      expect(icon, `${size} ${purpose}`).toBeDefined();
      const png = await request.get(icon!.src);
      expect(png.status(), icon!.src).toBe(200);
      expect(png.headers()["content-type"]).toBe("image/png");
      const bytes = await png.body();
      // PNG signature, then the IHDR's width and height.
      expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([size, size]);
    }
  }

  await app.goto("/login");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#14532d");

  // Chromium's own verdict. Playwright's contexts are off the record, which alone makes nothing installable.
  const cdp = await page.context().newCDPSession(page);
  await expect
    .poll(async () => (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito"), {
      timeout: 15_000,
    })
    .toEqual([]);
});
