import { logInMember } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { expect, test } from "../support/test";

/**
 * The release page, on the demo catalogue (DEMO.md): any member sees a release in distribution
 * with its tracklist, credits, tag and share links; a draft only its owner and administrators; others 404.
 */

const page404 = async (page: import("@playwright/test").Page, path: string) => expect((await page.goto(path))!.status()).toBe(404);

test("guards: signed out goes to log in; a draft, an unknown release and another member's area answer 404", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await page.goto(`/member/${DEMO_IDS.member}/release-page/midnight-owls/late-trains`);
  await expect(page).toHaveURL(/\/login/);

  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  await page404(page, `/member/${strangerId}/release-page/midnight-owls/winter-platforms`);
  await page404(page, `/member/${strangerId}/release-page/midnight-owls/no-such-release`);
  await page404(page, `/member/${strangerId}/release-page/no-such-artist/late-trains`);
  await page404(page, `/member/${DEMO_IDS.member}/release-page/midnight-owls/late-trains`);
  // The admin area's page is for administrators only.
  await page.goto("/admin/release-page/midnight-owls/late-trains");
  await expect(page).not.toHaveURL(/\/admin\//);
});

test("a member sees a published release: cover, tracklist with durations, credits, tag and share links", async ({ page, app }) => {
  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  // Slugs are matched case-insensitively.
  await app.goto(`/member/${strangerId}/release-page/Midnight-Owls/late-trains`);
  await expect(page.getByRole("heading", { level: 1, name: "Late Trains" })).toBeVisible();
  await expect(page).toHaveTitle("Rae Release stranger | Late Trains | Release | Backline");
  await expect(page.getByText("Published", { exact: true })).toBeVisible();
  await expect(page.getByText("Released March 6, 2026")).toBeVisible();
  const tracklist = page.getByRole("list", { name: "Tracklist" }).getByRole("listitem");
  await expect(tracklist).toHaveCount(4);
  await expect(tracklist.first()).toContainText("Late Trains");
  await expect(tracklist.first()).toContainText(/\d+:\d\d/);
  await expect(tracklist.first()).toContainText("Produced by Paul Producer");
  await expect(tracklist.nth(3)).toContainText("Nashville Rain");
  await expect(tracklist.nth(3)).toContainText("Cover");
  await expect(page.getByRole("region", { name: "Credits" })).toContainText("Produced by");
  await expect(page.getByRole("region", { name: "Credits" })).toContainText("196589000019");
  await expect(page.getByRole("link", { name: "Share on Facebook" })).toHaveAttribute("href", /facebook\.com/);
  // Not theirs: no way to manage it.
  await expect(page.getByRole("link", { name: "Manage this release" })).toHaveCount(0);
});

test("the owner sees a draft's page and manages it from there; an administrator reviews from the admin page", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto(`/member/${DEMO_IDS.member}/release-page/midnight-owls/winter-platforms`);
  await expect(page.getByRole("heading", { level: 1, name: "Winter Platforms" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Tracklist" }).getByRole("listitem")).toHaveCount(7);
  await page.getByRole("link", { name: "Manage this release" }).click();
  await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/releases/midnight-owls/winter-platforms`);
  // And back: the status page links to the release page.
  await page.getByRole("link", { name: "Release page" }).click();
  await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/release-page/midnight-owls/winter-platforms`);

  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/release-page/midnight-owls/northbound");
  await expect(page.getByRole("heading", { level: 1, name: "Northbound" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Tracklist" }).getByRole("listitem")).toHaveCount(1);
  await page.getByRole("link", { name: "Review this release" }).click();
  await expect(page).toHaveURL(/\/admin\/release-profile\/\d+$/);
});
