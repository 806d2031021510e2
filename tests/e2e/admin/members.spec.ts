import type { Page } from "@playwright/test";
import { BULK_COUNT, bulkMember, PENDING_RESEND, READY, READY_PASSWORD, readyName, UNVERIFIED_RESEND } from "../support/account-admin-accounts";
import { flash, otherBrowser, tryLogin } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { actionLink, mailsTo, waitForMail, expectNoMail } from "../support/outbox";
import { pathOf } from "../support/signed-links";
import { expect, test, uniqueEmail, type App } from "../support/test";

/**
 * Admin member management (app/routes/admin.members.tsx, admin.member.$id.tsx, admin-members*.ts, decision 008):
 * the list with search and pages, creating a member, and one member's page (access, suspension, resending links).
 */

const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;
const SUSPENDED = "This account is suspended. Please contact us if you think this is a mistake.";
const ACTIVATE_SUBJECT = /^Activate your Backline account$/;

const table = (page: Page) => page.getByRole("table");
/** Body rows only (the header row has column headers, not a row header). */
const bodyRows = (page: Page) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader") });
const rowNames = (page: Page) => table(page).getByRole("rowheader");
const pager = (page: Page) => page.getByRole("navigation", { name: "Member list pages" });
const createForm = (page: Page) => page.getByRole("form", { name: "Create member" });
const searchBox = (page: Page) => page.getByRole("search", { name: "Filter members" }).getByLabel("Search by name or email");

async function asAdmin(app: App) {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
}

async function search(page: Page, q: string) {
  await searchBox(page).fill(q);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  // A plain GET form: the empty filters come along.
  await expect(page).toHaveURL(`/admin/members?${new URLSearchParams({ q, type: "", status: "" })}`);
}

/** Finds a member through the list's search and opens their page; returns their id. */
async function openMember(page: Page, app: App, email: string, fullname: string): Promise<number> {
  await app.goto(`/admin/members?${new URLSearchParams({ q: email })}`);
  await expect(rowNames(page)).toHaveText([fullname]);
  await rowNames(page).getByRole("link", { name: fullname }).click();
  await expect(page).toHaveURL(/\/admin\/member\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: fullname })).toBeVisible();
  await app.hydrated();
  return Number(/\/admin\/member\/(\d+)$/.exec(page.url())![1]);
}

const statusTags = (page: Page) => page.getByRole("main").locator("header");

test.describe("guard", () => {
  test("without a session the list and a member page go to /login?redirect=", async ({ page, request }) => {
    await page.goto("/admin/members?q=ada");
    await expect(page).toHaveURL(loginFor("/admin/members?q=ada"));
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
    await page.goto(`/admin/member/${DEMO_IDS.member}`);
    await expect(page).toHaveURL(loginFor(`/admin/member/${DEMO_IDS.member}`));

    const post = await request.post("/admin/members", {
      form: { name: "No", lastName: "Session", email: uniqueEmail("nosession"), acctType: "1", roleId: "5" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(loginFor("/admin/members"));
  });

  test("a member is not allowed: the list and member pages end on their own dashboard, and creating does nothing", async ({ page, app }) => {
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    await page.goto("/admin/members");
    await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await page.goto(`/admin/member/${DEMO_IDS.admin}`);
    await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
    await expect(page.getByText(DEMO.admin)).toHaveCount(0);

    const email = uniqueEmail("by-member");
    const post = await page.request.post("/admin/members", {
      form: { name: "Sneaky", lastName: "Create", email, acctType: "2", roleId: "1" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/login");
    await expectNoMail(email);
  });
});

test("the list shows the demo members with their type, role and status", async ({ page, app }) => {
  await asAdmin(app);
  expect((await app.goto("/admin/members"))?.status()).toBe(200);
  await expect(page).toHaveTitle("Members | Admin Area | Backline");
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await expect(table(page)).toHaveAccessibleName(/^Members, page 1 of \d+$/);
  await expect(bodyRows(page)).toHaveCount(25);

  await search(page, "@example.com");
  const cells = (email: string) => bodyRows(page).filter({ hasText: email }).getByRole("cell");
  const joined = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
  await expect(rowNames(page)).toHaveText(["Paul Producer", "Noah Newcomer", "Mia Member", "Ada Admin"]);
  await expect(cells(DEMO.admin)).toHaveText([DEMO.admin, "Admin", "Super admin", "Active", joined], { useInnerText: true });
  await expect(cells(DEMO.member)).toHaveText([DEMO.member, "Member", "User", "Active", joined], { useInnerText: true });
  await expect(cells(DEMO.newcomer)).toHaveText([DEMO.newcomer, "Member", "User", "Active", joined], { useInnerText: true });
  await expect(cells(DEMO.producer)).toHaveText([DEMO.producer, "Member", "User", "Active", joined], { useInnerText: true });
  await expect(rowNames(page).getByRole("link", { name: "Mia Member" })).toHaveAttribute("href", `/admin/member/${DEMO_IDS.member}`);
});

test("search matches part of an email or a name, case-insensitively; no match offers to clear", async ({ page, app }) => {
  await asAdmin(app);
  await app.goto("/admin/members");

  await search(page, "member@exa");
  await expect(rowNames(page)).toHaveText(["Mia Member"]);
  await expect(table(page)).toHaveAccessibleName("Members matching the search, page 1 of 1");
  await expect(page.getByText(/^Showing 1–1 of 1 member$/)).toBeVisible();
  await expect(pager(page)).toHaveCount(0);
  // The field shows what the URL says.
  await expect(searchBox(page)).toHaveValue("member@exa");

  await search(page, "aDA adm");
  await expect(rowNames(page)).toHaveText(["Ada Admin"]);

  await search(page, "bulk listing 0");
  await expect(rowNames(page)).toHaveText(Array.from({ length: 9 }, (_, i) => bulkMember(9 - i).fullname));

  // % and _ match literally, not as wildcards.
  await search(page, "bulk_listing%");
  await expect(table(page)).toHaveCount(0);
  await expect(page.getByText("No members match this search.")).toBeVisible();
  await page.getByRole("link", { name: "clear the filters" }).click();
  await expect(page).toHaveURL("/admin/members");
  await expect(searchBox(page)).toHaveValue("");
  await expect(bodyRows(page)).toHaveCount(25);

  // The filters combine with the search.
  await app.goto("/admin/members?q=example.com&type=admin");
  await expect(rowNames(page).filter({ hasText: "Ada Admin" })).toHaveCount(1);
  await expect(rowNames(page).filter({ hasText: "Mia Member" })).toHaveCount(0);
});

test("pages of 25 with page links, aria-current and the search kept", async ({ page, app }) => {
  await asAdmin(app);
  await app.goto("/admin/members");
  // Unfiltered there are more than two pages already (demo, prepared and bulk accounts).
  await expect(pager(page).getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager(page).getByRole("link", { name: "Page 2", exact: true })).not.toHaveAttribute("aria-current");
  await expect(page.getByText(/^Showing 1–25 of \d+ members$/)).toBeVisible();

  await app.goto("/admin/members?q=bulk-listing");
  await expect(page.getByText(`Showing 1–25 of ${BULK_COUNT} members`)).toBeVisible();
  await expect(table(page)).toHaveAccessibleName("Members matching the search, page 1 of 2");
  await expect(rowNames(page)).toHaveText(Array.from({ length: 25 }, (_, i) => bulkMember(BULK_COUNT - i).fullname));
  await expect(pager(page).getByRole("link")).toHaveText(["1", "2", /Next/]);
  await expect(pager(page).getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager(page).getByRole("link", { name: "Page 2", exact: true })).toHaveAttribute("href", "/admin/members?q=bulk-listing&page=2");
  await expect(pager(page).locator('[aria-disabled="true"]')).toHaveText(/Previous/);

  await pager(page).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL("/admin/members?q=bulk-listing&page=2");
  await expect(rowNames(page)).toHaveText([5, 4, 3, 2, 1].map((n) => bulkMember(n).fullname));
  await expect(page.getByText(`Showing 26–30 of ${BULK_COUNT} members`)).toBeVisible();
  await expect(pager(page).getByRole("link", { name: "Page 2", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager(page).getByRole("link", { name: "Page 1", exact: true })).not.toHaveAttribute("aria-current");
  await expect(pager(page).locator('[aria-disabled="true"]')).toHaveText(/Next/);
  await expect(searchBox(page)).toHaveValue("bulk-listing");

  await pager(page).getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL("/admin/members?q=bulk-listing");
  await expect(rowNames(page).first()).toHaveText(bulkMember(BULK_COUNT).fullname);

  // A page past the end says so and links to the last one; a malformed page is page 1.
  await app.goto("/admin/members?q=bulk-listing&page=9");
  await expect(page.getByText("There is nothing on this page.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(page).toHaveURL("/admin/members?q=bulk-listing&page=2");
  await expect(bodyRows(page)).toHaveCount(5);
  expect((await app.goto("/admin/members?q=bulk-listing&page=abc"))?.status()).toBe(200);
  await expect(pager(page).getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(bodyRows(page)).toHaveCount(25);
});

test.describe("create member", () => {
  test("flash, the new member's page, an activation mail whose link sets a password, then they can log in", async ({ page, app, browser, browserErrors }) => {
    await asAdmin(app);
    await app.goto("/admin/members");
    await page.getByText("Create member", { exact: true }).click();
    const form = createForm(page);
    await expect(form).toBeVisible();
    await expect(form.getByLabel("Account type")).toHaveValue("1");
    await expect(form.getByLabel("Role")).toHaveValue("5");

    const email = uniqueEmail("created");
    await form.getByLabel("First name").fill("Cora");
    await form.getByLabel("Last name").fill("Created");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Create member and send activation link" }).click();

    await expect(page).toHaveURL(/\/admin\/member\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await expect(flash(page)).toHaveText(`Cora Created was created. We emailed an activation link to ${email}.`);
    await expect(page.getByRole("heading", { level: 1, name: "Cora Created" })).toBeVisible();
    await expect(page).toHaveTitle("Cora Created | Member | Admin Area | Backline");
    await expect(statusTags(page)).toContainText("Pending activation");
    await expect(statusTags(page)).toContainText("Member account");
    await expect(statusTags(page)).toContainText("Role: User");
    await expect(page.getByRole("button", { name: "Resend activation link" })).toBeVisible();

    const mail = await waitForMail(email, { subject: ACTIVATE_SUBJECT });
    expect(mail.text).toContain("Hello Cora,");
    expect(mail.text).toContain("Ada Admin created an account for you.");
    const link = actionLink(mail);
    expect(pathOf(link)).toMatch(/^\/activate-account\?token=[^&]+&expires=\d+&signature=[0-9a-f]{64}$/);
    // No password yet: nobody can log in.
    expect((await tryLogin(email, "cora-password-1")).status).toBe(400);

    const other = await otherBrowser(browser, browserErrors);
    await other.page.goto(pathOf(link));
    await app.hydrated(other.page);
    await other.page.getByLabel("New password", { exact: true }).fill("cora-password-1");
    await other.page.getByLabel("Repeat new password").fill("cora-password-1");
    await other.page.getByRole("button", { name: "Activate account" }).click();
    await expect(other.page).toHaveURL("/login");
    await expect(flash(other.page)).toHaveText("Your account is active. Log in with your new password.");
    await other.context.close();

    // Logged in (a fresh account has not agreed to the documents yet, so login lists them first).
    const login = await tryLogin(email, "cora-password-1");
    expect(login.status).toBe(302);
    expect(login.location).toBe(loginFor(`/member/${id}/dashboard`));

    await page.reload();
    await expect(statusTags(page)).toContainText("Active");
    await expect(page.getByText("Nothing to resend: the account is activated and its email address verified.")).toBeVisible();
  });

  test("bad input and a taken email address are refused beside the fields", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await asAdmin(app);
    await app.goto("/admin/members");
    await page.getByText("Create member", { exact: true }).click();
    const form = createForm(page);
    const submit = form.getByRole("button", { name: "Create member and send activation link" });

    await submit.click();
    await expect(form.getByLabel("First name")).toHaveAccessibleDescription("Enter the first name.");
    await expect(form.getByLabel("Last name")).toHaveAccessibleDescription("Enter the last name.");
    await expect(form.getByLabel("Email")).toHaveAccessibleDescription("Enter your email address.");

    await form.getByLabel("First name").fill("Dupe");
    await form.getByLabel("Last name").fill("Licate");
    await form.getByLabel("Email").fill("not-an-address");
    await submit.click();
    await expect(form.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");

    const noticesBefore = mailsTo(DEMO.member).length;
    await form.getByLabel("Email").fill("Member@Example.com");
    await submit.click();
    await expect(form.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Email")).toHaveAccessibleDescription("An account with this email address already exists.");
    await expect(page).toHaveURL("/admin/members");
    // The form stays open with what was typed.
    await expect(form.getByLabel("First name")).toHaveValue("Dupe");
    await expect(form.getByLabel("Email")).toHaveValue("Member@Example.com");
    await expectNoMail(DEMO.member, undefined, noticesBefore);
    await search(page, "Dupe Licate");
    await expect(page.getByText("No members match this search.")).toBeVisible();
  });
});

test.describe("a member's page", () => {
  test("a super admin changes account type and role; the member then has the admin area", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await asAdmin(app);
    const { fullname } = readyName("adminAccess");
    const id = await openMember(page, app, READY.adminAccess, fullname);
    await expect(page).toHaveTitle(`${fullname} | Member | Admin Area | Backline`);
    const access = page.getByRole("region", { name: "Access" });
    await expect(access.getByLabel("Account type")).toHaveValue("1");
    await expect(access.getByLabel("Role")).toHaveValue("5");
    // A super admin may grant every role.
    await expect(access.getByRole("option", { name: "Super admin" })).toBeEnabled();

    await access.getByLabel("Account type").selectOption({ label: "Admin" });
    await access.getByLabel("Role").selectOption({ label: "Manager" });
    await access.getByRole("button", { name: "Save access" }).click();
    await expect(flash(page)).toHaveText(`${fullname} now has an Admin account with the Manager role.`);
    await expect(statusTags(page)).toContainText("Admin account");
    await expect(statusTags(page)).toContainText("Role: Manager");
    await expect(access.getByLabel("Account type")).toHaveValue("2");
    await expect(access.getByLabel("Role")).toHaveValue("3");

    await access.getByRole("button", { name: "Save access" }).click();
    await expect(flash(page)).toHaveText(`Nothing changed: ${fullname} already has an Admin account with the Manager role.`);

    // The member now logs in to the admin area.
    const login = await tryLogin(READY.adminAccess, READY_PASSWORD);
    expect(login.location).toBe("/admin/dashboard");

    // An unknown action is refused beside the forms.
    const post = await page.request.post(`/admin/member/${id}`, { form: { intent: "delete-everything" }, maxRedirects: 0 });
    expect(post.status()).toBe(400);
    expect(await post.text()).toContain("This action is not available.");
  });

  test("an admin's own page explains they cannot demote or suspend themselves", async ({ page, app }) => {
    await asAdmin(app);
    await app.goto(`/admin/member/${DEMO_IDS.admin}`);
    await expect(page.getByText("(this is you)")).toBeVisible();
    const access = page.getByRole("region", { name: "Access" });
    await expect(access).toContainText("You cannot demote yourself: ask another administrator to change your access.");
    await expect(access.getByLabel("Account type")).toBeDisabled();
    await expect(access.getByRole("button", { name: "Save access" })).toBeDisabled();
    await expect(page.getByRole("main").getByRole("region", { name: "Account" })).toContainText("You cannot suspend your own account.");
    await expect(page.getByRole("button", { name: "Suspend account" })).toHaveCount(0);
  });

  test("suspending signs the member out everywhere and stops logins; reactivating lets them in again", async ({ page, app, browser, browserErrors }) => {
    // Two browsers, two logins and a dozen page loads: more than the default 30 s on a loaded 2-core machine.
    test.slow();
    browserErrors.allowStatus(403);
    const user = READY.adminSuspend;
    const { fullname } = readyName("adminSuspend");
    const member = await otherBrowser(browser, browserErrors);
    const location = await app.logInQuickly(user, READY_PASSWORD, { page: member.page });
    const dashboard = location;
    expect(dashboard).toMatch(/^\/member\/\d+\/dashboard$/);
    expect((await member.page.goto(dashboard))?.status()).toBe(200);

    await asAdmin(app);
    await openMember(page, app, user, fullname);
    await expect(statusTags(page)).toContainText("Active");
    await page.getByRole("button", { name: "Suspend account" }).click();
    await expect(flash(page)).toHaveText(`${fullname} is suspended and was signed out everywhere.`);
    await expect(statusTags(page)).toContainText("Suspended");
    await expect(page.getByText("The account is suspended: the member cannot log in.")).toBeVisible();

    // The member's open session is gone.
    await member.page.goto(dashboard);
    await expect(member.page).toHaveURL(loginFor(dashboard));
    // Logging in names the suspension.
    await app.hydrated(member.page);
    await member.page.getByLabel("Email").fill(user);
    await member.page.getByLabel("Password").fill(READY_PASSWORD);
    await member.page.getByRole("button", { name: "Log in" }).click();
    await expect(member.page.getByRole("alert")).toHaveText(SUSPENDED);
    await expect(member.page).toHaveURL(loginFor(dashboard));

    // The list agrees.
    await app.goto(`/admin/members?${new URLSearchParams({ q: user, status: "suspended" })}`);
    await expect(rowNames(page)).toHaveText([fullname]);
    await rowNames(page).getByRole("link").click();
    await app.hydrated();

    await page.getByRole("button", { name: "Reactivate account" }).click();
    await expect(flash(page)).toHaveText(`${fullname} is no longer suspended and can log in again.`);
    await expect(statusTags(page)).toContainText("Active");

    await member.page.getByLabel("Password").fill(READY_PASSWORD);
    await member.page.getByRole("button", { name: "Log in" }).click();
    await expect(member.page).toHaveURL(dashboard);
    await expect(member.page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await member.context.close();
  });

  test("resending the verification email shows a flash and sends a working link", async ({ page, app, browser, browserErrors }) => {
    await asAdmin(app);
    const { email, fullname } = UNVERIFIED_RESEND;
    await openMember(page, app, email, fullname);
    await expect(statusTags(page)).toContainText("Unverified");
    await expect(page.getByText("The email address is not verified yet, so the member cannot log in.")).toBeVisible();
    const before = mailsTo(email, /^Verify your email address/).length;

    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(flash(page)).toHaveText(`We sent a new verification link to ${email}.`);
    const mail = await waitForMail(email, { subject: /^Verify your email address for Backline$/, after: before });

    const other = await otherBrowser(browser, browserErrors);
    await other.page.goto(pathOf(actionLink(mail)));
    await expect(other.page).toHaveURL("/login");
    await expect(flash(other.page)).toHaveText("Your email address is verified. You can log in now.");
    await other.context.close();

    await page.reload();
    await expect(statusTags(page)).toContainText("Active");
    await expect(page.getByRole("button", { name: "Resend verification email" })).toHaveCount(0);
  });

  test("resending the activation link shows a flash, sends a new link and retires the old one", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(410);
    await asAdmin(app);
    const { email, fullname } = PENDING_RESEND;
    const first = await waitForMail(email, { subject: ACTIVATE_SUBJECT });
    expect(first.text).toContain("The e2e suite created an account for you.");
    await openMember(page, app, email, fullname);
    await expect(statusTags(page)).toContainText("Pending activation");

    await page.getByRole("button", { name: "Resend activation link" }).click();
    await expect(flash(page)).toHaveText(`We sent a new activation link to ${email}.`);
    const mail = await waitForMail(email, { subject: ACTIVATE_SUBJECT, after: 1 });
    expect(mail.text).toContain("Ada Admin created an account for you.");
    expect(actionLink(mail)).not.toBe(actionLink(first));

    expect((await page.request.get(pathOf(actionLink(first)))).status()).toBe(410);
    expect((await page.request.get(pathOf(actionLink(mail)))).status()).toBe(200);
  });

  test("unknown and malformed ids answer 404 inside the admin area", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await asAdmin(app);
    for (const path of ["/admin/member/999999", "/admin/member/abc", "/admin/member/0", "/admin/member/99999999999"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Not Found" }), path).toBeVisible();
      await expect(page, path).toHaveTitle("Not Found | Admin Area | Backline");
      // Inside the admin area's layout: its menu and header are there.
      await expect(page.getByRole("navigation", { name: "Admin menu" }), path).toBeAttached();
      await expect(page.getByRole("banner").getByText("Admin Area", { exact: true }), path).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to members" }), path).toHaveAttribute("href", "/admin/members");
    }
    const post = await page.request.post("/admin/member/999999", { form: { intent: "suspend" }, maxRedirects: 0 });
    expect(post.status()).toBe(404);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the list's rows become cards and nothing scrolls sideways", async ({ page, app }) => {
    await asAdmin(app);
    await app.goto("/admin/members");
    const row = bodyRows(page).first();
    await expect(row).toBeVisible();
    expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe("block");
    // Each card labels its values (drawn by CSS from the column header); the table header is only for screen readers.
    const emailLabel = await row.locator('td[data-label="Email"]').evaluate((el) => {
      const before = getComputedStyle(el, "::before");
      return { content: before.content, display: before.display };
    });
    expect(emailLabel.content).toContain("Email");
    expect(emailLabel.display).not.toBe("none");
    expect(
      await table(page)
        .locator("thead")
        .evaluate((el) => el.getBoundingClientRect().height),
    ).toBeLessThanOrEqual(1);
    const box = (await row.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Long addresses wrap; the member page fits too.
    await search(page, "ready-profile-password-wrong@example.test");
    // The URL changes before the filtered rows render: wait for the one match.
    await expect(rowNames(page)).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await rowNames(page).getByRole("link").click();
    await expect(page).toHaveURL(/\/admin\/member\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
