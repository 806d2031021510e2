import type { Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { gotoLive, item, items, memberChannel, openBell, expectCount } from "../notifications/helpers";
import { REJECT_RELEASE, RELEASE_ARTISTS, RELEASE_MEMBERS, RELEASE_PASSWORD, SUBMIT_RELEASE } from "../support/release-accounts";
import { expect, test } from "../support/test";

/**
 * Review of a release: the member submits, an administrator approves (the member's open page
 * hears it live), starts distribution, or rejects with reasons per field that the owner then sees.
 */
test.describe.configure({ timeout: 90_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

test("a member submits a release; an administrator approves it and the member sees the notification live", async ({ page, app, browser, browserErrors }) => {
  // B: the member submits from the status page, then stays on it, listening.
  const member = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, RELEASE_MEMBERS.submitter, RELEASE_PASSWORD, member.page);
  const statusPath = `/member/${memberId}/releases/${RELEASE_ARTISTS.submit.username}/${SUBMIT_RELEASE.slug}`;
  await app.goto(statusPath, member.page);
  await expect(member.page.getByText("Everything the stores need is there.")).toBeVisible();
  await member.page.getByRole("button", { name: "Submit for review" }).click();
  await expect(flash(member.page)).toContainText("is submitted for review");
  await expect(member.page.getByText("Pending approval").first()).toBeVisible();
  await expect(member.page.getByRole("button", { name: "Submit for review" })).toHaveCount(0);

  await gotoLive(member.page, statusPath, memberChannel(memberId), (path, p) => app.goto(path, p));
  await expectCount(member.page, 1);

  // A: the administrator finds it in the review queue, listens, approves and starts distribution.
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/releases?status=pending_approval");
  await page.getByRole("link", { name: SUBMIT_RELEASE.title }).click();
  await expect(page.getByRole("heading", { level: 1, name: SUBMIT_RELEASE.title })).toBeVisible();
  await expect(page.locator("audio[controls][preload=none]")).toHaveAttribute("src", /^\/storage\/audio\/\d+$/);
  await expect(page.getByRole("img", { name: `Cover art of ${SUBMIT_RELEASE.title}` })).toBeVisible();
  await app.hydrated();
  await page.getByRole("button", { name: "Approve release" }).click();
  await expect(flash(page)).toContainText(`“${SUBMIT_RELEASE.title}” is approved.`);

  await expectCount(member.page, 2);
  await openBell(member.page);
  await expect(item(member.page, "was approved and is ready for distribution")).toBeVisible();
  await expect(items(member.page)).toHaveCount(2);

  await page.getByRole("button", { name: "Start distribution" }).click();
  await expect(flash(page)).toContainText("is in distribution");
  await expect(page.getByRole("region", { name: "History" })).toContainText("In distribution");

  // The owner asks for a takedown (a reason is required); the administrator marks it done.
  await app.goto(statusPath, member.page);
  await member.page.getByRole("button", { name: "Request takedown" }).click();
  await expect(member.page.getByText("Say why the release should be taken down.")).toBeVisible();
  await member.page.getByLabel("Why should the release be taken down?").fill("The label bought the master back.");
  await member.page.getByRole("button", { name: "Request takedown" }).click();
  await expect(flash(member.page)).toContainText("The takedown is requested.");
  await expect(member.page.getByRole("region", { name: "History" })).toContainText("The label bought the master back.");

  await app.goto(page.url());
  await page.getByRole("button", { name: "Mark as taken down" }).click();
  await expect(flash(page)).toContainText("is marked as taken down");
  await expect(page.getByText("Taken down").first()).toBeVisible();
  await member.context.close();
});

test("an administrator rejects with reasons per field; the owner sees each beside its field", async ({ page, app, browser, browserErrors }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/admin/releases?q=${encodeURIComponent(REJECT_RELEASE.title)}`);
  await page.getByRole("link", { name: REJECT_RELEASE.title }).click();
  await app.hydrated();
  browserErrors.allowStatus(400);

  // No reason at all: refused, with the message beside the reasons.
  await page.getByRole("button", { name: "Reject with these reasons" }).click();
  await expect(page.getByText("Give the reason beside at least one field.")).toBeVisible();

  await page.getByLabel("Reason: Cover art").fill("The cover shows a website address.");
  await page.getByLabel("Reason: Release date").fill("Pick a Friday.");
  await page.getByRole("button", { name: "Reject with these reasons" }).click();
  await expect(flash(page)).toContainText("is rejected");
  await expect(page.getByRole("region", { name: "Reviewer's reasons" })).toContainText("The cover shows a website address.");

  const owner = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, RELEASE_MEMBERS.rejected, RELEASE_PASSWORD, owner.page);
  await app.goto(`/member/${memberId}/releases/${RELEASE_ARTISTS.reject.username}/${REJECT_RELEASE.slug}`, owner.page);
  const reasons = owner.page.getByRole("region", { name: "Reviewer's reasons" });
  await expect(reasons).toContainText("Cover art: The cover shows a website address.");
  await expect(reasons).toContainText("Release date: Pick a Friday.");
  await reasons.getByRole("link", { name: "Cover art" }).click();
  await expect(owner.page).toHaveURL(new RegExp(`/member/${memberId}/release-profile/\\d+#field-cover$`));
  await expect(owner.page.getByText("Reviewer: The cover shows a website address.")).toBeVisible();
  await expect(owner.page.getByText("Reviewer: Pick a Friday.")).toBeVisible();
  await owner.context.close();
});

test("admin pages turn a member away", async ({ page, app }) => {
  await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  await page.goto("/admin/release-profile/1");
  await expect(page).not.toHaveURL(/\/admin\//);
  await page.goto("/admin/releases");
  await expect(page).not.toHaveURL(/\/admin\//);
});

test("admin pages: an unknown release is 404; the list filters by status", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  expect((await page.goto("/admin/release-profile/99999999"))!.status()).toBe(404);
  await app.goto("/admin/releases");
  await page.getByLabel("Status").selectOption("in_distribution");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/status=in_distribution/);
  await expect(page.getByRole("link", { name: "Late Trains" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Winter Platforms" })).toHaveCount(0);
});
