import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

test("every page has a CSP with a fresh nonce that its script tags carry", async ({ page, request }) => {
  const response = await page.goto("/login");
  const csp = response!.headers()["content-security-policy"] ?? "";
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp)?.[1];
  expect(nonce, `nonce in ${csp}`).toBeTruthy();
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("'unsafe-inline' 'strict-dynamic'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);

  // The DOM hides nonce attributes; the property keeps the value.
  const nonces = await page.locator("script").evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
  expect(nonces.length).toBeGreaterThan(0);
  for (const value of nonces) expect(value).toBe(nonce);

  // In the raw HTML, every script tag has the nonce.
  const html = await response!.text();
  const tags = html.match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(0);
  for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);

  // And the next response has a different one.
  const next = await request.get("/login");
  const nextNonce = /'nonce-([^']+)'/.exec(next.headers()["content-security-policy"] ?? "")?.[1];
  expect(nextNonce).toBeTruthy();
  expect(nextNonce).not.toBe(nonce);
});

test("the browser enforces the CSP: an injected inline handler does not run", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  const violation = /inline event handler violates the following Content Security Policy directive 'script-src/;
  browserErrors.allow(violation);
  await app.goto("/login");
  await page.evaluate(() => {
    document.body.insertAdjacentHTML("beforeend", '<img id="xss" src="/no-such-image.png" onerror="document.title = \'pwned\'">');
  });
  await expect.poll(() => browserErrors.seen.some((line) => violation.test(line))).toBe(true);
  await expect(page).toHaveTitle("Login | Backline");
});

for (const path of ["/login", "/register", "/legal-terms", "/no-such-page"]) {
  test(`${path} sends the security headers`, async ({ request }) => {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-powered-by"]).toBeUndefined();
  });
}

test.describe("cross-origin writes", () => {
  for (const path of ["/login", "/register", "/logout", "/forgot-password"]) {
    test(`a POST to ${path} from a foreign Origin is refused`, async ({ request }) => {
      const response = await request.post(path, {
        headers: { Origin: "https://evil.example" },
        form: { email: DEMO.member, password: DEMO_PASSWORD },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(403);
      expect(await response.text()).toBe("Cross-site request refused.");
      expect(response.headers()["set-cookie"]).toBeUndefined();
    });
  }

  test("a cross-site POST without Origin (Sec-Fetch-Site) is refused, JSON clients get JSON", async ({ playwright }) => {
    // A context of its own: the suite's request contexts send the app's Origin with every write.
    const request = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
    const response = await request.post("/login", {
      headers: { "Sec-Fetch-Site": "cross-site", Accept: "application/json" },
      form: { email: DEMO.member, password: DEMO_PASSWORD },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ message: "Cross-site request refused." });
    await request.dispose();
  });

  test("a write that carries a session but no Origin, Referer or Sec-Fetch-Site is refused; a same-origin Referer passes", async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
    const login = await request.post("/login", {
      headers: { Origin: process.env.E2E_BASE_URL! },
      form: { email: DEMO.member, password: DEMO_PASSWORD },
      maxRedirects: 0,
    });
    expect(login.status()).toBe(302);
    const refused = await request.post("/logout", { maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toBe("Cross-site request refused.");
    // Still logged in: the refused request changed nothing.
    expect((await request.get("/login", { maxRedirects: 0 })).status()).toBe(302);
    const allowed = await request.post("/logout", { headers: { Referer: `${process.env.E2E_BASE_URL}/login` }, maxRedirects: 0 });
    expect(allowed.status()).toBe(302);
    expect((await request.get("/login", { maxRedirects: 0 })).status()).toBe(200);
    await request.dispose();
  });

  test("the same POST from the app's own origin goes through", async ({ request }) => {
    const response = await request.post("/login", {
      headers: { Origin: process.env.E2E_BASE_URL! },
      form: { email: DEMO.member, password: DEMO_PASSWORD },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["set-cookie"]).toMatch(/backline_session=[^;]+;.*HttpOnly/i);
    expect(response.headers()["set-cookie"]).toMatch(/SameSite=Lax/i);
  });

  test("a GET from a foreign site is served normally", async ({ request }) => {
    const response = await request.get("/login", { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(response.status()).toBe(200);
  });
});
