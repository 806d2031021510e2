import type { Page } from "@playwright/test";
import { type App, type BrowserErrors, expect, test } from "../support/test";
import { confirmWithCode, confirmWithPassword, flash, fundedPayee, logInTwoFactorAdmin, requestPayoutNow, twoFactorAdmin } from "./helpers";

/**
 * Stripe Connect Express (decision 019) through the suite's Stripe stand-in (playwright.config.ts,
 * tests/helpers/stripe-stand-in.ts): a member sets Stripe up on Stripe's hosted onboarding, comes back to a
 * link that no longer works and is sent on with a fresh one, and an administrator pays by Stripe transfer.
 */
test.describe.configure({ timeout: 120_000 });

const TITLE = "a member onboards with Stripe (a used link refreshed), requests, and an administrator pays by Stripe transfer";

test(TITLE, async ({ page, app, browserErrors }) => {
  await onboardAndPay(page, app, browserErrors);
});

async function onboardAndPay(page: Page, app: App, browserErrors: BrowserErrors) {
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  const payee = await fundedPayee(app, "60.00", "stripe");
  await app.goto(`/member/${payee.id}/payouts-provider`);
  const stripe = page.getByTestId("stripe-method");
  await expect(stripe.getByTestId("stripe-status")).toHaveText("Not set up");

  // Setting Stripe up changes how the member is paid: it asks who they are first, then goes to Stripe.
  // A member without a payout country gives it here (Stripe needs it to open the account).
  await stripe.getByLabel("Country of residence").fill("US");
  await stripe.getByRole("button", { name: "Set up Stripe" }).click();
  await confirmWithPassword(page, payee.password);
  await expect(page.getByRole("heading", { name: /^Set up payouts for acct_/ })).toBeVisible();
  const onboardingUrl = page.url();
  const accountId = /for (acct_\w+)/.exec((await page.getByRole("heading").first().textContent()) ?? "")?.[1];
  expect(accountId).toBeTruthy();

  // Finishing onboarding brings the member back; Stripe's account.updated makes Stripe the payout method.
  await page.getByRole("button", { name: "Agree and submit" }).click();
  await expect(page).toHaveURL(`/member/${payee.id}/payouts-provider`);
  // The webhook and the member's return race each other, as with Stripe: the page shows it once it arrived.
  await expect
    .poll(async () => {
      await app.goto(`/member/${payee.id}/payouts-provider`);
      return page.getByTestId("payout-method").textContent();
    })
    .toBe("Stripe Connect");
  await expect(page.getByTestId("stripe-status")).toContainText("Ready");

  // The onboarding link was used: Stripe sends the member to the refresh page, which issues a fresh link
  // (the account is complete now, so it brings them back to their payout settings).
  await page.goto(onboardingUrl);
  await expect(page).toHaveURL(`/member/${payee.id}/payouts-provider`);
  await expect(page.getByTestId("payout-method")).toHaveText("Stripe Connect");

  // Someone else's Stripe account id is not found.
  const other = await page.request.get(`/member/${payee.id}/payment-account-stripe-refresh/acct_notyours0000`, { maxRedirects: 0 });
  expect(other.status()).toBe(404);

  // A request, paid through Stripe by an administrator with two-factor on.
  const requestId = await requestPayoutNow(page, payee, "25.00");
  await app.dropSession();
  const admin = await twoFactorAdmin();
  await logInTwoFactorAdmin(page, admin);
  await app.goto(`/admin/royalty-payment-requests?q=${encodeURIComponent(payee.email)}`);
  const card = page.getByRole("article", { name: `Request #${requestId}: $25.00 for ${payee.name}` });
  await card.getByRole("button", { name: "Approve and pay through Stripe" }).click();
  await confirmWithCode(page, admin);
  await expect(flash(page)).toContainText(`Request #${requestId} is paid:`);
  await expect(flash(page)).toContainText("sent through Stripe (transfer tr_");
  await page.getByLabel("Status").selectOption("all");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("article", { name: `Request #${requestId}: $25.00 for ${payee.name}` })).toContainText("Transfer reference: tr_");

  // Payment accounts: the member's Stripe account, whose status an administrator can ask Stripe for again.
  await app.goto(`/admin/payment-accounts?q=${encodeURIComponent(payee.email)}`);
  await page.getByRole("link", { name: `Refresh the Stripe status of ${payee.name}` }).click();
  await expect(page).toHaveURL(/\/admin\/payment-accounts/);
  await expect(page.getByRole("link", { name: `Refresh the Stripe status of ${payee.name}` })).toBeVisible();
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  // The same flow: every Stripe form is a plain form, and onboarding is Stripe's own page.
  test(TITLE, async ({ page, app, browserErrors }) => {
    await onboardAndPay(page, app, browserErrors);
  });
});
