import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { logInMember } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { NOTIFY, NOTIFY_PASSWORD, notifyName } from "../support/notification-accounts";
import { expect, test } from "../support/test";
import {
  ADMIN_BELL,
  adminList,
  announce,
  bell,
  contactUs,
  deleteButton,
  ensureOpen,
  expectCount,
  expectSameDocument,
  flash,
  item,
  items,
  markDocument,
  memberList,
  NOTIFICATION_ERROR,
  openBell,
  openButton,
  signedIn,
  uniqueMessage,
} from "./helpers";

/**
 * The bell's actions with JavaScript (app/components/notification-bell.tsx, notification-actions.server.ts):
 * clicking a notification deletes it and goes where it points; the cross deletes only that one; a
 * notification that is not there (any more) comes back as 'Error processing your request'.
 */

// Several browsers and a realtime round trip each: slow on a loaded machine.
test.describe.configure({ timeout: 60_000 });

test.describe("clicking a notification", () => {
  test("an announcement: deleted, the dropdown closes, the member's dashboard opens, the badge drops", async ({ page, app }) => {
    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    const older = uniqueMessage("Older news");
    const newer = uniqueMessage("Newer news");
    await announce(admin.api, NOTIFY.open, older);
    await announce(admin.api, NOTIFY.open, newer);
    await admin.api.dispose();

    const id = await logInMember(app, NOTIFY.open, NOTIFY_PASSWORD);
    await app.goto(`/member/${id}/profile`);
    await expectCount(page, 2);
    await markDocument(page);
    await openBell(page);
    await openButton(page, older).click();

    await expect(page).toHaveURL(`/member/${id}/dashboard`);
    await expect(bell(page)).not.toHaveAttribute("open");
    await expectCount(page, 1);
    await openBell(page);
    await expect(items(page)).toHaveCount(1);
    await expect(item(page, newer)).toBeVisible();
    await expect(item(page, older)).toHaveCount(0);
    // A client-side navigation, not a page load.
    await expectSameDocument(page);
    const member = await signedIn(NOTIFY.open, NOTIFY_PASSWORD);
    expect((await memberList(member.api, id)).data.map((n) => n.data.message)).toEqual([newer]);
    await member.api.dispose();
  });

  test("a Contact Us message in the admins' bell: deleted, and the writer's member page opens", async ({ page, app }) => {
    const writer = await signedIn(NOTIFY.contactOpen, NOTIFY_PASSWORD);
    const subject = uniqueMessage("Please call me back");
    await contactUs(writer.api, writer.id, subject);
    await writer.api.dispose();
    const text = `${notifyName("contactOpen").fullname} wrote: ${subject}`;

    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await app.goto("/admin/members");
    await openBell(page, ADMIN_BELL);
    await openButton(page, text, ADMIN_BELL).click();

    await expect(page).toHaveURL(`/admin/member/${writer.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(notifyName("contactOpen").fullname);
    await expect(bell(page, ADMIN_BELL)).not.toHaveAttribute("open");
    await openBell(page, ADMIN_BELL);
    await expect(item(page, text, ADMIN_BELL)).toHaveCount(0);
    // The shared list changes under other tests too: the badge agrees with the list shown (under 30 rows).
    const shown = await items(page, ADMIN_BELL).count();
    await expectCount(page, shown, ADMIN_BELL);
    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    expect((await adminList(admin.api)).data.map((n) => n.data.message)).not.toContain(text);
    await admin.api.dispose();
  });
});

test("the cross deletes only that notification; the page stays", async ({ page, app }) => {
  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  const messages = [uniqueMessage("First"), uniqueMessage("Second"), uniqueMessage("Third")];
  for (const message of messages) await announce(admin.api, NOTIFY.deleteOne, message);
  await admin.api.dispose();

  const id = await logInMember(app, NOTIFY.deleteOne, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/profile`);
  await expectCount(page, 3);
  await markDocument(page);
  await openBell(page);
  await deleteButton(page, messages[1]!).click();

  await expectCount(page, 2);
  await expect(page).toHaveURL(`/member/${id}/profile`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectSameDocument(page);
  await ensureOpen(page);
  await expect(items(page)).toHaveCount(2);
  await expect(item(page, messages[1]!)).toHaveCount(0);
  await expect(items(page).first()).toContainText(messages[2]!);
  await expect(items(page).nth(1)).toContainText(messages[0]!);
  await expect(flash(page)).toBeEmpty();
});

/**
 * Edits the hidden id of one of the row's forms as it is submitted (a listener on the form runs before
 * React's handler at the root reads the fields; set earlier, any re-render of the bell would restore it).
 */
async function replaceIdOnSubmit(page: Page, message: string, intent: "open" | "delete", id: string) {
  const form = item(page, message).locator(`form:has(input[name="intent"][value="${intent}"])`);
  await form.evaluate((element, value) => {
    element.addEventListener("submit", () => {
      (element.querySelector('input[name="id"]') as HTMLInputElement).value = value;
    });
  }, id);
}

test("a notification that is not there: 'Error processing your request', nothing deleted", async ({ page, app }) => {
  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  const message = uniqueMessage("Still here");
  await announce(admin.api, NOTIFY.badId, message);
  await admin.api.dispose();

  const id = await logInMember(app, NOTIFY.badId, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/dashboard`);
  await expectCount(page, 1);
  await openBell(page);
  // The cross's form now names a notification that does not exist (deleted elsewhere, say).
  await replaceIdOnSubmit(page, message, "delete", crypto.randomUUID());
  await deleteButton(page, message).click();

  await expect(flash(page)).toHaveText(NOTIFICATION_ERROR);
  await expect(page).toHaveURL(`/member/${id}/dashboard`);
  await expectCount(page, 1);
  await ensureOpen(page);
  await expect(item(page, message)).toBeVisible();

  // The same for "open" with an id that is not a uuid at all (after a fresh load, so no flash is left).
  await app.goto(`/member/${id}/dashboard`);
  await expect(flash(page)).toBeEmpty();
  await openBell(page);
  await replaceIdOnSubmit(page, message, "open", "not-a-uuid");
  await openButton(page, message).click();
  await expect(flash(page)).toHaveText(NOTIFICATION_ERROR);
  await expect(page).toHaveURL(`/member/${id}/dashboard`);
  await expectCount(page, 1);
});

test("someone else's notification through the member's own bell action: 'Error processing your request', nothing deleted", async ({ page, app }) => {
  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  const theirs = uniqueMessage("For the owner only");
  await announce(admin.api, NOTIFY.owner, theirs);
  await admin.api.dispose();
  const owner = await signedIn(NOTIFY.owner, NOTIFY_PASSWORD);
  const [notification] = (await memberList(owner.api, owner.id)).data;
  expect(notification?.data.message).toBe(theirs);

  const id = await logInMember(app, NOTIFY.intruder, NOTIFY_PASSWORD);
  const dashboard = `/member/${id}/dashboard`;
  for (const intent of ["delete", "open"]) {
    const response = await page.request.post(`/member/${id}/notifications`, {
      form: { intent, id: notification!.id, redirectTo: dashboard },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe(dashboard);
    await app.goto(dashboard);
    await expect(flash(page)).toHaveText(NOTIFICATION_ERROR);
  }
  // Through the owner's own path, the guard answers first: not their area.
  const foreign = await page.request.post(`/member/${owner.id}/notifications`, {
    form: { intent: "clear", redirectTo: dashboard },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(404);

  expect((await memberList(owner.api, owner.id)).data.map((n) => n.id)).toEqual([notification!.id]);
  await owner.api.dispose();
});
