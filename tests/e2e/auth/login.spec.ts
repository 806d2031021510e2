import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { createVerifiedUser, expect, registerUser, test } from "../support/test";
import { mailsTo, waitForMail } from "../support/outbox";

const INVALID = "These credentials do not match our records.";
const MEMBER_DASHBOARD = /\/member\/\d+\/dashboard$/;

test.describe("login page", () => {
  test("the start page sends visitors to /login", async ({ page, request }) => {
    const response = await request.get("/", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/login");
    await page.goto("/");
    await expect(page).toHaveURL("/login");
  });

  test("shows the login form to visitors", async ({ page, app }) => {
    const response = await app.goto("/login");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Login | Backline");
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeFocused();
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/register");
  });

  test("the admin demo login goes to the admin dashboard with a safe session cookie", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404); // the dashboards do not exist yet in this issue
    await app.logIn(DEMO.admin, DEMO_PASSWORD);
    await expect(page).toHaveURL("/admin/dashboard");
    const cookie = await app.sessionCookie();
    expect(cookie, "backline_session cookie").toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Lax");
    expect(cookie!.path).toBe("/");
    // The public site's header now shows who is logged in.
    await app.goto("/legal-terms");
    await expect(page.getByRole("navigation", { name: "Account" })).toContainText("Ada Admin");
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  });

  test("the member demo login goes to the member's dashboard", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logIn(DEMO.member, DEMO_PASSWORD);
    await expect(page).toHaveURL(MEMBER_DASHBOARD);
    expect(await app.sessionCookie()).toBeDefined();
    await app.goto("/legal-terms");
    await expect(page.getByRole("navigation", { name: "Account" })).toContainText("Mia Member");
  });

  test("a logged-in user who opens /login is sent to their dashboard", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    const dashboard = await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    expect(dashboard).toMatch(MEMBER_DASHBOARD);
    await page.goto("/login");
    await expect(page).toHaveURL(dashboard);
  });

  test("email matching ignores case and surrounding spaces", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logIn("  MEMBER@Example.com ", DEMO_PASSWORD);
    await expect(page).toHaveURL(MEMBER_DASHBOARD);
  });

  test("a wrong password and an unknown email get the same generic message", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.logIn(DEMO.admin, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    await expect(page).toHaveURL("/login");
    await expect(page.getByLabel("Email")).toHaveValue(DEMO.admin);
    // The password is never kept, with JavaScript on too.
    await expect(page.getByLabel("Password")).toHaveValue("");
    expect(await app.sessionCookie()).toBeUndefined();

    await app.logIn("nobody-here@example.test", "whatever-password");
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    expect(await app.sessionCookie()).toBeUndefined();
  });

  test("empty and malformed fields are flagged beside the field", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.goto("/login");
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password");
    // Submitted with Enter: clicking the button right after the autofocused field loses focus shifts the
    // button under the pointer (the email error appears above it), see the report.
    await password.press("Enter");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Enter your email address.");
    await expect(password).toHaveAccessibleDescription("Enter your password.");

    await email.fill("not-an-email");
    await password.fill("x");
    await password.press("Enter");
    await expect(email).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
    await expect(password).not.toHaveAttribute("aria-invalid");
    await expect(page).toHaveURL("/login");
  });

  test("the server answers a wrong login with 400 and an empty form with field errors", async ({ request }) => {
    const wrong = await request.post("/login", { form: { email: DEMO.member, password: "wrong-password" } });
    expect(wrong.status()).toBe(400);
    expect(await wrong.text()).toContain(INVALID);
    expect(wrong.headers()["set-cookie"] ?? "").not.toContain("backline_session");

    const empty = await request.post("/login", { form: { email: "", password: "" } });
    expect(empty.status()).toBe(400);
    const html = await empty.text();
    expect(html).toContain("Enter your email address.");
    expect(html).toContain("Enter your password.");
  });

  test("an unverified account cannot log in and is sent a fresh verification link", async ({ page, app, request, browserErrors }) => {
    browserErrors.allowStatus(400);
    const user = await registerUser(request, "unverified");
    // The registration's own message (mail is sent by the server's job worker, a moment after the request).
    await waitForMail(user.email, { subject: /Verify your email/ });
    const before = mailsTo(user.email, /Verify your email/).length;
    expect(before).toBe(1);
    await app.logIn(user.email, user.password);
    await expect(page.getByRole("alert")).toHaveText("Please verify your email address first. We have sent you a new verification link.");
    expect(await app.sessionCookie()).toBeUndefined();
    const fresh = await waitForMail(user.email, { subject: /Verify your email/, after: before });
    expect(fresh.links[0]).toContain(`/email-verify/`);
  });
});

test.describe("redirect after login", () => {
  test("a same-origin path (with its query) is honoured", async ({ page, app }) => {
    await app.logIn(DEMO.member, DEMO_PASSWORD, { redirect: "/legal-terms/privacy-policy?from=login#cookies" });
    await expect(page).toHaveURL("/legal-terms/privacy-policy?from=login#cookies");
    await expect(page.getByRole("heading", { name: "privacy policy" })).toBeVisible();
  });

  for (const evil of ["//evil.example", "https://evil.example"]) {
    test(`an off-site target (${evil}) is ignored`, async ({ page, app, browserErrors }) => {
      browserErrors.allowStatus(404);
      await app.logIn(DEMO.member, DEMO_PASSWORD, { redirect: evil });
      await expect(page).toHaveURL(MEMBER_DASHBOARD);
      expect(new URL(page.url()).host).toBe(new URL(process.env.E2E_BASE_URL!).host);
    });
  }

  test("the server never redirects off-site or back to login", async ({ request }) => {
    for (const evil of ["//evil.example/steal", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "evil.example", "/login", "/logout"]) {
      const response = await request.post("/login", {
        form: { email: DEMO.admin, password: DEMO_PASSWORD, redirect: evil },
        maxRedirects: 0,
      });
      expect(response.status(), evil).toBe(302);
      expect(response.headers()["location"], evil).toBe("/admin/dashboard");
    }
  });
});

test.describe("per-account rate limit", () => {
  test("after 5 failures the account is locked, even for the right password", async ({ page, app, request, browserErrors }) => {
    browserErrors.allowStatus(400, 429);
    const user = await createVerifiedUser(request, "ratelimit");
    // All from the browser: the limit is per account and address, and the test runner's own requests may
    // reach the server from another loopback address (::1 or 127.0.0.1) than Chromium.
    for (let attempt = 1; attempt <= 4; attempt++) {
      await app.logIn(user.email, `wrong-${attempt}`);
      await expect(page.getByRole("alert")).toHaveText(INVALID);
    }
    // The fifth failure still gets the generic message...
    await app.logIn(user.email, "wrong-5");
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    // ...and from then on even the right password is refused.
    await app.logIn(user.email, user.password);
    await expect(page.getByRole("alert")).toContainText("Too many login attempts. Please try again in ");
    await expect(page).toHaveURL("/login");
    expect(await app.sessionCookie()).toBeUndefined();

    // A direct POST from the same browser (and so the same address) is refused with 429.
    const direct = await page.evaluate(async ({ email, password }) => {
      const response = await fetch("/login", { method: "POST", body: new URLSearchParams({ email, password }), redirect: "manual" });
      return { status: response.status, text: await response.text() };
    }, user);
    expect(direct.status).toBe(429);
    expect(direct.text).toMatch(/Too many login attempts\. Please try again in (a minute|\d+ minutes)\./);

    // Other accounts are not affected.
    const other = await request.post("/login", { form: { email: DEMO.admin, password: DEMO_PASSWORD }, maxRedirects: 0 });
    expect(other.status()).toBe(302);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a demo member logs in", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logIn(DEMO.member, DEMO_PASSWORD);
    await expect(page).toHaveURL(MEMBER_DASHBOARD);
    expect(await app.sessionCookie()).toBeDefined();
  });

  test("wrong credentials show the message and keep the email, never the password", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.logIn(DEMO.member, "wrong-password");
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    await expect(page.getByLabel("Email")).toHaveValue(DEMO.member);
    await expect(page.getByLabel("Password")).toHaveValue("");
  });

  test("empty fields get server-side errors beside them", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.goto("/login");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter your email address.");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Enter your password.");
  });

  test("the redirect query is honoured", async ({ page, app }) => {
    await app.logIn(DEMO.admin, DEMO_PASSWORD, { redirect: "/legal-terms" });
    await expect(page).toHaveURL("/legal-terms");
  });
});
