import type { Page } from "@playwright/test";
import { PENDING } from "../support/accounts";
import { actionLink, mailsTo, waitForMail } from "../support/outbox";
import { expiredLink, extendedExpiry, pathOf, resignedLink, tamperedSignature } from "../support/signed-links";
import { expect, test } from "../support/test";

const SUBJECT = /^Activate your Backline account$/;
const ACTIVE = "Your account is active. Log in with your new password.";
const USED = "This activation link has already been used or has expired. Ask the person who invited you for a new one.";
const INVALID = "These credentials do not match our records.";

async function activationLink(email: string) {
  const mail = await waitForMail(email, { subject: SUBJECT });
  expect(mail.text).toContain("The e2e suite created an account for you.");
  return actionLink(mail);
}

async function choosePassword(page: Page, password: string, repeat = password) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat new password").fill(repeat);
  await page.getByRole("button", { name: "Activate account" }).click();
}

test("a pending account cannot log in before activation", async ({ request }) => {
  const response = await request.post("/login", { form: { email: PENDING.badLinks, password: "anything-at-all" } });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(INVALID);
});

test("the activation link sets the first password and the account can log in", async ({ page, app }) => {
  const link = await activationLink(PENDING.js);
  expect(link).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/activate-account\\?token=[^&]+&expires=\\d+&signature=[0-9a-f]{64}$`));

  const response = await app.goto(pathOf(link));
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Activate account | Backline");
  await expect(page.getByRole("heading", { name: "Activate your account" })).toBeVisible();
  await choosePassword(page, "activated-password");
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toHaveText(ACTIVE);

  // Accounts created for someone have not agreed to the documents yet: login continues to the agreement list.
  await app.logIn(PENDING.js, "activated-password", { redirect: "/legal-terms" });
  await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  await page.getByRole("button", { name: "I agree" }).click();
  await expect(page).toHaveURL("/legal-terms");
});

test("bad input is flagged beside the fields and the link stays usable", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const link = await activationLink(PENDING.validation);
  await app.goto(pathOf(link));
  await page.getByLabel("Repeat new password").press("Enter");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/^Choose a password\.\s*At least 8 characters\.$/);
  await choosePassword(page, "short", "short");
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/^Use at least 8 characters\.\s*At least 8 characters\.$/);
  await choosePassword(page, "first-password", "second-password");
  await expect(page.getByLabel("Repeat new password")).toHaveAccessibleDescription("The two passwords do not match.");
  await expect(page).toHaveURL(pathOf(link));
  expect((await page.reload())?.status()).toBe(200);
});

test("the activation link works once", async ({ page, app, request, browserErrors }) => {
  browserErrors.allowStatus(410);
  const link = await activationLink(PENDING.singleUse);
  await app.goto(pathOf(link));
  await choosePassword(page, "single-use-password");
  await expect(page.getByRole("status")).toHaveText(ACTIVE);

  const again = await page.goto(pathOf(link));
  expect(again?.status()).toBe(410);
  await expect(page.getByRole("alert")).toHaveText(USED);
  const replay = await request.post(pathOf(link), {
    form: { password: "hijacked-password", passwordConfirmation: "hijacked-password" },
    maxRedirects: 0,
  });
  expect(replay.status()).toBe(400);
  expect(await replay.text()).toContain(USED);
  const login = await request.post("/login", { form: { email: PENDING.singleUse, password: "single-use-password" }, maxRedirects: 0 });
  expect(login.status()).toBe(302);
});

test("tampered and expired links answer 'Invalid signature.' and activate nothing", async ({ page, request, browserErrors }) => {
  browserErrors.allowStatus(403, 410);
  const link = await activationLink(PENDING.badLinks);
  const token = new URL(link).searchParams.get("token")!;
  for (const [label, bad] of [
    ["tampered signature", tamperedSignature(link)],
    ["expiry moved later", extendedExpiry(link)],
    ["correctly signed but expired", expiredLink(link)],
    ["other token, same signature", link.replace(`token=${token}`, `token=${"a".repeat(token.length)}`)],
    ["no parameters", `${process.env.E2E_BASE_URL}/activate-account`],
  ] as const) {
    const response = await page.goto(pathOf(bad));
    expect(response?.status(), label).toBe(403);
    await expect(page.getByRole("alert"), label).toHaveText("Invalid signature.");
    await expect(page.getByLabel("New password", { exact: true }), label).toHaveCount(0);
    const post = await request.post(pathOf(bad), {
      form: { password: "hijacked-password", passwordConfirmation: "hijacked-password" },
      maxRedirects: 0,
    });
    expect(post.status(), `${label} (POST)`).toBe(403);
  }

  // A correctly signed link for a token that does not exist is a dead link.
  const unknown = resignedLink(link, (url) => url.searchParams.set("token", "b".repeat(token.length)));
  expect((await page.goto(pathOf(unknown)))?.status()).toBe(410);

  const login = await request.post("/login", { form: { email: PENDING.badLinks, password: "hijacked-password" } });
  expect(await login.text()).toContain(INVALID);
  // The genuine link still works.
  expect((await page.goto(pathOf(link)))?.status()).toBe(200);
  expect(mailsTo(PENDING.badLinks, SUBJECT)).toHaveLength(1);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("activation works and shows server-side errors", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const link = await activationLink(PENDING.noJs);
    await app.goto(pathOf(link));
    await choosePassword(page, "short");
    await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/^Use at least 8 characters\.\s*At least 8 characters\.$/);
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
    await choosePassword(page, "no-js-activated");
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toHaveText(ACTIVE);
    await app.logIn(PENDING.noJs, "no-js-activated");
    await expect(page.getByRole("heading", { name: "Before you continue" })).toBeVisible();
  });
});
