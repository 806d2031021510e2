import type { Page } from "@playwright/test";
import { DEMO } from "../support/accounts";
import { actionLink, mailsTo, waitForMail, expectNoMail } from "../support/outbox";
import { expiredLink, extendedExpiry, pathOf, tamperedSignature } from "../support/signed-links";
import { createVerifiedUser, expect, test, type App, sendAppOrigin } from "../support/test";

const RESET_SUBJECT = /^Reset your Backline password$/;
const CHANGED = "Your password has been changed. Log in with your new password.";
const USED = "This password reset link has already been used or has expired. Request a new one.";
const INVALID = "These credentials do not match our records.";

async function requestReset(app: App, email: string) {
  await app.goto("/forgot-password");
  await app.page.getByLabel("Email").fill(email);
  await app.page.getByRole("button", { name: "Send reset link" }).click();
  await expect(app.page.getByRole("status")).toHaveText(`If an account exists for ${email}, a reset link is on its way. It works once, for 60 minutes.`);
}

async function choosePassword(page: Page, password: string, repeat = password) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat new password").fill(repeat);
  await page.getByRole("button", { name: "Save new password" }).click();
}

test.describe("forgot password", () => {
  test("shows the form", async ({ page, app }) => {
    const response = await app.goto("/forgot-password");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Forgot password | Backline");
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await page.getByRole("link", { name: "Back to login" }).click();
    await expect(page).toHaveURL("/login");
  });

  test("answers the same for an unknown address and sends nothing", async ({ app }) => {
    const email = "no-account-here@example.test";
    await requestReset(app, email);
    // The action sends before it answers, so nothing more can arrive.
    await expectNoMail(email);
  });

  test("emails a signed reset link to an existing account", async ({ app }) => {
    const before = mailsTo(DEMO.admin, RESET_SUBJECT).length;
    await requestReset(app, DEMO.admin.toUpperCase());
    const mail = await waitForMail(DEMO.admin, { subject: RESET_SUBJECT, after: before });
    expect(actionLink(mail)).toMatch(new RegExp(`^${process.env.E2E_BASE_URL}/password-reset/[^/?]+\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    // The demo admin's password is not touched: the link is never opened.
  });

  test("a malformed address is flagged beside the field", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.goto("/forgot-password");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter your email address.");
    await page.getByLabel("Email").fill("nope");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
    await expect(page.getByText(/If an account exists/)).toHaveCount(0);
  });
});

test.describe("reset password", () => {
  test("sets a new password once; the old one stops working and the link is used up", async ({ page, app, request, browserErrors }) => {
    browserErrors.allowStatus(400, 404, 410);
    const user = await createVerifiedUser(request, "reset");
    await requestReset(app, user.email);
    const link = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT }));

    const response = await app.goto(pathOf(link));
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Reset password | Backline");
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();

    // Bad input first: too short, then not matching.
    await choosePassword(page, "short");
    await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/^Use at least 8 characters\.\s*At least 8 characters\.$/);
    await choosePassword(page, "long-enough-1", "long-enough-2");
    await expect(page.getByLabel("Repeat new password")).toHaveAccessibleDescription("The two passwords do not match.");

    const newPassword = `${user.password}-new`;
    await choosePassword(page, newPassword);
    await expect(page).toHaveURL("/login");
    await expect(page.getByRole("status")).toHaveText(CHANGED);

    await app.logIn(user.email, user.password);
    await expect(page.getByRole("alert")).toHaveText(INVALID);
    await app.logIn(user.email, newPassword);
    await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);

    // Single use: the page says so (410) and a replayed POST changes nothing.
    const again = await page.goto(pathOf(link));
    expect(again?.status()).toBe(410);
    await expect(page.getByRole("alert")).toHaveText(USED);
    await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
    const replay = await request.post(pathOf(link), {
      form: { password: "hijacked-password", passwordConfirmation: "hijacked-password" },
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(400);
    expect(await replay.text()).toContain(USED);
    const stillNew = await request.post("/login", { form: { email: user.email, password: newPassword }, maxRedirects: 0 });
    expect(stillNew.status()).toBe(302);
  });

  test("tampered and expired links answer 'Invalid signature.' and the password still works", async ({ page, app, request, browserErrors }) => {
    browserErrors.allowStatus(403);
    const user = await createVerifiedUser(request, "reset-bad");
    await requestReset(app, user.email);
    const link = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT }));

    for (const [label, bad] of [
      ["tampered signature", tamperedSignature(link)],
      ["expiry moved later", extendedExpiry(link)],
      ["correctly signed but expired", expiredLink(link)],
      ["no signature", link.split("?")[0]!],
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
      expect(await post.text()).toContain("Invalid signature.");
    }

    const login = await request.post("/login", { form: { email: user.email, password: user.password }, maxRedirects: 0 });
    expect(login.status()).toBe(302);
    // The genuine link still works afterwards.
    const genuine = await page.goto(pathOf(link));
    expect(genuine?.status()).toBe(200);
  });

  test("a newer reset link replaces the older one", async ({ page, app, request, browserErrors }) => {
    browserErrors.allowStatus(410);
    const user = await createVerifiedUser(request, "reset-twice");
    await requestReset(app, user.email);
    const first = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT }));
    await requestReset(app, user.email);
    const second = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT, after: 1 }));
    expect(second).not.toBe(first);

    expect((await page.goto(pathOf(first)))?.status()).toBe(410);
    expect((await page.goto(pathOf(second)))?.status()).toBe(200);
  });

  test("resetting the password ends the user's other sessions", async ({ page, app, browser, request, browserErrors }) => {
    browserErrors.allowStatus(404);
    const user = await createVerifiedUser(request, "reset-sessions");

    // Another device, logged in.
    const other = await browser.newContext();
    sendAppOrigin(other.request);
    browserErrors.watch(other);
    const otherPage = await other.newPage();
    const dashboard = await app.logInQuickly(user.email, user.password, { page: otherPage });
    await otherPage.goto("/login");
    await expect(otherPage, "still logged in before the reset").toHaveURL(dashboard);

    await requestReset(app, user.email);
    const link = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT }));
    await app.goto(pathOf(link));
    await choosePassword(page, "brand-new-password");
    await expect(page.getByRole("status")).toHaveText(CHANGED);

    // The other device's cookie no longer opens a session.
    await otherPage.goto("/login");
    await expect(otherPage).toHaveURL("/login");
    await expect(otherPage.getByRole("heading", { name: "Log in" })).toBeVisible();
    await expect(otherPage.getByRole("navigation", { name: "Account" })).not.toContainText("Test User");
    await other.close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("forgot password and reset work, with errors shown by the server", async ({ page, app, request, browserErrors }) => {
      browserErrors.allowStatus(400, 404);
      const user = await createVerifiedUser(request, "reset-nojs");
      await requestReset(app, user.email);
      await expect(page.getByLabel("Email")).toHaveValue("");
      const link = actionLink(await waitForMail(user.email, { subject: RESET_SUBJECT }));

      await app.goto(pathOf(link));
      await choosePassword(page, "mismatch-one", "mismatch-two");
      await expect(page.getByLabel("Repeat new password")).toHaveAccessibleDescription("The two passwords do not match.");
      await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");

      await choosePassword(page, "no-js-new-password");
      await expect(page).toHaveURL("/login");
      await expect(page.getByRole("status")).toHaveText(CHANGED);
      await app.logIn(user.email, "no-js-new-password");
      await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);
    });
  });
});
