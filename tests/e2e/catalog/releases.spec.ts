import { logInMember, solidImage } from "../support/account-admin-helpers";
import { RELEASE_ARTISTS, RELEASE_MEMBERS, RELEASE_PASSWORD, SUBMIT_RELEASE } from "../support/release-accounts";
import { expect, test } from "../support/test";

/**
 * The member's release pages: the list, the editor (details, tracks, cover art, stores and
 * territories) and the status page. Each test owns its accounts (support/release-accounts.ts).
 */
test.describe.configure({ timeout: 60_000 });

const flash = (page: import("@playwright/test").Page) => page.locator('[role="status"][aria-live="polite"]');
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test("guards: signed out goes to log in; another member's release and area answer 404", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await page.goto("/member/1/releases");
  await expect(page).toHaveURL(/\/login/);

  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  const submit = RELEASE_ARTISTS.submit;
  expect((await page.goto(`/member/${strangerId}/releases/${submit.username}/${SUBMIT_RELEASE.slug}`))!.status()).toBe(404);
  expect((await page.goto(`/member/${strangerId}/release-profile/99999999`))!.status()).toBe(404);
  expect((await page.goto(`/member/${strangerId}/release-profile/abc`))!.status()).toBe(404);
  // Someone else's member area.
  expect((await page.goto(`/member/${strangerId === 1 ? 2 : 1}/releases`))!.status()).toBe(404);
  // The stranger's own list is empty, and the new-release page says an artist page is needed.
  await app.goto(`/member/${strangerId}/releases`);
  await expect(page.getByText("No releases yet.")).toBeVisible();
  await app.goto(`/member/${strangerId}/release-profile/new`);
  await expect(page.getByText("You need an artist page first")).toBeVisible();
  // The admin pages are not for members.
  await page.goto("/admin/releases");
  await expect(page).not.toHaveURL(/\/admin\//);
});

test("a member creates a release, adds and orders tracks, uploads cover art and chooses stores", async ({ page, app }) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.creator, RELEASE_PASSWORD);
  await app.goto(`/member/${memberId}/releases`);
  await page.getByRole("link", { name: "New release" }).click();
  await expect(page.getByRole("heading", { name: "New release" })).toBeVisible();
  await app.hydrated();

  await page.getByLabel("Title", { exact: true }).fill("Sunrise Drive");
  await page.getByLabel("Release type").selectOption("single");
  await page.getByLabel("Label", { exact: true }).fill("Hounds Records");
  await page.getByLabel("℗ line (sound recording owner)").fill("℗ 2027 Happy Path Hounds");
  await page.getByLabel("© line (artwork owner)").fill("© 2027 Happy Path Hounds");
  await page.getByLabel("Primary genre").selectOption({ index: 1 });
  await page.getByLabel("Language").selectOption({ label: "English" });
  await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(30));
  await page.getByRole("button", { name: "Create release" }).click();
  await expect(flash(page)).toContainText("“Sunrise Drive” is saved as a draft.");
  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/release-profile/\\d+$`));
  await expect(page.getByRole("heading", { level: 1, name: "Sunrise Drive" })).toBeVisible();

  // Tracks: two songs, then the second moved to the top.
  for (const title of ["Open Road", "Gravel Hymn"]) {
    await page.getByLabel("Add a song").selectOption({ label: `${title} · 3:21` });
    await page.getByRole("button", { name: "Add track" }).click();
    await expect(flash(page)).toContainText("The track is added.");
  }
  const tracks = page.getByRole("list", { name: "Tracks", exact: true }).getByRole("listitem");
  await expect(tracks).toHaveCount(2);
  await page.getByRole("button", { name: "Move “Gravel Hymn” up" }).click();
  await expect(flash(page)).toContainText("The track is moved.");
  await expect(tracks.first()).toContainText("1. Gravel Hymn");
  await expect(tracks.nth(1)).toContainText("2. Open Road");

  // Cover art: a 1400 square JPEG is accepted with the 3000 recommendation.
  await page.locator("#field-cover").setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: await solidImage("jpeg", 1400, 1400) });
  await page.getByRole("button", { name: "Upload cover art" }).click();
  await expect(flash(page)).toContainText("The cover art is saved.");
  await expect(page.getByRole("img", { name: "Cover art of Sunrise Drive" })).toBeVisible();

  // Stores and territories.
  await page.getByLabel("Spotify").check();
  await page.getByLabel("TIDAL").check();
  await page.getByLabel("Worldwide").check();
  await page.getByRole("button", { name: "Save stores and territories" }).click();
  await expect(flash(page)).toContainText("Stores and territories are saved.");
  await expect(page.getByLabel("Spotify")).toBeChecked();

  // Nothing blocks submission now.
  await expect(page.getByText("Everything the stores need is there.")).toBeVisible();

  // The list finds it by title and by status.
  await app.goto(`/member/${memberId}/releases?q=sunrise&status=draft`);
  await expect(page.getByRole("link", { name: "Sunrise Drive", exact: true })).toBeVisible();
  await app.goto(`/member/${memberId}/releases?q=nothing-like-this`);
  await expect(page.getByText("No releases match this search.")).toBeVisible();
});

test("bad input: errors beside each field, values kept; a non-square cover and no song chosen are refused", async ({ page, app, browserErrors }) => {
  // Refused forms answer 400 (their data request shows as a failed resource in the console).
  browserErrors.allowStatus(400);
  const memberId = await logInMember(app, RELEASE_MEMBERS.invalid, RELEASE_PASSWORD);
  await app.goto(`/member/${memberId}/release-profile/new`);
  await page.getByLabel("Title", { exact: true }).fill("Too Soon");
  await page.getByLabel("UPC / EAN (optional)").fill("196589000010");
  await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(2));
  await page.getByRole("button", { name: "Create release" }).click();
  await expect(page.getByText("A new release date must be at least 7 days ahead")).toBeVisible();
  await expect(page.getByText("The UPC's check digit is wrong: expected 9.")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Too Soon");
  await expect(page.getByLabel("Release date", { exact: true })).toHaveAttribute("aria-invalid", "true");

  // A re-release without its original date.
  await page.getByLabel("This release came out before (a re-release)").check();
  await page.getByRole("button", { name: "Create release" }).click();
  await expect(page.getByText("A re-release needs the date it was first released.")).toBeVisible();

  // Corrected: the release is made.
  await page.getByLabel("This release came out before (a re-release)").uncheck();
  await page.getByLabel("UPC / EAN (optional)").fill("");
  await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(10));
  await page.getByRole("button", { name: "Create release" }).click();
  await expect(flash(page)).toContainText("is saved as a draft");

  await page.getByRole("button", { name: "Add track" }).click();
  await expect(page.getByText("Choose a song.")).toBeVisible();

  await page.locator("#field-cover").setInputFiles({ name: "wide.jpg", mimeType: "image/jpeg", buffer: await solidImage("jpeg", 1600, 1400) });
  await page.getByRole("button", { name: "Upload cover art" }).click();
  await expect(page.getByText("Cover art must be square; this image is 1600x1400 pixels.")).toBeVisible();
  await page.locator("#field-cover").setInputFiles({ name: "small.png", mimeType: "image/png", buffer: await solidImage("png", 800, 800) });
  await page.getByRole("button", { name: "Upload cover art" }).click();
  await expect(page.getByText("Cover art must be at least 1400x1400 pixels")).toBeVisible();

  // The submission is refused with the preflight's problems and links to fix them.
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByRole("region", { name: "Why the submission was refused" })).toContainText("Add at least one track.");
  await expect(page.getByRole("region", { name: "Why the submission was refused" }).getByRole("link", { name: "Fix" }).first()).toHaveAttribute(
    "href",
    new RegExp(`/member/${memberId}/release-profile/\\d+#field-`),
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the status page shows the preflight and history of the owner's release", async ({ page, app }) => {
    const memberId = await logInMember(app, RELEASE_MEMBERS.invalid, RELEASE_PASSWORD);
    await app.goto(`/member/${memberId}/release-profile/new`);
    await page.getByLabel("Title", { exact: true }).fill("No Script Songs");
    await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(20));
    await page.getByRole("button", { name: "Create release" }).click();
    await expect(flash(page)).toContainText("“No Script Songs” is saved as a draft.");
    await page.getByRole("link", { name: "Status and history" }).click();
    await expect(page).toHaveURL(new RegExp(`/member/${memberId}/releases/${RELEASE_ARTISTS.invalid.username}/no-script-songs$`));
    await expect(page.getByRole("heading", { level: 1, name: "No Script Songs" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Preflight check" })).toContainText("Upload the cover art");
    await expect(page.getByRole("region", { name: "History" })).toContainText("Draft by Rae Release invalid");
  });
});
