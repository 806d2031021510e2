import type { Page } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { App, expect, sendAppOrigin, test } from "../support/test";
import { bell, expectCount, gotoLive, memberChannel, openBell, item } from "../notifications/helpers";
import {
  confirmWithCode,
  confirmWithPassword,
  flash,
  fundedPayee,
  logInTwoFactorAdmin,
  nextCode,
  requestPayoutNow,
  setUpManualW9,
  twoFactorAdmin,
  unique,
} from "./helpers";

/**
 * Payouts: a member sets up the manual bank transfer and a W-9, previews, requests and cancels; an
 * administrator pays one request and rejects another, and the member's open page hears of it live; bad input
 * on every form; who may see what. Each test makes its own funded member (helpers.ts).
 */
test.describe.configure({ timeout: 120_000 });

const requestsTable = (page: Page) => page.getByRole("region", { name: "Your requests" }).getByRole("table");
const requestRow = (page: Page, id: number) =>
  requestsTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: String(id), exact: true }) });

test("a member sets up a bank transfer and a W-9 (errors beside each field first), previews, requests and cancels", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  const payee = await fundedPayee(app, "100.00", "setup");
  await app.goto(`/member/${payee.id}/payouts-provider`);
  await expect(page.getByRole("heading", { level: 1, name: "Payouts" })).toBeVisible();
  await expect(page.getByTestId("payout-method")).toHaveText("Not chosen yet");
  await expect(page.getByTestId("tax-status")).toHaveText("No tax form on file");
  await expect(page.getByTestId("withholding")).toContainText("30%");
  // The rate is said once ("30% is withheld", never "30% 30% is withheld").
  await expect(page.getByTestId("withholding")).not.toContainText("30% 30%");
  // The suite's server has Stripe configured (its stand-in): the option is offered, not set up.
  await expect(page.getByTestId("stripe-status")).toHaveText("Not set up");

  // Bank details: a bad country and a bad account number, each beside its field, the other values kept.
  const bank = page.getByRole("form", { name: "Manual bank transfer" });
  await bank.getByLabel("Country of tax residence").fill("1X");
  await bank.getByLabel("Account holder").fill(payee.name);
  await bank.getByLabel("Account number or IBAN").fill("12");
  await bank.getByRole("button", { name: "Save bank details" }).click();
  // The first change of the session asks for the password, a wrong one first; then the form goes on
  // with what was typed, and its errors show beside the fields.
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(page.getByText("That password is not right.")).toBeVisible();
  await confirmWithPassword(page, payee.password);
  const country = bank.getByLabel("Country of tax residence");
  await expect(country).toHaveAttribute("aria-invalid", "true");
  await expect(bank.getByText("Choose your country of tax residence.")).toBeVisible();
  await expect(bank.getByLabel("Account holder")).toHaveValue(payee.name);
  await country.fill("US");
  await bank.getByRole("button", { name: "Save bank details" }).click();
  await expect(bank.getByText("Enter the account number or IBAN (letters and digits, 4 to 34).")).toBeVisible();
  await expect(bank.getByLabel("Account number or IBAN")).toHaveAttribute("aria-invalid", "true");
  await bank.getByLabel("Account number or IBAN").fill("0001 2345 4321");
  await bank.getByRole("button", { name: "Save bank details" }).click();
  await expect(flash(page)).toHaveText("You are paid by bank transfer to the account ending 4321.");
  await expect(page.getByTestId("payout-method")).toHaveText("Manual bank transfer, account ending 4321 (US)");
  await expect(page.getByText("000123454321")).toHaveCount(0);
  await expect(page.getByTestId("withholding")).toContainText("24% US backup withholding");

  // Tax: a W-8 for the US is refused beside the choice; then a W-9.
  const tax = page.getByRole("form", { name: "Tax status" });
  await tax.getByLabel("W-8: I am not a US person").check();
  await tax.getByLabel("Legal name").fill(payee.name);
  await tax.getByLabel("Country").fill("US");
  await tax.getByLabel("Taxpayer identification number").fill("123-45-6789");
  await tax.getByRole("button", { name: "Sign and save tax form" }).click();
  await expect(tax.getByText("A W-8 is for non-US persons; choose a W-9 for the US.")).toBeVisible();
  await expect(tax.getByLabel("Legal name")).toHaveValue(payee.name);
  await tax.getByLabel("W-9: I am a US person (citizen or resident)").check();
  await tax.getByRole("button", { name: "Sign and save tax form" }).click();
  await expect(flash(page)).toHaveText("Your W-9 is recorded (TIN ending 6789).");
  await expect(page.getByTestId("tax-status")).toContainText("W-9 (US person) for US, TIN ending 6789");
  await expect(page.getByTestId("withholding")).toContainText("0%");
  await expect(page.getByTestId("withholding")).toContainText("no tax is withheld");

  // Request: bad amounts beside the field, nothing reserved; the live preview; a request; a cancellation.
  await app.goto(`/member/${payee.id}/royalty-payment-requests`);
  await expect(page.getByText("Available to request: $100.00.")).toBeVisible();
  const amount = page.getByLabel("Amount (USD)");
  for (const [typed, message] of [
    ["100.01", "You can request at most $100.00, your available balance."],
    ["9.99", "The minimum payout is $10.00."],
    // A comma that is not a thousands separator is refused, never read as a point or dropped (one money parser).
    ["12,34", "Use a point for cents, such as 10.00: a comma only separates thousands, as in 1,000.00."],
    ["12.345", "Enter an amount such as 12.34."],
  ] as const) {
    await amount.fill(typed);
    await page.getByRole("button", { name: "Request payout" }).click();
    await expect(page.getByText(message, { exact: true })).toBeVisible();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
  }
  await expect(page.getByText("No payout requests yet.")).toBeVisible();
  await amount.fill("25.50");
  await expect(page.getByLabel("Payout preview")).toContainText("You receive$25.50");
  await page.getByRole("button", { name: "Request payout" }).click();
  await expect(flash(page)).toContainText("for $25.50 is pending; the amount is reserved.");
  await expect(page.getByText("Available to request: $74.50.")).toBeVisible();
  // The form is empty again, and the old amount's preview is gone with it.
  await expect(amount).toHaveValue("");
  await expect(page.getByLabel("Payout preview")).toHaveCount(0);
  const row = requestsTable(page).getByRole("row").filter({ hasText: "Pending" });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(flash(page)).toContainText("was canceled; $25.50 is available again.");
  await expect(page.getByText("Available to request: $100.00.")).toBeVisible();
  await expect(requestsTable(page).getByRole("row").filter({ hasText: "Canceled" })).toHaveCount(1);
});

test("an administrator pays one request and rejects another; the member's open page is told live", async ({ page, app, browser, browserErrors }) => {
  // The member, with a bank account and a W-9, asks for two payouts and keeps their requests page open.
  browserErrors.allowStatus(400);
  browserErrors.allowStatus(403); // the authenticator code asked before paying
  const member = await browser.newContext();
  sendAppOrigin(member.request);
  browserErrors.watch(member);
  const memberPage = await member.newPage();
  const memberApp = new App(memberPage, true);
  const payee = await fundedPayee(memberApp, "80.00", "decide", memberPage);
  await setUpManualW9(memberPage, payee, "2468");
  const toPay = await requestPayoutNow(memberPage, payee, "30.00");
  const toReject = await requestPayoutNow(memberPage, payee, "20.00");
  await gotoLive(memberPage, `/member/${payee.id}/royalty-payment-requests`, memberChannel(payee.id), (path, p) => memberApp.goto(path, p));
  await expectCount(memberPage, 0);

  // The administrator (paying needs two-factor authentication) finds them in the queue by email.
  const admin = await twoFactorAdmin();
  await logInTwoFactorAdmin(page, admin);
  await app.goto("/admin/royalty-payment-requests");
  await expect(page.getByRole("heading", { level: 1, name: "Royalty Payment Requests" })).toBeVisible();
  await page.getByLabel("Member name or email").fill(payee.email);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=/);
  const cards = page.getByRole("article");
  await expect(cards).toHaveCount(2);
  const payCard = page.getByRole("article", { name: `Request #${toPay}: $30.00 for ${payee.name}` });
  await expect(payCard).toContainText("••••\u00a02468");
  await expect(payCard).toContainText("W-9 (US)");

  // Pay: a reference too short first, beside the field; then a good one.
  const payForm = payCard.getByRole("form", { name: `Pay request #${toPay}` });
  await payForm.getByLabel("Transfer reference").fill("x");
  await payForm.getByRole("button", { name: "Approve and mark as paid" }).click();
  // Paying needs a current authenticator code (decision 020): asked once, then good for 5 minutes.
  await confirmWithCode(page, admin);
  await expect(payForm.getByText("Enter the transfer's reference (3 to 120 characters).")).toBeVisible();
  await expect(payForm.getByLabel("Transfer reference")).toHaveAttribute("aria-invalid", "true");
  const reference = `TRF-${unique()}`;
  await payForm.getByLabel("Transfer reference").fill(reference);
  await payForm.getByRole("button", { name: "Approve and mark as paid" }).click();
  await expect(flash(page)).toHaveText(`Request #${toPay} is paid: $30.00 sent (reference ${reference}). The member was notified.`);
  // The filter (pending) no longer lists it.
  await expect(cards).toHaveCount(1);

  // Reject: no reason first, then a reason.
  const rejectForm = page.getByRole("form", { name: `Reject request #${toReject}` });
  await rejectForm.getByRole("button", { name: "Reject" }).click();
  await expect(rejectForm.getByText("Give the member a reason (3 to 500 characters).")).toBeVisible();
  await rejectForm.getByLabel("Reason for rejecting").fill("The account holder does not match");
  await rejectForm.getByRole("button", { name: "Reject" }).click();
  await expect(flash(page)).toHaveText(`Request #${toReject} is rejected and its amount released. The member was notified.`);
  await expect(page.getByText("No payout requests match these filters.")).toBeVisible();

  // All statuses: both, with what happened.
  await page.getByLabel("Status").selectOption("all");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("article", { name: `Request #${toPay}: $30.00 for ${payee.name}` })).toContainText(`Transfer reference: ${reference}`);
  await expect(page.getByRole("article", { name: `Request #${toReject}: $20.00 for ${payee.name}` })).toContainText(
    "Rejected: The account holder does not match",
  );

  // The member's page heard both, without a reload.
  await expectCount(memberPage, 2);
  await openBell(memberPage);
  await expect(item(memberPage, `Your payout request #${toPay} was paid: $30.00 sent by bank transfer (reference ${reference}).`)).toBeVisible();
  await expect(
    item(memberPage, `Your payout request #${toReject} for $20.00 was rejected: The account holder does not match. The amount is available again.`),
  ).toBeVisible();
  await expect(bell(memberPage)).toHaveAttribute("open", "");
  await memberPage.reload();
  await expect(requestRow(memberPage, toPay)).toContainText("Paid");
  await expect(requestRow(memberPage, toPay)).toContainText(`Ref. ${reference}`);
  await expect(requestRow(memberPage, toReject)).toContainText("The account holder does not match");
  await expect(memberPage.getByText("Available to request: $50.00.")).toBeVisible();
  await member.close();
});

test("the guards: admin pages send members away, another member's pages and ids answer 404, admins see a member's payouts read-only", async ({
  page,
  app,
  browserErrors,
}) => {
  const payee = await fundedPayee(app, "40.00", "guard");
  await setUpManualW9(page, payee, "1357");
  const requestId = await requestPayoutNow(page, payee, "15.00");

  for (const path of ["/admin/royalty-payment-requests", "/admin/payment-accounts"]) {
    await app.goto(path);
    await expect(page).toHaveURL(`/member/${payee.id}/dashboard`);
  }
  const queuePost = await page.request.post("/admin/royalty-payment-requests", {
    form: { intent: "pay", requestId: String(requestId), reference: "TRF-STOLEN" },
    maxRedirects: 0,
  });
  expect(queuePost.status()).toBe(302);

  // Mia's pages are not theirs; Mia's id in their forms is 404 and changes nothing.
  browserErrors.allowStatus(404);
  for (const path of [`/member/${DEMO_IDS.member}/payouts-provider`, `/member/${DEMO_IDS.member}/royalty-payment-requests`]) {
    const response = await app.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  const foreign = await page.request.post(`/member/${DEMO_IDS.member}/payouts-provider`, {
    form: { intent: "bank", country: "GB", accountHolder: "Not Mia", accountNumber: "GB29NWBK60161331926819" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(404);

  // Someone else cancelling this member's request: 404, still pending.
  await app.dropSession();
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  const cancel = await page.request.post(`/member/${DEMO_IDS.member}/royalty-payment-requests`, {
    form: { intent: "cancel", requestId: String(requestId) },
    maxRedirects: 0,
  });
  expect(cancel.status()).toBe(404);
  const own = await page.request.post(`/member/${payee.id}/royalty-payment-requests`, {
    form: { intent: "cancel", requestId: String(requestId) },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(404);

  // The administrator: the member's payouts page without its forms; payment accounts with the last 4 only.
  await app.dropSession();
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/member/${payee.id}/payouts-provider`);
  await expect(page.getByTestId("payout-method")).toHaveText("Manual bank transfer, account ending 1357 (US)");
  await expect(page.getByText("Only the member can change how they are paid and their tax status.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Manual bank transfer" })).toHaveCount(0);
  await app.goto("/admin/payment-accounts");
  await page.getByLabel("Member name or email").fill(payee.email);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row").filter({ hasText: payee.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Bank transfer ••••\u00a01357 (US)");
  await expect(row).toContainText("W-9 (US), TIN ••••\u00a01357");
  await expect(row).toContainText("0%");
  await expect(page.getByText("000123451357")).toHaveCount(0);
  // An administrator without two-factor authentication may not pay (403, told how to turn it on) ...
  await app.goto(`/admin/royalty-payment-requests?q=${encodeURIComponent(payee.email)}`);
  await expect(page.getByTestId("two-factor-required")).toContainText("needs two-factor authentication");
  await expect(page.getByTestId("two-factor-required").getByRole("link", { name: "Turn on two-factor authentication" })).toHaveAttribute(
    "href",
    `/member/${DEMO_IDS.admin}/profile#two-factor`,
  );
  const refused = await page.request.post("/admin/royalty-payment-requests", {
    form: { intent: "pay", requestId: String(requestId), reference: "TRF-NO-2FA" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(403);
  // ... so the request is still pending in the queue; for one with two-factor, a made-up id is 404.
  await app.goto(`/admin/royalty-payment-requests?q=${encodeURIComponent(payee.email)}`);
  await expect(page.getByRole("article", { name: `Request #${requestId}: $15.00 for ${payee.name}` })).toContainText("Pending");
  await app.dropSession();
  const admin = await twoFactorAdmin();
  await logInTwoFactorAdmin(page, admin);
  const missing = await page.request.post("/admin/royalty-payment-requests", {
    form: { intent: "pay", requestId: "2147483000", reference: "TRF-NONE", confirmCode: await nextCode(admin) },
    maxRedirects: 0,
  });
  expect(missing.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the payouts forms, the request form's preview and the admin's pay form answer beside the field and work", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    browserErrors.allowStatus(403); // the "Confirm it is you" form
    const payee = await fundedPayee(app, "60.00", "nojs");
    await app.goto(`/member/${payee.id}/payouts-provider`);
    const bank = page.getByRole("form", { name: "Manual bank transfer" });
    await bank.getByLabel("Country of tax residence").fill("US");
    await bank.getByLabel("Account number or IBAN").fill("00012345");
    await bank.getByRole("button", { name: "Save bank details" }).click();
    await expect(bank.getByText("Enter the account holder's name.")).toBeVisible();
    await expect(bank.getByLabel("Account number or IBAN")).toHaveValue("00012345");
    await bank.getByLabel("Account holder").fill(payee.name);
    await bank.getByRole("button", { name: "Save bank details" }).click();
    await confirmWithPassword(page, payee.password);
    await expect(flash(page)).toHaveText("You are paid by bank transfer to the account ending 2345.");

    const tax = page.getByRole("form", { name: "Tax status" });
    await tax.getByLabel("Legal name").fill(payee.name);
    await tax.getByLabel("Country").fill("US");
    await tax.getByLabel("Taxpayer identification number").fill("12");
    await tax.getByRole("button", { name: "Sign and save tax form" }).click();
    await expect(tax.getByText("Choose a W-9 (US persons) or a W-8 (everyone else).")).toBeVisible();
    await tax.getByLabel("W-9: I am a US person (citizen or resident)").check();
    await tax.getByRole("button", { name: "Sign and save tax form" }).click();
    await expect(tax.getByText("Enter your taxpayer identification number (it ends in 4 digits).")).toBeVisible();
    await expect(tax.getByLabel("Legal name")).toHaveValue(payee.name);
    await tax.getByLabel("Taxpayer identification number").fill("123456789");
    await tax.getByRole("button", { name: "Sign and save tax form" }).click();
    await expect(flash(page)).toHaveText("Your W-9 is recorded (TIN ending 6789).");

    await app.goto(`/member/${payee.id}/royalty-payment-requests`);
    await page.getByLabel("Amount (USD)").fill("60.01");
    await page.getByRole("button", { name: "Request payout" }).click();
    await expect(page.getByText("You can request at most $60.00, your available balance.")).toBeVisible();
    await page.getByLabel("Amount (USD)").fill("40");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByLabel("Payout preview")).toContainText("You receive$40.00");
    await expect(page.getByText("No payout requests yet.")).toBeVisible();
    await page.getByRole("button", { name: "Request payout" }).click();
    await expect(flash(page)).toContainText("for $40.00 is pending; the amount is reserved.");
    const { data } = (await (await page.request.get(`/api/members/${payee.id}/royalties-report/payments`)).json()) as { data: Array<{ id: number }> };
    const requestId = data[0]!.id;

    await app.dropSession();
    const admin = await twoFactorAdmin();
    await logInTwoFactorAdmin(page, admin);
    await app.goto(`/admin/royalty-payment-requests?q=${encodeURIComponent(payee.email)}`);
    const payForm = page.getByRole("form", { name: `Pay request #${requestId}` });
    await payForm.getByRole("button", { name: "Approve and mark as paid" }).click();
    await expect(
      page.getByRole("form", { name: `Pay request #${requestId}` }).getByText("Enter the transfer's reference (3 to 120 characters)."),
    ).toBeVisible();
    const reference = `NOJS-${unique()}`;
    await page
      .getByRole("form", { name: `Pay request #${requestId}` })
      .getByLabel("Transfer reference")
      .fill(reference);
    await page
      .getByRole("form", { name: `Pay request #${requestId}` })
      .getByRole("button", { name: "Approve and mark as paid" })
      .click();
    await confirmWithCode(page, admin);
    await expect(flash(page)).toHaveText(`Request #${requestId} is paid: $40.00 sent (reference ${reference}). The member was notified.`);
  });
});
