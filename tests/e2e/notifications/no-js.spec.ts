import { logInMember } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { NOTIFY, NOTIFY_PASSWORD } from "../support/notification-accounts";
import { expect, test } from "../support/test";
import {
  announce,
  bell,
  clearAll,
  deleteButton,
  expectCount,
  flash,
  item,
  items,
  memberList,
  NOTIFICATION_ERROR,
  openBell,
  openButton,
  realtimeState,
  signedIn,
  uniqueMessage,
} from "./helpers";

/**
 * The bell without JavaScript: a native <details> opens by its summary, and every action is a plain
 * form post answered by a redirect back (app/components/notification-bell.tsx).
 */
test.use({ javaScriptEnabled: false });
test.describe.configure({ timeout: 60_000 });

async function announceAll(email: string, messages: string[]) {
  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  for (const message of messages) await announce(admin.api, email, message);
  await admin.api.dispose();
}

test("the bell opens by its summary; Clear all empties the list and the badge goes", async ({ page, app }) => {
  const messages = [uniqueMessage("One"), uniqueMessage("Two"), uniqueMessage("Three")];
  await announceAll(NOTIFY.noJsClear, messages);
  const id = await logInMember(app, NOTIFY.noJsClear, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/profile`);

  // Server-rendered closed; no live updates without JavaScript.
  await expect(bell(page)).not.toHaveAttribute("open");
  await expect(items(page).first()).toBeHidden();
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "initialized");
  await expectCount(page, 3);
  await openBell(page);
  await expect(items(page)).toHaveCount(3);
  for (const message of messages) await expect(item(page, message)).toBeVisible();

  await clearAll(page).click();
  await expect(page).toHaveURL(`/member/${id}/profile`);
  await expectCount(page, 0);
  await openBell(page);
  await expect(items(page)).toHaveCount(0);
  await expect(bell(page).getByText("You are all caught up.")).toBeVisible();
  await expect(clearAll(page)).toHaveCount(0);
  const member = await signedIn(NOTIFY.noJsClear, NOTIFY_PASSWORD);
  expect((await memberList(member.api, id)).meta.total).toBe(0);
  await member.api.dispose();
});

test("the cross deletes only that one, and a click opens one (deleted, its page shown)", async ({ page, app }) => {
  const [keep, drop, follow] = [uniqueMessage("Keep"), uniqueMessage("Drop"), uniqueMessage("Follow")];
  await announceAll(NOTIFY.noJsDelete, [keep, drop, follow]);
  const id = await logInMember(app, NOTIFY.noJsDelete, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/profile`);
  await expectCount(page, 3);

  await openBell(page);
  await deleteButton(page, drop).click();
  await expect(page).toHaveURL(`/member/${id}/profile`);
  await expectCount(page, 2);
  await expect(flash(page)).toBeEmpty();
  await openBell(page);
  await expect(items(page)).toHaveCount(2);
  await expect(item(page, drop)).toHaveCount(0);
  await expect(item(page, keep)).toBeVisible();

  await openButton(page, follow).click();
  await expect(page).toHaveURL(`/member/${id}/dashboard`);
  await expectCount(page, 1);
  await openBell(page);
  await expect(items(page)).toHaveCount(1);
  await expect(item(page, keep)).toBeVisible();
});

test("a notification deleted elsewhere: its stale cross answers 'Error processing your request'", async ({ page, app }) => {
  const [gone, other] = [uniqueMessage("Deleted elsewhere"), uniqueMessage("Other")];
  await announceAll(NOTIFY.noJsStale, [gone, other]);
  const id = await logInMember(app, NOTIFY.noJsStale, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/dashboard`);
  await openBell(page);
  await expect(items(page)).toHaveCount(2);

  // Another device deletes it through the API; this page still shows it.
  const elsewhere = await signedIn(NOTIFY.noJsStale, NOTIFY_PASSWORD);
  const target = (await memberList(elsewhere.api, id)).data.find((n) => n.data.message === gone)!;
  expect((await elsewhere.api.delete(`/api/members/${id}/notifications/${target.id}`)).status()).toBe(200);
  await elsewhere.api.dispose();

  await deleteButton(page, gone).click();
  await expect(page).toHaveURL(`/member/${id}/dashboard`);
  await expect(flash(page)).toHaveText(NOTIFICATION_ERROR);
  await expectCount(page, 1);
  await openBell(page);
  await expect(item(page, other)).toBeVisible();
});
