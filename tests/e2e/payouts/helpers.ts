import crypto from "node:crypto";
import { generate } from "otplib";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { actionLink, waitForMail } from "../support/outbox";
import { pathOf } from "../support/signed-links";
import { expect, sendAppOrigin, uniqueEmail, type App } from "../support/test";

/**
 * Helpers for the payouts specs. The demo members' balances are shared by every spec (other specs
 * upload statements that pay Mia), so each payout test makes its own member and gives them a balance of its
 * own: an administrator creates the account (no registration limit), the member activates it through the
 * emailed link and agrees to the documents, and a PRO statement with an IPI no one else uses lands in
 * suspense and is matched to that member (a PRO line pays its member in full, no commission).
 */

const PRO_HEADER =
  "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator";

export const unique = () => `${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}`;

export interface Payee {
  id: number;
  email: string;
  password: string;
  name: string;
}

async function newApi(): Promise<APIRequestContext> {
  return sendAppOrigin(await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL }));
}

/** An API context signed in as the demo administrator (the caller disposes of it). */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await newApi();
  const response = await api.post("/login", { form: { email: DEMO.admin, password: DEMO_PASSWORD, redirect: "" }, maxRedirects: 0 });
  expect(response.status(), "admin login").toBe(302);
  return api;
}

/** A fresh, active member created by the administrator, with a password; not yet agreed to the documents. */
export async function createPayee(
  admin: APIRequestContext,
  label = "payee",
  kind: { acctType: string; roleId: string } = { acctType: "1", roleId: "5" },
): Promise<Payee> {
  const email = uniqueEmail(`payouts-${label}`);
  const lastName = `Payee ${unique()}`;
  const created = await admin.post("/admin/members", { form: { name: "Pat", lastName, email, ...kind }, maxRedirects: 0 });
  expect(created.status(), await created.text()).toBe(302);
  const id = Number(/^\/admin\/member\/(\d+)$/.exec(created.headers()["location"] ?? "")?.[1]);
  expect(id, created.headers()["location"]).toBeGreaterThan(0);
  const mail = await waitForMail(email, { subject: /^Activate your Backline account$/ });
  const password = `pw-${crypto.randomBytes(6).toString("hex")}`;
  const anonymous = await newApi();
  const activated = await anonymous.post(pathOf(actionLink(mail)), { form: { password, passwordConfirmation: password }, maxRedirects: 0 });
  expect(activated.status(), "activation").toBe(302);
  await anonymous.dispose();
  return { id, email, password, name: `Pat ${lastName}` };
}

/** Gives the member `amount` (a decimal string such as "100.00") through a PRO statement matched to them. */
export async function fund(admin: APIRequestContext, payee: Payee, amount: string) {
  const id = unique();
  const ipi = `9${String(crypto.randomInt(0, 1e9)).padStart(9, "0")}${crypto.randomInt(0, 10)}`;
  const line = `E2E-PAYOUT-${id},2031-03-31,${payee.name},${ipi},Writer,Payout Song ${id},,Radio,US,2031-01-01,2031-03-31,10,100,${amount},USD,,`;
  const response = await admin.post("/admin/upload-sales?index", {
    multipart: { kind: "pro", exchange_rate: "", file: { name: `payouts-${id}.csv`, mimeType: "text/csv", buffer: Buffer.from(`${PRO_HEADER}\n${line}\n`) } },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const importPath = response.headers()["location"] ?? "";
  const importId = Number(/^\/admin\/upload-sales\/(\d+)$/.exec(importPath)?.[1]);
  expect(importId, importPath).toBeGreaterThan(0);
  await expect.poll(async () => (await (await admin.get(`/api/admin/sales-imports/${importId}`)).json()).data.status, { timeout: 60_000 }).toBe("completed");
  const html = await (await admin.get(importPath)).text();
  const lineId = /name="line" value="(\d+)"/.exec(html)?.[1];
  expect(lineId, "the unmatched line's match form").toBeTruthy();
  const matched = await admin.post(importPath, { form: { intent: "match", line: lineId!, member: String(payee.id) }, maxRedirects: 0 });
  expect(matched.status(), await matched.text()).toBe(302);
  // The match runs as a background job: the money is the member's once it has moved the line out of suspense.
  await expect.poll(async () => (await (await admin.get(`/api/admin/sales-imports/${importId}`)).json()).data.unmatched, { timeout: 60_000 }).toBe(0);
}

/** Logs the payee in on `page` (no JavaScript needed) and agrees to the documents; lands on their dashboard. */
export async function logInPayee(app: App, payee: Payee, page: Page = app.page) {
  await app.logInQuickly(payee.email, payee.password, { page });
  await app.goto("/login", page);
  await page.getByRole("button", { name: "I agree" }).click();
  await expect(page).toHaveURL(`/member/${payee.id}/dashboard`);
}

/** A fresh member with `amount` to request, signed in on `page`. */
export async function fundedPayee(app: App, amount: string, label = "payee", page: Page = app.page): Promise<Payee> {
  const admin = await adminApi();
  try {
    const payee = await createPayee(admin, label);
    await fund(admin, payee, amount);
    await logInPayee(app, payee, page);
    return payee;
  } finally {
    await admin.dispose();
  }
}

/** Sets up the manual method and a W-9 through the page's forms as a browser without JavaScript posts them. */
export async function setUpManualW9(page: Page, payee: Payee, last4 = "6789") {
  const path = `/member/${payee.id}/payouts-provider`;
  const bank = await page.request.post(path, {
    // confirmPassword: the fresh confirmation payout changes need (used only when the session has none yet).
    form: {
      intent: "bank",
      country: "US",
      accountHolder: payee.name,
      bankName: "First E2E Bank",
      accountNumber: `00012345${last4}`,
      routingCode: "021000021",
      confirmPassword: payee.password,
    },
    maxRedirects: 0,
  });
  expect(bank.status()).toBe(302);
  const tax = await page.request.post(path, {
    form: { intent: "tax", form: "w9", legalName: payee.name, country: "US", tin: `123-45-${last4}`, confirmPassword: payee.password },
    maxRedirects: 0,
  });
  expect(tax.status()).toBe(302);
}

/** Requests a payout as the signed-in member (the form's POST); returns the request's id from the payments API. */
export async function requestPayoutNow(page: Page, payee: Payee, amount: string): Promise<number> {
  const response = await page.request.post(`/member/${payee.id}/royalty-payment-requests`, {
    form: { intent: "request", amount, confirmPassword: payee.password },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const { data } = (await (await page.request.get(`/api/members/${payee.id}/royalties-report/payments`)).json()) as {
    data: Array<{ id: number; amount: string; status: string }>;
  };
  return data[0]!.id;
}

export const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

export interface TwoFactorAdmin extends Payee {
  recovery: string[];
  /** The authenticator key, for the codes money decisions need (decision 020). */
  secret: string;
  /** The last 30-second step whose code was used: a code is accepted once, so the next one is a later step. */
  lastStep: number;
}

/**
 * A current authenticator code not used yet: the present step's, or, when that one was used, the next step's
 * (accepted a step early), so no test waits for the clock.
 */
export async function nextCode(admin: TwoFactorAdmin): Promise<string> {
  const step = Math.max(Math.floor(Date.now() / 1000 / 30), admin.lastStep + 1);
  if (step > Math.floor(Date.now() / 1000 / 30) + 1) await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 100));
  admin.lastStep = step;
  return generate({ secret: admin.secret, epoch: step * 30 });
}

/** Answers the confirm form an administrator's money decision shows (a current code, decision 020). */
export async function confirmWithCode(page: Page, admin: TwoFactorAdmin) {
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await expect(page.getByText("money decisions need a current code")).toBeVisible();
  await page.getByLabel("Authentication code").fill(await nextCode(admin));
  await page.getByRole("button", { name: "Confirm and continue" }).click();
}

/**
 * A fresh administrator with two-factor on (paying and rejecting payouts need it), set up through the
 * Account page's forms; the demo administrator stays without it so other suites log in with a password alone.
 * Logs in with its recovery codes (each once), so no test waits for a new TOTP step.
 */
export async function twoFactorAdmin(): Promise<TwoFactorAdmin> {
  const demo = await adminApi();
  const admin = await createPayee(demo, "admin", { acctType: "2", roleId: "2" });
  await demo.dispose();
  const api = await newApi();
  try {
    expect((await api.post("/login", { form: { email: admin.email, password: admin.password, redirect: "" }, maxRedirects: 0 })).status()).toBe(302);
    const agreement = await (await api.get("/login")).text();
    const documentIds = [...agreement.matchAll(/name="documentId" value="(\d+)"/g)].map((m) => m[1]!);
    const form = new URLSearchParams([["intent", "agree"], ["redirect", ""], ...documentIds.map((id) => ["documentId", id] as [string, string])]);
    const agreed = await api.post("/login", { data: form.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 });
    expect(agreed.status(), "agree").toBe(302);
    const profile = `/member/${admin.id}/profile`;
    // Turning two-factor on needs the fresh confirmation (decision 020): the password, posted with the form.
    expect((await api.post(profile, { form: { intent: "tfa-start", confirmPassword: admin.password }, maxRedirects: 0 })).status()).toBe(302);
    const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(await (await api.get(profile)).text())?.[1];
    expect(secret, "the key shown on the Account page").toBeTruthy();
    // A code one step back, so the test's first money decision can use the current one.
    const code = await generate({ secret: secret!, epoch: Math.floor(Date.now() / 1000) - 30 });
    const confirmed = await api.post(profile, { form: { intent: "tfa-confirm", code }, maxRedirects: 0 });
    expect(confirmed.status()).toBe(200);
    const recovery = [...(await confirmed.text()).matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);
    expect(recovery).toHaveLength(10);
    return { ...admin, recovery, secret: secret!, lastStep: Math.floor(Date.now() / 1000 / 30) - 1 };
  } finally {
    await api.dispose();
  }
}

/** Logs the two-factor administrator in on `page`'s context: the password, then a recovery code (used up). */
export async function logInTwoFactorAdmin(page: Page, admin: TwoFactorAdmin) {
  const first = await page.request.post("/login", { form: { email: admin.email, password: admin.password, redirect: "" }, maxRedirects: 0 });
  expect(first.status()).toBe(302);
  expect(first.headers()["location"], "the second step").toBe("/login");
  const second = await page.request.post("/login", { form: { intent: "code", code: admin.recovery.shift()! }, maxRedirects: 0 });
  expect(second.status(), "the code step").toBe(302);
}

/** Answers the "Confirm it is you" form that payout changes show when the session has not confirmed lately. */
export async function confirmWithPassword(page: Page, password: string) {
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Confirm and continue" }).click();
}
