import type { Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { actionLink, mailsTo, waitForMail } from "../support/outbox";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { expect, test, uniqueEmail } from "../support/test";

/**
 * Song credits: the song's editor invites a producer by email; the mailed, signed link lets a
 * newcomer create the account and accept (the credit is then verified); a tampered link is refused; a
 * member's verified credits show on their provider profile, linking to the release page.
 */
test.describe.configure({ timeout: 90_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const credits = (page: Page) => page.getByRole("region", { name: "Credits" });
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

test("a producer is invited by email, creates the account from the link and the credit is verified", async ({ page, app, browser, browserErrors }) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.songwriter, RELEASE_PASSWORD);
  await app.goto(`/member/${memberId}/songs?q=old%20chorus`);
  await page.getByRole("link", { name: "Old Chorus" }).click();
  await app.hydrated();

  // A bad address is refused beside the field.
  browserErrors.allowStatus(400);
  await credits(page).getByLabel("Invite by email").fill("not-an-email");
  await credits(page).getByRole("button", { name: "Send invitation" }).click();
  await expect(credits(page).getByText("Enter a valid email address, like name@example.com.")).toBeVisible();

  const email = uniqueEmail("credit-producer");
  const before = mailsTo(email).length;
  await credits(page).getByLabel("Invite by email").fill(email);
  await credits(page).getByLabel("As").selectOption("producer");
  await credits(page).getByRole("button", { name: "Send invitation" }).click();
  await expect(flash(page)).toContainText(`${email} is invited as producer.`);
  await expect(credits(page).getByRole("list", { name: "Credits" })).toContainText("Invited");
  const link = pathOf(actionLink(await waitForMail(email, { subject: /credited you on “Old Chorus” on Backline$/, after: before })));
  expect(link).toMatch(/^\/song-producer-invite\/[0-9a-f-]{36}\?/);

  // A visitor: a tampered link is refused; the real one offers to create the account.
  const visitor = await otherBrowser(browser, browserErrors);
  browserErrors.allowStatus(403);
  await visitor.page.goto(link.replace(/signature=./, "signature=x"));
  await expect(visitor.page.getByRole("alert")).toHaveText("Invalid signature.");
  await visitor.page.goto(link);
  await expect(visitor.page.getByText(`as producer on “Old Chorus”`)).toBeVisible();
  await visitor.page.getByLabel("First name").fill("Pia");
  await visitor.page.getByLabel("Last name").fill("Producer");
  await visitor.page.getByLabel("Password", { exact: true }).fill("a-good-password");
  await visitor.page.getByLabel("Repeat password").fill("a-good-password");
  await visitor.page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await visitor.page.getByRole("button", { name: "Create account and accept" }).click();
  await expect(visitor.page).toHaveURL(/\/member\/\d+\/dashboard$/);
  await expect(flash(visitor.page)).toContainText("the credit is accepted and verified");
  await visitor.context.close();

  // The owner sees it verified, and can withdraw it.
  await page.reload();
  await expect(credits(page).getByRole("list", { name: "Credits" })).toContainText("Pia Producer");
  await expect(credits(page).getByRole("list", { name: "Credits" })).toContainText("Verified");
  await credits(page)
    .getByRole("button", { name: `Withdraw the credit of ${email}` })
    .click();
  await expect(flash(page)).toContainText("The credit is withdrawn.");
  await expect(credits(page).getByRole("list", { name: "Credits" })).toContainText("Withdrawn");
});

test("a member's verified credits show on their provider profile and lead to the release page", async ({ page, app }) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  await app.goto(`/member/${memberId}/music-producers/paul-beats`);
  const section = page.getByRole("region", { name: "Verified credits" });
  await expect(section).toContainText("Producer on “Late Trains”");
  await expect(section).toContainText("Northbound");
  await section.getByRole("link", { name: "Late Trains" }).click();
  await expect(page).toHaveURL(`/member/${memberId}/release-page/midnight-owls/late-trains`);
  await expect(page.getByRole("heading", { level: 1, name: "Late Trains" })).toBeVisible();
});

test("guards: another member cannot invite on a song that is not theirs; an unknown invitation is refused", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(403);
  browserErrors.allowStatus(404);
  // Logging the second member in replaces the session under the owner's open page, whose live connection may
  // then ask /broadcasting/auth once more and be told 401 (correctly: that session is gone).
  browserErrors.allowStatus(401);
  const ownerId = await logInMember(app, RELEASE_MEMBERS.songwriter, RELEASE_PASSWORD);
  await app.goto(`/member/${ownerId}/songs?q=old%20chorus`);
  const href = await page.getByRole("link", { name: "Old Chorus" }).getAttribute("href");
  const songId = href!.split("/").pop();

  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  const post = await page.request.post(`/member/${strangerId}/song-profile/${songId}`, {
    form: { intent: "credit-invite", email: uniqueEmail("credit-guard"), role: "producer" },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(404);

  // Without a valid signature, the invitation page says so before anything else.
  await page.goto("/song-featured-artist-invite/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("alert")).toHaveText("Invalid signature.");
});
