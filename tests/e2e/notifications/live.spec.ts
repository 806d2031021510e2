import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { NOTIFY, NOTIFY_ADMIN, NOTIFY_PASSWORD, notifyName } from "../support/notification-accounts";
import { expect, test } from "../support/test";
import {
  ADMIN_BELL,
  ADMIN_CHANNEL,
  adminList,
  deleteButton,
  expectCount,
  expectSameDocument,
  flash,
  gotoLive,
  item,
  items,
  markDocument,
  memberChannel,
  memberList,
  openBell,
  signedIn,
  uniqueMessage,
} from "./helpers";

/**
 * Live notifications: an announcement or a Contact Us message reaches the open pages of the
 * people it is for over the realtime server, and the bell updates without a page load
 * (app/components/realtime/revalidate-on.tsx reloads the layout's data on the channel's event).
 */

// Several browsers and a realtime round trip each: slow on a loaded machine.
test.describe.configure({ timeout: 60_000 });

test("an announcement to one member reaches their open dashboard live: badge and dropdown, no page load", async ({ page, app, browser, browserErrors }) => {
  // B: the member, on their dashboard, listening.
  const member = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, NOTIFY.live, NOTIFY_PASSWORD, member.page);
  await gotoLive(member.page, `/member/${memberId}/dashboard`, memberChannel(memberId), (path, p) => app.goto(path, p));
  await expect(member.page.locator("[data-realtime-state]")).toHaveAttribute("title", "Live updates: connected");
  await expectCount(member.page, 0);
  await markDocument(member.page);
  const loads: string[] = [];
  member.page.on("framenavigated", (frame) => {
    if (frame === member.page.mainFrame()) loads.push(frame.url());
  });

  // A: the administrator sends to that member by email, through the form.
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/announcements");
  const first = uniqueMessage("Rehearsal moved to Studio B");
  await page.getByLabel("Send to").selectOption("one");
  await page.getByLabel("Member's email (when sending to one)").fill(NOTIFY.live);
  await page.getByLabel("Message").fill(first);
  await page.getByLabel("Colour").selectOption("green");
  await page.getByRole("button", { name: "Send announcement" }).click();
  await expect(flash(page)).toHaveText("Announcement sent to 1 member.");

  await expectCount(member.page, 1);
  await openBell(member.page);
  await expect(items(member.page)).toHaveCount(1);
  await expect(item(member.page, first)).toBeVisible();
  await expect(item(member.page, first).locator('[aria-hidden="true"].bg-green-500')).toHaveCount(1);

  // A second one while the dropdown is open: it appears on top, the dropdown stays open.
  const second = uniqueMessage("Doors open at seven");
  await page.getByLabel("Send to").selectOption("one");
  await page.getByLabel("Member's email (when sending to one)").fill(NOTIFY.live);
  await page.getByLabel("Message").fill(second);
  await page.getByRole("button", { name: "Send announcement" }).click();
  await expect(flash(page)).toHaveText("Announcement sent to 1 member.");

  await expectCount(member.page, 2);
  await expect(items(member.page)).toHaveCount(2);
  await expect(items(member.page).first()).toContainText(second);
  await expect(items(member.page).nth(1)).toContainText(first);
  await expect(member.page.locator(`details[data-notifications="Notifications"]`)).toHaveAttribute("open", "");

  await expect(member.page).toHaveURL(`/member/${memberId}/dashboard`);
  await expectSameDocument(member.page);
  expect(loads, "navigations in the member's page").toEqual([]);
  await member.context.close();
});

test("a member's Contact Us message reaches every administrator's bell live, not the member's; one admin's delete removes it for the other", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  // A: the demo administrator; B: a second administrator; C: the member who writes.
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await gotoLive(page, "/admin/dashboard", ADMIN_CHANNEL, (path, p) => app.goto(path, p));
  const second = await otherBrowser(browser, browserErrors);
  await app.logInQuickly(NOTIFY_ADMIN.email, NOTIFY_PASSWORD, { page: second.page });
  await gotoLive(second.page, "/admin/dashboard", ADMIN_CHANNEL, (path, p) => app.goto(path, p));
  const writer = await otherBrowser(browser, browserErrors);
  const writerId = await logInMember(app, NOTIFY.shared, NOTIFY_PASSWORD, writer.page);
  await gotoLive(writer.page, `/member/${writerId}/contact-us`, memberChannel(writerId), (path, p) => app.goto(path, p));
  await expectCount(writer.page, 0);
  for (const p of [page, second.page]) await markDocument(p);
  await openBell(page, ADMIN_BELL);
  await openBell(second.page, ADMIN_BELL);

  const subject = uniqueMessage("Question about my statement");
  const text = `${notifyName("shared").fullname} wrote: ${subject}`;
  await writer.page.getByLabel("Subject").fill(subject);
  await writer.page.getByRole("textbox", { name: "Message" }).fill("Where is my March statement?");
  await writer.page.getByRole("button", { name: "Send message" }).click();
  await expect(flash(writer.page)).toContainText("Thank you, your message was sent.");

  // Both administrators see it without a page load (the dropdowns stay open).
  for (const p of [page, second.page]) {
    await expect(item(p, text, ADMIN_BELL)).toBeVisible();
    await expect(item(p, text, ADMIN_BELL).locator('[aria-hidden="true"].bg-purple-500')).toHaveCount(1);
    await expectSameDocument(p);
  }
  // Not in the member's own bell.
  await expectCount(writer.page, 0);
  await openBell(writer.page);
  await expect(writer.page.getByText("You are all caught up.")).toBeVisible();
  const memberApi = await signedIn(NOTIFY.shared, NOTIFY_PASSWORD);
  expect((await memberList(memberApi.api, writerId)).meta.total).toBe(0);
  await memberApi.api.dispose();

  // The first administrator deletes it; the second one's open bell loses it after its live refresh.
  await deleteButton(page, text, ADMIN_BELL).click();
  await expect(item(page, text, ADMIN_BELL)).toHaveCount(0);
  await expect(item(second.page, text, ADMIN_BELL)).toHaveCount(0);
  await expect(second.page).toHaveURL("/admin/dashboard");
  await expectSameDocument(second.page);
  const adminApi = await signedIn(DEMO.admin, DEMO_PASSWORD);
  expect((await adminList(adminApi.api)).data.map((n) => n.data.message)).not.toContain(text);
  await adminApi.api.dispose();
  await second.context.close();
  await writer.context.close();
});
