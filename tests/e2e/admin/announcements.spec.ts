import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, type App } from "../support/test";
import { ANNOUNCE_MEMBERS, announceMemberName, VERSION_PASSWORD } from "../support/version-accounts";
import { flash, markLatestSeen, signedIn } from "../versions/helpers";

/**
 * /admin/announcements (app/routes/admin.announcements.tsx, announcement-schema.ts): an administrator sends
 * a notification to every member or to one member by email; it arrives in the members' bell.
 *
 * Runs in the "versions" project (playwright.config.ts), after the other spec files and one test at a
 * time: the announcement to all members reaches every member's bell, which the bell tests count.
 */

const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;
const EMAIL_LABEL = "Member's email (when sending to one)";
const uniqueMessage = (label: string) => `${label} ${crypto.randomBytes(4).toString("hex")}`;

const audience = (page: Page) => page.getByLabel("Send to");
const emailField = (page: Page) => page.getByLabel(EMAIL_LABEL);
const messageField = (page: Page) => page.getByLabel("Message");
const colourField = (page: Page) => page.getByLabel("Colour");
const sendButton = (page: Page) => page.getByRole("button", { name: "Send announcement" });

const bell = (page: Page) => page.locator('details[data-notifications="Notifications"]');
const bellItems = (page: Page) => bell(page).getByRole("list", { name: "Notifications" }).getByRole("listitem");

async function openAnnouncements(app: App, query = "") {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  expect((await app.goto(`/admin/announcements${query}`))?.status()).toBe(200);
  await expect(app.page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
}

/** The member's notifications through the JSON API (their own session). */
async function notificationsOf(email: string): Promise<{ id: number; messages: string[]; colors: string[] }> {
  const { api, id } = await signedIn(email, VERSION_PASSWORD);
  try {
    const response = await api.get(`/api/members/${id}/notifications`);
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: Array<{ type: { name: string }; data: { message: string; color: string } }> };
    return { id, messages: body.data.map((n) => n.data.message), colors: body.data.map((n) => n.data.color) };
  } finally {
    await api.dispose();
  }
}

/**
 * Opens the member's dashboard in a browser of its own and checks the bell: `count` unread, `message` on
 * top. Any "What's new" for a version published earlier is marked seen first, so no modal covers the page.
 */
async function expectInBell(app: App, page: Page, email: string, message: string, count: number) {
  const memberId = await logInMember(app, email, VERSION_PASSWORD, page);
  await markLatestSeen(page.request);
  await app.goto(`/member/${memberId}/dashboard`, page);
  await expect(bell(page).getByTestId("notification-count")).toHaveText(String(count));
  await expect(bell(page).locator("summary")).toHaveAttribute("aria-label", `Notifications: ${count} unread`);
  await bell(page).locator("summary").click();
  await expect(bell(page)).toHaveAttribute("open", "");
  await expect(bellItems(page)).toHaveCount(count);
  await expect(bellItems(page).first()).toContainText(message);
}

/** "Showing 1–25 of N members" / "N members in all" / "No members" on the admin list for this query. */
async function listTotal(page: Page, app: App, query: Record<string, string>): Promise<number> {
  await app.goto(`/admin/members?${new URLSearchParams(query)}`);
  const summary = page.getByRole("main").getByText(/^(?:Showing \d+–\d+ of \d+ members?|\d+ members? in all|No members)$/);
  await expect(summary).toBeVisible();
  const text = (await summary.textContent()) ?? "";
  return text === "No members" ? 0 : Number(/(\d+) members?/.exec(text)![1]);
}

test.describe("guard", () => {
  test("without a session the page and its POST go to /login?redirect=/admin/announcements", async ({ page, request }) => {
    await page.goto("/admin/announcements");
    await expect(page).toHaveURL(loginFor("/admin/announcements"));
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();

    const message = uniqueMessage("No session");
    const post = await request.post("/admin/announcements", {
      form: { audience: "one", email: ANNOUNCE_MEMBERS.one, message, color: "blue" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(loginFor("/admin/announcements"));
    expect((await notificationsOf(ANNOUNCE_MEMBERS.one)).messages).not.toContain(message);
  });

  test("a member ends on their own dashboard, and their POST sends nothing", async ({ page, app }) => {
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    await page.goto("/admin/announcements");
    await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(sendButton(page)).toHaveCount(0);

    const message = uniqueMessage("From a member");
    const post = await page.request.post("/admin/announcements", {
      form: { audience: "one", email: ANNOUNCE_MEMBERS.one, message, color: "red" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/login");
    expect((await notificationsOf(ANNOUNCE_MEMBERS.one)).messages).not.toContain(message);
  });
});

test("bad input: no message, an invalid email, an unknown member: errors beside the fields, values kept, nothing sent", async ({
  page,
  app,
  browserErrors,
}) => {
  // The server refuses the unknown member with 400 (the browser logs the failed request).
  browserErrors.allowStatus(400);
  await openAnnouncements(app);
  await expect(audience(page)).toHaveValue("all");
  await expect(colourField(page)).toHaveValue("blue");

  // No message (whitespace only counts as none).
  await messageField(page).fill("   ");
  await sendButton(page).click();
  await expect(messageField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(messageField(page)).toHaveAccessibleDescription(/Write the announcement\./);
  await expect(audience(page)).toHaveValue("all");

  // One member, but no address, then one that is not an address.
  const message = uniqueMessage("Studio closed on Friday");
  await audience(page).selectOption("one");
  await messageField(page).fill(message);
  await colourField(page).selectOption("orange");
  await sendButton(page).click();
  await expect(emailField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(emailField(page)).toHaveAccessibleDescription(/Enter the member's email address\./);
  await expect(messageField(page)).not.toHaveAttribute("aria-invalid", "true");

  await emailField(page).fill("not-an-email");
  await sendButton(page).click();
  await expect(emailField(page)).toHaveAccessibleDescription(/Enter the member's email address\./);
  await expect(emailField(page)).toHaveValue("not-an-email");

  // A well-formed address nobody has: the server's answer, beside the email field.
  const unknown = `nobody-${crypto.randomBytes(3).toString("hex")}@example.test`;
  // With JavaScript the form posts to the route's data URL (/admin/announcements.data).
  const submitted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/admin/announcements"));
  await emailField(page).fill(unknown);
  await sendButton(page).click();
  expect((await submitted).status()).toBe(400);
  await expect(emailField(page)).toHaveAccessibleDescription(/No member has this email address\./);
  await expect(emailField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(emailField(page)).toHaveValue(unknown);
  await expect(messageField(page)).toHaveValue(message);
  await expect(audience(page)).toHaveValue("one");
  await expect(colourField(page)).toHaveValue("orange");
  await expect(page).toHaveURL("/admin/announcements");
  await expect(flash(page)).not.toContainText("Announcement sent");

  // It reached nobody.
  for (const email of Object.values(ANNOUNCE_MEMBERS)) {
    expect((await notificationsOf(email)).messages, email).not.toContain(message);
  }
});

test("to one member: 'Announcement sent to 1 member.' and it is in that member's bell, in its colour", async ({ page, app, browser, browserErrors }) => {
  await openAnnouncements(app);
  const message = uniqueMessage("Your mix is ready");
  await audience(page).selectOption("one");
  await emailField(page).fill(ANNOUNCE_MEMBERS.one);
  await messageField(page).fill(message);
  await colourField(page).selectOption("green");
  await sendButton(page).click();
  await expect(flash(page)).toHaveText("Announcement sent to 1 member.");
  await expect(page).toHaveURL(/\/admin\/announcements\?done=\d+$/);

  const member = await otherBrowser(browser, browserErrors);
  await expectInBell(app, member.page, ANNOUNCE_MEMBERS.one, message, 1);
  await expect(bellItems(member.page).first().locator('[aria-hidden="true"].bg-green-500')).toHaveCount(1);
  await member.context.close();

  // Only that member.
  expect((await notificationsOf(ANNOUNCE_MEMBERS.all)).messages).not.toContain(message);
});

test("to all members: the flash counts every active member account, and a member's bell has it", async ({ page, app, browser, browserErrors }) => {
  // Who counts as a member for an announcement: member accounts, activated and not suspended
  // (the admin list's "Active" and "Unverified" statuses).
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const active = await listTotal(page, app, { type: "member", status: "active" });
  const unverified = await listTotal(page, app, { type: "member", status: "unverified" });
  const expected = active + unverified;
  expect(expected).toBeGreaterThan(1);
  const before = (await notificationsOf(ANNOUNCE_MEMBERS.all)).messages.length;

  await openAnnouncements(app);
  const message = uniqueMessage("Holiday opening hours");
  await expect(audience(page)).toHaveValue("all");
  await messageField(page).fill(message);
  await colourField(page).selectOption("purple");
  await sendButton(page).click();
  await expect(flash(page)).toHaveText(/^Announcement sent to \d+ members\.$/);
  const sent = Number(/(\d+)/.exec((await flash(page).textContent()) ?? "")![1]);
  expect(sent, "members reached").toBeGreaterThan(1);
  expect(sent, "members reached = active + unverified member accounts").toBe(expected);

  const member = await otherBrowser(browser, browserErrors);
  await expectInBell(app, member.page, ANNOUNCE_MEMBERS.all, message, before + 1);
  await expect(bellItems(member.page).first().locator('[aria-hidden="true"].bg-purple-500')).toHaveCount(1);
  await member.context.close();
  // And a member who never opens the page has it too.
  expect((await notificationsOf(ANNOUNCE_MEMBERS.prefill)).messages).toContain(message);
});

test("a member page's 'Send a notification' link pre-fills the form with their email", async ({ page, app }) => {
  const { fullname } = announceMemberName("prefill");
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/admin/members?${new URLSearchParams({ q: ANNOUNCE_MEMBERS.prefill })}`);
  await page.getByRole("table").getByRole("rowheader").getByRole("link", { name: fullname }).click();
  await expect(page.getByRole("heading", { level: 1, name: fullname })).toBeVisible();
  await app.hydrated();

  await page.getByRole("link", { name: "Send a notification" }).click();
  await expect(page).toHaveURL(`/admin/announcements?${new URLSearchParams({ email: ANNOUNCE_MEMBERS.prefill })}`);
  await expect(page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
  await expect(audience(page)).toHaveValue("one");
  await expect(emailField(page)).toHaveValue(ANNOUNCE_MEMBERS.prefill);

  const message = uniqueMessage("Contract signed");
  await messageField(page).fill(message);
  await sendButton(page).click();
  await expect(flash(page)).toHaveText("Announcement sent to 1 member.");
  expect((await notificationsOf(ANNOUNCE_MEMBERS.prefill)).messages[0]).toBe(message);
});

test("after sending, the form is empty again", async ({ page, app }) => {
  await openAnnouncements(app);
  const message = uniqueMessage("Sent once");
  await audience(page).selectOption("one");
  await emailField(page).fill(ANNOUNCE_MEMBERS.prefill);
  await messageField(page).fill(message);
  await sendButton(page).click();
  await expect(flash(page)).toHaveText("Announcement sent to 1 member.");
  await expect(messageField(page)).toHaveValue("", { timeout: 2_000 });
  await expect(emailField(page)).toHaveValue("", { timeout: 2_000 });
});
