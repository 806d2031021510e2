import type { APIRequestContext, Page } from "@playwright/test";
import { flash, logInMember, otherBrowser } from "../support/account-admin-helpers";
import {
  MODERATION_ADMIN,
  MODERATION_PASSWORD,
  MODERATION_TYPES,
  moderationAccount,
  type ModerationCase,
  type ModerationType,
} from "../support/moderation-accounts";
import { expect, test, type App } from "../support/test";
import { adminList, expectCount, gotoLive, item, memberChannel, memberList, openBell, signedIn } from "../notifications/helpers";

/**
 * Profile moderation (app/modules/profiles/profile-status.server.ts, status-panel.tsx, the admin
 * `{directory}/profiles` lists): a member submits, an administrator approves, rejects with a reason or
 * unpublishes, and the member is told. Every case runs for each of the five profile types; each (case,
 * type) has its own member and profile (tests/e2e/support/prepare-moderation.ts).
 */

// Two browsers and a realtime round trip in the longest test: slow on a loaded machine.
test.describe.configure({ timeout: 60_000 });

const TYPES = Object.keys(MODERATION_TYPES) as ModerationType[];

const statusPanel = (page: Page) => page.getByRole("region", { name: "Status" });
const statusTag = (page: Page) => statusPanel(page).locator("[data-status]");
const table = (page: Page) => page.getByRole("table");
const rowNames = (page: Page) => table(page).getByRole("rowheader");
const nounOf = (type: ModerationType) => (type === "artist" ? "artist page" : `${MODERATION_TYPES[type].label.toLowerCase()} profile`);

/** The profile's id, read off the admin moderation list (searched by its username). */
async function profileIdOf(admin: APIRequestContext, kase: ModerationCase, type: ModerationType): Promise<number> {
  const info = MODERATION_TYPES[type];
  const { username } = moderationAccount(kase, type);
  const response = await admin.get(`/admin/${info.directory}/profiles?${new URLSearchParams({ q: username })}`);
  expect(response.status()).toBe(200);
  const ids = [...(await response.text()).matchAll(new RegExp(`href="/admin/${info.adminPage}/(\\d+)"`, "g"))].map((m) => Number(m[1]));
  expect(ids, `${username} in the moderation list`).toHaveLength(1);
  return ids[0]!;
}

async function asAdmin(app: App, page?: Page) {
  const location = await app.logInQuickly(MODERATION_ADMIN.email, MODERATION_PASSWORD, { page });
  expect(location).toBe("/admin/dashboard");
}

/** Opens the type's moderation list filtered by the form, and from it the profile's admin page. */
async function openFromList(page: Page, app: App, type: ModerationType, name: string, status: string) {
  const info = MODERATION_TYPES[type];
  await app.goto(`/admin/${info.directory}/profiles`, page);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^${info.label} Profiles`) })).toBeVisible();
  const filters = page.getByRole("search", { name: `Filter ${info.label.toLowerCase()} profiles` });
  await filters.getByLabel("Search by name, username or owner email").fill(name);
  await filters.getByLabel("Status").selectOption({ label: status });
  await filters.getByRole("button", { name: "Search", exact: true }).click();
  await expect(rowNames(page)).toHaveText([name]);
  await expect(table(page).getByRole("row").filter({ hasText: name }).locator("[data-status]")).toHaveText(status);
  await rowNames(page).getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/${info.adminPage}/\\d+$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await app.hydrated(page);
}

for (const type of TYPES) {
  const info = MODERATION_TYPES[type];
  const noun = nounOf(type);

  test.describe(`${info.label}`, () => {
    test("the owner submits; an administrator approves from the list; the owner is notified live and the profile is published", async ({
      page,
      app,
      browser,
      browserErrors,
    }) => {
      const account = moderationAccount("approve", type);
      const { api: adminApi } = await signedIn(MODERATION_ADMIN.email, MODERATION_PASSWORD);
      const id = await profileIdOf(adminApi, "approve", type);

      // The owner, on their page, listening on their channel.
      const memberId = await logInMember(app, account.email, MODERATION_PASSWORD);
      const ownerPath = `/member/${memberId}/${info.memberPage}/${id}`;
      await gotoLive(page, ownerPath, memberChannel(memberId), (path, p) => app.goto(path, p));
      await expect(statusTag(page)).toHaveText("Draft");
      await expectCount(page, 0);
      await expect(statusPanel(page).getByRole("button", { name: "Approve and publish" })).toHaveCount(0);
      await statusPanel(page).getByRole("button", { name: "Submit for approval" }).click();
      await expect(flash(page)).toHaveText(`Your ${noun} was submitted for approval. You will be notified of the decision.`);
      await expect(statusTag(page)).toHaveText("Pending approval");
      await expect(statusPanel(page).getByRole("button", { name: "Withdraw submission" })).toBeVisible();

      // The administrators' list was told, pointing at the admin page of this profile.
      const submitted = (await adminList(adminApi)).data.find((n) => n.data.resource_id === id);
      expect(submitted?.data).toMatchObject({
        message: `${account.fullname} submitted the ${noun} "${account.profileName}" for approval`,
        route_name: `admin-${info.adminPage}`,
      });
      await adminApi.dispose();

      // The administrator, in another browser: the list, the profile, Approve.
      const admin = await otherBrowser(browser, browserErrors);
      await asAdmin(app, admin.page);
      await openFromList(admin.page, app, type, account.profileName, "Pending approval");
      await expect(statusTag(admin.page)).toHaveText("Pending approval");
      await statusPanel(admin.page).getByRole("button", { name: "Approve and publish" }).click();
      await expect(flash(admin.page)).toHaveText(`"${account.profileName}" is approved and published. The owner was notified.`);
      await expect(statusTag(admin.page)).toHaveText("Published");

      // The owner's open page: the bell and the status change without a reload.
      const message = `Your ${noun} "${account.profileName}" is approved and published.`;
      await expectCount(page, 1);
      await expect(statusTag(page)).toHaveText("Published");
      await openBell(page);
      await expect(item(page, message)).toBeVisible();
      await admin.context.close();
    });

    test("rejecting needs a reason, which the owner reads in the bell and on their page", async ({ page, app }) => {
      const account = moderationAccount("reject", type);
      await asAdmin(app);
      await openFromList(page, app, type, account.profileName, "Pending approval");
      const reason = statusPanel(page).getByLabel("Reason for the rejection");
      await statusPanel(page).getByRole("button", { name: "Reject", exact: true }).click();
      await expect(reason).toHaveAttribute("aria-invalid", "true");
      await expect(reason).toHaveAccessibleDescription(/Give the reason for the rejection\./);
      await expect(statusTag(page)).toHaveText("Pending approval");

      const text = `Please add a sample link for the ${info.label.toLowerCase()} work.`;
      await reason.fill(text);
      await statusPanel(page).getByRole("button", { name: "Reject", exact: true }).click();
      await expect(flash(page)).toHaveText(`"${account.profileName}" was rejected. The owner was notified with your reason.`);
      await expect(statusTag(page)).toHaveText("Rejected");
      const id = Number(/\/(\d+)$/.exec(page.url())![1]);

      // The owner: the notification names the reason and points at their page, which shows it too.
      const member = await signedIn(account.email, MODERATION_PASSWORD);
      const list = await memberList(member.api, member.id);
      expect(list.meta.total).toBe(1);
      expect(list.data[0]!.data).toMatchObject({
        message: `Your ${noun} "${account.profileName}" was not approved. Reason: ${text}`,
        route_name: `member-${info.memberPage}`,
        resource_id: id,
      });
      await member.api.dispose();
      await page.context().clearCookies();
      await logInMember(app, account.email, MODERATION_PASSWORD);
      await app.goto(`/member/${member.id}/${info.memberPage}/${id}`);
      await expect(statusTag(page)).toHaveText("Rejected");
      await expect(statusPanel(page)).toContainText(text);
      await expect(statusPanel(page).getByRole("button", { name: "Submit for approval" })).toBeVisible();
      await expectCount(page, 1);
    });

    test("an administrator unpublishes a published profile with a reason; the owner is told", async ({ page, app }) => {
      const account = moderationAccount("unpublish", type);
      await asAdmin(app);
      await openFromList(page, app, type, account.profileName, "Published");
      const text = "The contact details are out of date.";
      await statusPanel(page).getByLabel("Reason (optional, shown to the owner)").fill(text);
      await statusPanel(page).getByRole("button", { name: "Unpublish", exact: true }).click();
      await expect(flash(page)).toHaveText(`"${account.profileName}" is unpublished. The owner was notified.`);
      await expect(statusTag(page)).toHaveText("Unpublished");
      await expect(statusPanel(page)).toContainText(text);
      await expect(statusPanel(page).getByRole("button", { name: "Unpublish", exact: true })).toHaveCount(0);

      const member = await signedIn(account.email, MODERATION_PASSWORD);
      const list = await memberList(member.api, member.id);
      expect(list.data.map((n) => n.data.message)).toEqual([`An administrator unpublished your ${noun} "${account.profileName}". Reason: ${text}`]);
      await member.api.dispose();
    });

    test("an incomplete profile is not submitted: the page says what is missing", async ({ page, app, browserErrors }) => {
      // The refusal is answered 422 (Unprocessable Entity), which the browser reports.
      browserErrors.allowStatus(422);
      const account = moderationAccount("incomplete", type);
      const { api: adminApi } = await signedIn(MODERATION_ADMIN.email, MODERATION_PASSWORD);
      const id = await profileIdOf(adminApi, "incomplete", type);
      await adminApi.dispose();
      const memberId = await logInMember(app, account.email, MODERATION_PASSWORD);
      await app.goto(`/member/${memberId}/${info.memberPage}/${id}`);
      await statusPanel(page).getByRole("button", { name: "Submit for approval" }).click();
      const missing = ["a bio of at least 20 characters", "at least one genre", ...(info.provider ? ["at least one rate"] : [])];
      await expect(statusPanel(page).getByRole("alert")).toHaveText(`Complete the profile before submitting it. Still missing: ${missing.join("; ")}.`);
      await expect(statusTag(page)).toHaveText("Draft");
    });

    test("a member cannot approve their own profile, and a rejection without a reason is refused", async ({ page, app }) => {
      const account = moderationAccount("forbidden", type);
      const { api: adminApi } = await signedIn(MODERATION_ADMIN.email, MODERATION_PASSWORD);
      const id = await profileIdOf(adminApi, "forbidden", type);
      const member = await signedIn(account.email, MODERATION_PASSWORD);
      const ownerPath = `/member/${member.id}/${info.memberPage}/${id}`;

      for (const intent of ["approve", "reject"]) {
        const refused = await member.api.post(ownerPath, { form: { intent, reason: "Looks fine to me" }, maxRedirects: 0 });
        expect(refused.status(), intent).toBe(403);
        expect(await refused.text()).toContain("Only an administrator can approve or reject a profile.");
      }
      // The server checks the reason too (the browser's check is only a convenience).
      const empty = await adminApi.post(`/admin/${info.adminPage}/${id}`, { form: { intent: "reject", reason: "" }, maxRedirects: 0 });
      expect(empty.status()).toBe(400);
      expect(await empty.text()).toContain("Give the reason for the rejection.");

      // Nothing changed, and the owner's page offers no moderation buttons.
      await logInMember(app, account.email, MODERATION_PASSWORD);
      await app.goto(ownerPath);
      await expect(statusTag(page)).toHaveText("Pending approval");
      await expect(statusPanel(page).getByRole("button", { name: "Approve and publish" })).toHaveCount(0);
      await expect(statusPanel(page).getByRole("button", { name: "Reject", exact: true })).toHaveCount(0);
      expect((await memberList(member.api, member.id)).meta.total).toBe(0);
      await Promise.all([adminApi.dispose(), member.api.dispose()]);
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const type of TYPES) {
    const info = MODERATION_TYPES[type];
    test(`${info.label}: submit, withdraw and submit again; a rejection without a reason is answered beside the field; approve`, async ({
      page,
      app,
      browserErrors,
    }) => {
      // The empty reason is answered 400 (Bad Request).
      browserErrors.allowStatus(400);
      const account = moderationAccount("noJs", type);
      const { api: adminApi } = await signedIn(MODERATION_ADMIN.email, MODERATION_PASSWORD);
      const id = await profileIdOf(adminApi, "noJs", type);
      await adminApi.dispose();

      const memberId = await logInMember(app, account.email, MODERATION_PASSWORD);
      const ownerPath = `/member/${memberId}/${info.memberPage}/${id}`;
      await app.goto(ownerPath);
      await statusPanel(page).getByRole("button", { name: "Submit for approval" }).click();
      await expect(statusTag(page)).toHaveText("Pending approval");
      await statusPanel(page).getByRole("button", { name: "Withdraw submission" }).click();
      await expect(flash(page)).toHaveText("The submission was withdrawn; the profile is a draft again.");
      await expect(statusTag(page)).toHaveText("Draft");
      await statusPanel(page).getByRole("button", { name: "Submit for approval" }).click();
      await expect(statusTag(page)).toHaveText("Pending approval");

      await page.context().clearCookies();
      await asAdmin(app);
      await app.goto(`/admin/${info.adminPage}/${id}`);
      await statusPanel(page).getByRole("button", { name: "Reject", exact: true }).click();
      const reason = statusPanel(page).getByLabel("Reason for the rejection");
      await expect(reason).toHaveAttribute("aria-invalid", "true");
      await expect(reason).toHaveAccessibleDescription(/Give the reason for the rejection\./);
      await expect(statusTag(page)).toHaveText("Pending approval");
      await statusPanel(page).getByRole("button", { name: "Approve and publish" }).click();
      await expect(flash(page)).toHaveText(`"${account.profileName}" is approved and published. The owner was notified.`);
      await expect(statusTag(page)).toHaveText("Published");

      const member = await signedIn(account.email, MODERATION_PASSWORD);
      expect((await memberList(member.api, member.id)).data.map((n) => n.data.message)).toEqual([
        `Your ${nounOf(type)} "${account.profileName}" is approved and published.`,
      ]);
      await member.api.dispose();
    });
  }
});

test.describe("moderation lists", () => {
  test("are for administrators: a member is sent away, a visitor to the login page", async ({ page, app, request }) => {
    for (const type of TYPES) {
      const path = `/admin/${MODERATION_TYPES[type].directory}/profiles`;
      const anonymous = await request.get(path, { maxRedirects: 0 });
      expect(anonymous.status()).toBe(302);
      expect(anonymous.headers()["location"]).toBe(`/login?${new URLSearchParams({ redirect: path })}`);
    }
    const account = moderationAccount("forbidden", "studio");
    const memberId = await logInMember(app, account.email, MODERATION_PASSWORD);
    await page.goto("/admin/studios/profiles");
    await expect(page).toHaveURL(`/member/${memberId}/dashboard`);
  });

  test("filter by status, search by owner email, link to the profile and its owner, and show an empty state", async ({ page, app }) => {
    await asAdmin(app);
    const account = moderationAccount("forbidden", "music_producer");
    await app.goto(`/admin/music-producers/profiles?${new URLSearchParams({ q: account.email })}`);
    await expect(page).toHaveTitle("Music Producer Profiles | Admin Area | Backline");
    // The heading counts the pending profiles of this type (this one at least).
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/[1-9]\d* pending approval/);
    await expect(rowNames(page)).toHaveText([account.profileName]);
    const row = table(page).getByRole("row").filter({ hasText: account.profileName });
    await expect(row).toContainText(account.username);
    await expect(row.getByRole("link", { name: account.fullname })).toHaveAttribute("href", /^\/admin\/member\/\d+$/);
    await expect(row.getByRole("link", { name: account.profileName })).toHaveAttribute("href", /^\/admin\/music-producer-profile\/\d+$/);

    const filters = page.getByRole("search", { name: "Filter music producer profiles" });
    await filters.getByLabel("Status").selectOption({ label: "Published" });
    await filters.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(`/admin/music-producers/profiles?${new URLSearchParams({ q: account.email, status: "published" })}`);
    await expect(page.getByText("No music producer profiles match these filters.")).toBeVisible();
    await page.getByRole("link", { name: "clear the filters" }).click();
    await expect(page).toHaveURL("/admin/music-producers/profiles");
    await expect(filters.getByLabel("Search by name, username or owner email")).toHaveValue("");
  });
});
