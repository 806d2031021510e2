import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { mailsTo, waitForMail, expectNoMail } from "../support/outbox";
import { expect, newUserData, test, type FreshUser } from "../support/test";

async function fillRegisterForm(page: Page, user: FreshUser, options: { repeat?: string; terms?: boolean } = {}) {
  await page.getByLabel("First name").fill(user.name);
  await page.getByLabel("Last name").fill(user.lastName);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Repeat password").fill(options.repeat ?? user.password);
  if (options.terms ?? true) await page.getByRole("checkbox").check();
}

const submit = (page: Page) => page.getByRole("button", { name: "Create account" }).click();

test("shows the form with links to the required documents", async ({ page, app }) => {
  const response = await app.goto("/register");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Register | Backline");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  const terms = page.getByRole("main").getByRole("link", { name: "Terms of Service" });
  await expect(terms).toHaveAttribute("href", "/legal-terms/terms-of-service");
  await expect(page.getByRole("main").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/legal-terms/privacy-policy");
  await expect(page.getByRole("checkbox")).not.toBeChecked();
});

test("a logged-in user is sent to their dashboard", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await page.goto("/register");
  await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);
});

test("registers, emails a verification link and keeps the user out until verified", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const user = newUserData("register");
  await app.goto("/register");
  await fillRegisterForm(page, user);
  await submit(page);

  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toHaveText(`Almost there: we sent a message to ${user.email}. Open it to continue.`);
  const mail = await waitForMail(user.email, { subject: /^Verify your email address for Backline$/ });
  expect(mail.text).toContain("Hello Test,");
  expect(mail.links).toHaveLength(1);
  expect(mail.links[0]).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/email-verify/\\d+/[^/?]+\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  expect(mail.html).toContain("Verify email address");

  // The flash is shown once.
  await page.reload();
  await expect(page.getByRole("status")).toHaveText("");

  await app.logIn(user.email, user.password);
  await expect(page.getByRole("alert")).toContainText("Please verify your email address first.");
});

test("client-side errors appear beside each field and typed values stay", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  await app.goto("/register");
  await page.getByLabel("First name").press("Enter");
  await expect(page.getByLabel("First name")).toHaveAccessibleDescription("Enter your first name.");
  await expect(page.getByLabel("Last name")).toHaveAccessibleDescription("Enter your last name.");
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter your email address.");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(/^Choose a password\.\s*At least 8 characters\.$/);
  await expect(page.getByRole("checkbox")).toHaveAccessibleDescription("Agree to the Terms of Service and Privacy Policy to continue.");

  const user = newUserData("register-client");
  await fillRegisterForm(page, { ...user, email: "not-an-email", password: "short" }, { repeat: "something-else" });
  await page.getByLabel("First name").press("Enter");
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(/^Use at least 8 characters\.\s*At least 8 characters\.$/);
  await expect(page.getByRole("checkbox")).not.toHaveAttribute("aria-invalid");

  // The "do not match" check runs once every other field is valid (a zod refine, see the report).
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("First name").press("Enter");
  await expect(page.getByLabel("Repeat password")).toHaveAccessibleDescription("The two passwords do not match.");
  await expect(page.getByLabel("First name")).not.toHaveAttribute("aria-invalid");
  await expect(page.getByLabel("First name")).toHaveValue(user.name);
  await expect(page).toHaveURL("/register");
  await expectNoMail(user.email);
});

test("an address that already has an account gets the same answer as a new one, and its owner an email", async ({ page, app }) => {
  const user = { ...newUserData("dup"), email: "Member@Example.com" };
  const tried = /^Someone tried to create a Backline account with your address$/;
  const before = mailsTo(DEMO.member, tried).length;
  await app.goto("/register");
  await fillRegisterForm(page, user);
  await submit(page);
  // Nothing on the page tells that the address is taken (no enumeration).
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toHaveText("Almost there: we sent a message to Member@Example.com. Open it to continue.");
  const mail = await waitForMail(DEMO.member, { subject: tried, after: before });
  expect(mail.text).toContain("You already have an account, so nothing was created.");
  expect(mail.text).toContain("/forgot-password");
  expect(mail.links[0]).toBe(`${process.env.E2E_BASE_URL}/login`);
});

test("a bot that fills the hidden honeypot field gets no account", async ({ request }) => {
  const user = newUserData("honeypot");
  const response = await request.post("/register", {
    form: {
      name: "Bot",
      lastName: "Bot",
      email: user.email,
      password: user.password,
      passwordConfirmation: user.password,
      terms: "on",
      website_url: "https://spam.example",
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("We could not create this account.");
  const login = await request.post("/login", { form: { email: user.email, password: user.password }, maxRedirects: 0 });
  expect(await login.text()).toContain("These credentials do not match our records.");
  await expectNoMail(user.email);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("server-side errors are shown beside the fields and values are kept, passwords are not", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const user = newUserData("register-nojs");
    await app.goto("/register");
    await fillRegisterForm(page, { ...user, password: "short" }, { repeat: "short", terms: false });
    await submit(page);

    await expect(page).toHaveURL("/register");
    await expect(page.getByRole("checkbox")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("checkbox")).toHaveAccessibleDescription("Agree to the Terms of Service and Privacy Policy to continue.");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(/^Use at least 8 characters\.\s*At least 8 characters\.$/);
    await expect(page.getByRole("checkbox")).not.toBeChecked();
    await expect(page.getByLabel("First name")).toHaveValue(user.name);
    await expect(page.getByLabel("Last name")).toHaveValue(user.lastName);
    await expect(page.getByLabel("Email")).toHaveValue(user.email);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Repeat password")).toHaveValue("");
    await expectNoMail(user.email);

    // Tick the box; the passwords now differ.
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByLabel("Repeat password").fill("a-different-password");
    await page.getByRole("checkbox").check();
    await submit(page);
    await expect(page.getByLabel("Repeat password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Repeat password")).toHaveAccessibleDescription("The two passwords do not match.");
    await expect(page.getByLabel("Email")).toHaveValue(user.email);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

    // Correct it and register.
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByLabel("Repeat password").fill(user.password);
    await page.getByRole("checkbox").check();
    await submit(page);
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toContainText(`we sent a message to ${user.email}`);
    await waitForMail(user.email, { subject: /Verify your email/ });
  });
});
