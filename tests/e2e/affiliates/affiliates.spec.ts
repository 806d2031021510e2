import type { Page } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { confirmWithCode, logInTwoFactorAdmin, twoFactorAdmin } from "../payouts/helpers";
import { expect as baseExpect, newUserData, test, type FreshUser } from "../support/test";
import { AFF, AFF_CODES, AFF_ISRC, AFF_PASSWORD, AFF_SONG } from "./affiliate-accounts";

/**
 * Affiliates: signing up (a new visitor, an existing member), an administrator's decisions,
 * a registration through referral links (the first touch wins), an import that earns the affiliate its
 * commission, the affiliate dashboard against the ledger, guards and bad input. Accounts: affiliate-accounts.ts.
 */
test.describe.configure({ timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

async function fillAccount(page: Page, user: FreshUser) {
  await page.getByLabel("First name").fill(user.name);
  await page.getByLabel("Last name").fill(user.lastName);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Repeat password").fill(user.password);
}

/** The logged-in member's affiliate page, through the member menu's Affiliate entry. */
async function openOwnAffiliate(page: Page, app: { goto: (path: string) => Promise<unknown>; hydrated: () => Promise<void> }, memberLocation: string) {
  await app.goto(memberLocation);
  const entry = page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true });
  await expect(entry).toHaveAttribute("href", /^\/member\/\d+\/affiliate\/\d+$/);
  const href = (await entry.getAttribute("href"))!;
  await app.goto(href);
  await expect(page.getByRole("heading", { level: 1, name: "Affiliate" })).toBeVisible();
  const [, memberId, affiliateId] = /^\/member\/(\d+)\/affiliate\/(\d+)$/.exec(href)!;
  return { href, memberId: Number(memberId), affiliateId: Number(affiliateId) };
}

/** A figure's value (the card's second paragraph) by its label. */
const figure = (page: Page, label: string) =>
  page
    .getByRole("group", { name: "Affiliate figures" })
    .locator("div", { has: page.getByText(label, { exact: true }) })
    .last()
    .locator("p")
    .nth(1);

test("a new visitor signs up as an affiliate: bad input beside the fields, values kept, then pending for the administrator", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(400);
  const response = await app.goto("/register/affiliate");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Become an Affiliate | Backline");
  // The rate is told before applying, not only once approved.
  await expect(page.getByTestId("affiliate-terms")).toContainText("You earn 20% of the platform commission");
  const user = newUserData("affiliate");
  await fillAccount(page, user);
  await page.getByLabel("Your website or audience").fill("short");
  await page.getByRole("button", { name: "Create account and apply" }).click();
  await expect(page.getByLabel("Your website or audience")).toHaveAccessibleDescription(/at least 10 characters/);
  await expect(page.getByLabel("Payout method")).toHaveAccessibleDescription(/Choose how you want to be paid/);
  await expect(page.getByLabel("Email")).toHaveValue(user.email);
  await page.getByLabel("Your website or audience").fill("A newsletter for 5,000 bedroom producers");
  await page.getByLabel("Payout method").selectOption("stripe");
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create account and apply" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toContainText(`Almost there: we sent a message to ${user.email}.`);

  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/admin/affiliates?q=${encodeURIComponent(user.email)}`);
  const row = page.getByRole("row", { name: new RegExp(user.email.replace(/[.]/g, "\\.")) });
  await expect(row).toContainText("Pending approval");
  await expect(row).toContainText("Test User");
});

test("an existing member applies with their own account and finds the Affiliate entry in their menu", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const home = await app.logInQuickly(AFF.applicant, AFF_PASSWORD);
  await app.goto(home);
  await expect(page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true })).toHaveCount(0);
  await app.goto("/register/affiliate");
  await expect(page.getByRole("heading", { name: "Become an affiliate" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveCount(0);
  await page.getByLabel("Payout method").selectOption("manual");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByLabel("Your website or audience")).toHaveAccessibleDescription(/Describe your website or audience/);
  await expect(page.getByLabel("Payout method")).toHaveValue("manual");
  await page.getByLabel("Your website or audience").fill("My label's Instagram, 12,000 followers");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/member\/\d+\/affiliate\/\d+$/);
  await expect(flash(page)).toContainText("Your application is sent");
  await expect(page.getByText("Your application is waiting for an administrator.")).toBeVisible();
  await expect(page).toHaveTitle(/^Abe Applicant \| Affiliate \| Backline$/);
  const own = new URL(page.url()).pathname;
  await expect(page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true })).toHaveAttribute("href", own);
  // Applying again leads to the application.
  await app.goto("/register/affiliate");
  await expect(page).toHaveURL(own);
});

test("an administrator approves, sets the rate, suspends and rejects with a reason; bad input stays beside the field; approving needs two-factor", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(400);
  browserErrors.allowStatus(403); // approving without two-factor
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Affiliates" }).click();
  await expect(page).toHaveURL("/admin/affiliates");
  await expect(page).toHaveTitle("Affiliates | Admin Area | Backline");
  await expect(page.getByRole("heading", { level: 1, name: "Affiliates" })).toBeVisible();

  await app.goto(`/admin/affiliates?status=pending_approval&q=${encodeURIComponent(AFF.toApprove)}`);
  await page.getByRole("link", { name: /Penny Pending/ }).click();
  await expect(page).toHaveURL(/\/admin\/affiliate\/\d+$/);
  await expect(page).toHaveTitle(/^Affiliate #\d+ \| Affiliate \| Admin Area \| Backline$/);
  // The demo administrator has no two-factor: approving (and the rate) move money, so they are refused.
  const notice = page.getByTestId("two-factor-required");
  await expect(notice).toContainText("Approving affiliates and changing their commission rate needs two-factor authentication");
  await expect(notice.getByRole("link", { name: "Turn on two-factor authentication" })).toHaveAttribute("href", `/member/${DEMO_IDS.admin}/profile#two-factor`);
  await app.hydrated();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.locator("#affiliate-approve").getByRole("alert")).toContainText("needs two-factor authentication");
  await expect(page.getByLabel("Affiliate application", { exact: true })).toContainText("Given at approval");
  const affiliatePath = new URL(page.url()).pathname;

  // An administrator with two-factor on approves.
  await app.dropSession();
  const admin = await twoFactorAdmin();
  await logInTwoFactorAdmin(page, admin);
  await app.goto(affiliatePath);
  await expect(page.getByTestId("two-factor-required")).toHaveCount(0);
  await app.hydrated();
  await page.getByRole("button", { name: "Approve" }).click();
  await confirmWithCode(page, admin);
  await expect(flash(page)).toContainText("The affiliate is approved");
  await expect(page.getByLabel("Affiliate application", { exact: true })).toContainText(/Code\s*[A-Z2-9]{8}/);
  await expect(page.getByText(/\/register\?ref=[A-Z2-9]{8}/)).toBeVisible();

  await app.hydrated();
  await page.getByLabel("Commission rate (basis points)").fill("20000");
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(page.getByLabel("Commission rate (basis points)")).toHaveAccessibleDescription(/whole number from 0 to 10000/);
  await page.getByLabel("Commission rate (basis points)").fill("1500");
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(flash(page)).toContainText("The commission rate is saved");
  await expect(page.getByLabel("Affiliate application", { exact: true })).toContainText("15% of the platform commission (1500 basis points)");

  await app.hydrated();
  await page.getByRole("button", { name: "Suspend" }).click();
  await expect(page.getByLabel("Reason for suspending")).toHaveAccessibleDescription(/Give a reason/);
  await page.getByLabel("Reason for suspending").fill("Links placed on a spam site");
  await page.getByRole("button", { name: "Suspend" }).click();
  await expect(flash(page)).toContainText("The affiliate is suspended");
  await expect(page.getByRole("button", { name: "Reinstate" })).toBeVisible();

  await app.goto(`/admin/affiliates?q=${encodeURIComponent(AFF.toReject)}`);
  await page.getByRole("link", { name: /Rex Rejected/ }).click();
  await app.hydrated();
  await page.getByLabel("Reason for rejecting").fill("Your audience is not about music");
  await page.getByRole("button", { name: "Reject" }).click();
  await expect(flash(page)).toContainText("The application is rejected");
  await expect(page.getByLabel("Affiliate application", { exact: true })).toContainText("Your audience is not about music");
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
});

test("a visitor following two affiliates' links registers: the first touch wins, clicks are counted, the cookie is first-party and HttpOnly", async ({
  page,
  app,
  browser,
}) => {
  // An unknown code sets nothing.
  await app.goto("/register?ref=NOSUCHCODE");
  expect((await page.context().cookies()).find((c) => c.name === "backline_ref")).toBeUndefined();
  await app.goto(`/legal-terms?ref=${AFF_CODES.first}`);
  const cookie = (await page.context().cookies()).find((c) => c.name === "backline_ref");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(59 * 86_400_000);
  await app.goto(`/register?ref=${AFF_CODES.second}`);
  const user = newUserData("referred");
  await fillAccount(page, user);
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL("/login");

  for (const [email, signUps] of [
    [AFF.first, "1"],
    [AFF.second, "0"],
  ] as const) {
    const context = await browser.newContext();
    const other = await context.newPage();
    const location = (await other.request.post("/login", { form: { email, password: AFF_PASSWORD, redirect: "" }, maxRedirects: 0 })).headers()["location"]!;
    await other.goto(location);
    const entry = other.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true });
    await other.goto((await entry.getAttribute("href"))!);
    await expect(figure(other, "Sign-ups")).toHaveText(signUps);
    await expect(figure(other, "Clicks")).toHaveText("1");
    await expect(other.getByLabel("Sign-up link", { exact: true })).toHaveValue(
      new RegExp(`/register\\?ref=${email === AFF.first ? AFF_CODES.first : AFF_CODES.second}$`),
    );
    await expect(other.getByRole("link", { name: "Share on Facebook" })).toBeVisible();
    await context.close();
  }
});

test("an import of the referred member's income earns the affiliate its rate, and the dashboard agrees with the ledger", async ({ page, app }) => {
  const id = `E2E-AFF-${Date.now()}`;
  const header =
    "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
  const line = `${id},2026-10-15,2026-09,2026-09,Spotify,Premium,stream,track,US,Affiliate Test Band,,,${AFF_SONG},${AFF_ISRC},100,0.1,USD,10.00,10.00,USD,`;
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/upload-sales");
  await page.getByLabel("Kind").selectOption("digital");
  await page.locator("#field-file").setInputFiles({ name: `${id}.csv`, mimeType: "text/csv", buffer: Buffer.from(`${header}\n${line}\n`) });
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page).toHaveURL(/\/admin\/upload-sales\/\d+$/, { timeout: 30_000 });
  const importId = Number(page.url().split("/").pop());
  await expect(page.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("✓ balances")).toBeVisible();

  await app.dropSession();
  const home = await app.logInQuickly(AFF.earner, AFF_PASSWORD);
  const own = await openOwnAffiliate(page, app, home);
  // 10.00 earns the platform 1.00 (10 %); the affiliate's 25 % of it is 0.25.
  const lines = page.getByRole("table", { name: "Commissions, line by line" });
  const row = lines.getByRole("row", { name: new RegExp(`Import #${importId}, line 2`) });
  await expect(row).toContainText("Rhea Referred");
  await expect(row).toContainText("$1.000000");
  await expect(row).toContainText("25%");
  await expect(row).toContainText("$0.250000");
  const income = await (await page.request.get(`/api/members/${own.memberId}/royalties-report/income`)).json();
  expect(income.data.by_source.affiliate).toBe("0.250000");
  await expect(figure(page, "Commissions earned")).toHaveText("$0.25");
  await expect(page.getByRole("group", { name: "Affiliate figures" }).locator("[data-exact]")).toHaveAttribute("data-exact", income.data.by_source.affiliate);
  await expect(figure(page, "Active referrals")).toHaveText("1");
  await expect(page.getByRole("img", { name: "Commissions by month" })).toBeVisible();
  // Income & Shares shows it as Affiliate income.
  await app.goto(`/member/${own.memberId}/member-income`);
  await expect(page.getByRole("main")).toContainText("Affiliate");
});

test("guards: visitors and members never reach the admin pages; a member never sees another's affiliate page (404)", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.goto("/admin/affiliates");
  await expect(page).toHaveURL(/\/login/);
  await app.goto("/member/1/affiliate/1");
  await expect(page).toHaveURL(/\/login/);

  const home = await app.logInQuickly(AFF.earner, AFF_PASSWORD);
  const own = await openOwnAffiliate(page, app, home);
  await app.goto("/admin/affiliates");
  await expect(page).toHaveURL(/\/login|\/member\//);
  await app.goto(`/admin/affiliate/${own.affiliateId}`);
  await expect(page).toHaveURL(/\/login|\/member\//);

  await app.dropSession();
  const strangerHome = await app.logInQuickly(AFF.stranger, AFF_PASSWORD);
  await app.goto(strangerHome);
  const strangerId = Number(/\/member\/(\d+)\//.exec(page.url())![1]);
  for (const path of [
    own.href,
    `/member/${strangerId}/affiliate/${own.affiliateId}`,
    `/member/${strangerId}/affiliate/abc`,
    `/member/${strangerId}/affiliate/99999999999`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  await app.dropSession();
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  for (const path of ["/admin/affiliate/999999", "/admin/affiliate/abc"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  // An administrator may open the member's affiliate page in the member's area.
  const response = await page.goto(own.href);
  expect(response?.status()).toBe(200);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a member applies and an administrator rejects with plain form posts; errors beside the fields, values kept", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await app.logInQuickly(AFF.noJs, AFF_PASSWORD);
    await app.goto("/register/affiliate");
    await page.getByLabel("Your website or audience").fill("tiny");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByLabel("Your website or audience")).toHaveAccessibleDescription(/at least 10 characters/);
    await expect(page.getByLabel("Your website or audience")).toHaveValue("tiny");
    await expect(page.getByLabel("Payout method")).toHaveAccessibleDescription(/Choose how you want to be paid/);
    await page.getByLabel("Your website or audience").fill("A Discord server of 800 guitarists");
    await page.getByLabel("Payout method").selectOption("stripe");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/\/member\/\d+\/affiliate\/\d+$/);
    await expect(page.getByText("Your application is waiting for an administrator.")).toBeVisible();

    await app.dropSession();
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await app.goto(`/admin/affiliates?q=${encodeURIComponent(AFF.noJsReject)}`);
    await page.getByRole("link", { name: /Ned Plainform/ }).click();
    await page.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByLabel("Reason for rejecting")).toHaveAccessibleDescription(/Give a reason/);
    await page.getByLabel("Reason for rejecting").fill("Too small an audience for now");
    await page.getByRole("button", { name: "Reject" }).click();
    await expect(flash(page)).toContainText("The application is rejected");
    await expect(page.getByLabel("Affiliate application", { exact: true })).toContainText("Too small an audience for now");
  });
});
