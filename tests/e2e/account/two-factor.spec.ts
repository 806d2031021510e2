import { generate } from "otplib";
import { expect, test } from "../support/test";
import { waitForMail } from "../support/outbox";
import { adminApi, confirmWithPassword, createPayee, logInPayee, twoFactorAdmin } from "../payouts/helpers";

/**
 * Two-factor authentication (decision 020): set up on the Account page (after the password) with the key shown, log out, log in with a
 * code the test computes from that key, with a recovery code (once), and bad codes; the second step without
 * JavaScript, and no session before it.
 */
test.describe.configure({ timeout: 120_000 });

const now = () => Math.floor(Date.now() / 1000);

test("a member turns two-factor on, then logs in with a code from the key shown and with a recovery code, once", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  browserErrors.allowStatus(403); // the confirm form
  const admin = await adminApi();
  const member = await createPayee(admin, "tfa");
  await admin.dispose();
  await logInPayee(app, member);

  await app.goto(`/member/${member.id}/profile`);
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await expect(section.getByTestId("two-factor-status")).toContainText("off");
  await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
  // Turning it on is an account change like any other: the password first (decision 020), wrong then right.
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(page.getByText("That password is not right.")).toBeVisible();
  await confirmWithPassword(page, member.password);
  const secret = (await section.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(section.getByTestId("totp-uri")).toHaveAttribute("href", new RegExp(`^otpauth://totp/.*secret=${secret}`));
  await expect(section.getByRole("img", { name: "QR code of the key" })).toBeVisible();

  await section.getByLabel("Code from the app").fill("000000");
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(section.getByText("That code is not right.")).toBeVisible();
  await expect(section.getByLabel("Code from the app")).toHaveAttribute("aria-invalid", "true");
  await section.getByLabel("Code from the app").fill(await generate({ secret, epoch: now() }));
  await section.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  const codes = section.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await expect(section.getByTestId("two-factor-status")).toContainText("on");
  // The account is told, in case it was not its owner.
  await waitForMail(member.email, { subject: /^Two-factor authentication is on for your Backline account$/ });

  // Log out; the password alone opens no session.
  await app.dropSession();
  await app.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
  expect(await app.sessionCookie()).toBeUndefined();
  const code = page.getByLabel("Authentication code");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toBeFocused();

  // Bad codes, beside the field.
  await code.fill("123");
  await page.getByRole("button", { name: "Verify and log in" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  expect(await app.sessionCookie()).toBeUndefined();

  // A code from the key (the next step: the one used to turn it on is not accepted twice).
  await code.fill(await generate({ secret, epoch: now() + 30 }));
  await page.getByRole("button", { name: "Verify and log in" }).click();
  await expect(page).toHaveURL(`/member/${member.id}/dashboard`);
  expect(await app.sessionCookie()).toBeDefined();

  // A recovery code works once.
  await app.dropSession();
  await app.logIn(member.email, member.password);
  await page.getByLabel("Authentication code").fill(recovery[0]!.toUpperCase());
  await page.getByRole("button", { name: "Verify and log in" }).click();
  await expect(page).toHaveURL(`/member/${member.id}/dashboard`);
  await app.dropSession();
  await app.logIn(member.email, member.password);
  await page.getByLabel("Authentication code").fill(recovery[0]!);
  await page.getByRole("button", { name: "Verify and log in" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  expect(await app.sessionCookie()).toBeUndefined();
  // Starting again goes back to the password.
  await page.getByRole("button", { name: "Cancel and start again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the login's second step takes a recovery code and opens the session", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const admin = await twoFactorAdmin();
    await app.logIn(admin.email, admin.password);
    await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
    expect(await app.sessionCookie()).toBeUndefined();
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify and log in" }).click();
    await expect(page.getByText("That code is not right.")).toBeVisible();
    await page.getByLabel("Authentication code").fill(admin.recovery[0]!);
    await page.getByRole("button", { name: "Verify and log in" }).click();
    await expect(page).toHaveURL("/admin/dashboard");
    expect(await app.sessionCookie()).toBeDefined();
  });
});
