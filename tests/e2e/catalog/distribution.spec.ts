import type { Page } from "@playwright/test";
import { logInMember, otherBrowser, solidImage } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { RELEASE_ARTISTS, RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { expect, test } from "../support/test";

/**
 * digital-distribution/start: the guided flow over one draft, step by step (artist, details,
 * tracks and audio, cover, stores and territories, preflight, submit), with and without JavaScript.
 */
test.describe.configure({ timeout: 90_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const currentStep = (page: Page) => page.getByRole("navigation", { name: "Distribution steps" }).locator('[aria-current="step"]');
const flowUrl = (memberId: number, step: string) => new RegExp(`/member/${memberId}/digital-distribution/start\\?release=\\d+&step=${step}$`);

test("guards: signed out goes to log in; another member's draft and area answer 404", async ({ page, app, browser, browserErrors }) => {
  browserErrors.allowStatus(404);
  await page.goto("/member/2/digital-distribution/start");
  await expect(page).toHaveURL(/\/login/);

  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  expect((await page.goto(`/member/${strangerId === 1 ? 2 : 1}/digital-distribution/start`))!.status()).toBe(404);
  expect((await page.goto(`/member/${strangerId}/digital-distribution/start?release=abc&step=details`))!.status()).toBe(404);
  // Without an artist page, the first step says what is needed.
  await app.goto(`/member/${strangerId}/digital-distribution/start`);
  await expect(page.getByText("A release comes out under an artist page you own or may edit, and you have none yet.")).toBeVisible();

  // A draft of someone else: 404 for the stranger.
  const owner = await otherBrowser(browser, browserErrors);
  const ownerId = await logInMember(app, RELEASE_MEMBERS.noscript, RELEASE_PASSWORD, owner.page);
  await app.goto(`/member/${ownerId}/digital-distribution/start`, owner.page);
  await owner.page.getByLabel("Release title").fill("Not Yours");
  await owner.page.getByRole("button", { name: "Save and continue" }).click();
  await expect(owner.page).toHaveURL(flowUrl(ownerId, "details"));
  const releaseId = new URL(owner.page.url()).searchParams.get("release");
  await owner.context.close();
  expect((await page.goto(`/member/${strangerId}/digital-distribution/start?release=${releaseId}&step=details`))!.status()).toBe(404);
});

test("a member distributes a release through the seven steps; an administrator approves it and its delivery package is built", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.distributor, RELEASE_PASSWORD);
  // The member menu's Release Music entry opens the flow.
  await app.goto(`/member/${memberId}/dashboard`);
  await page.getByRole("link", { name: "Release Music" }).first().click();
  await expect(page).toHaveURL(`/member/${memberId}/digital-distribution/start`);
  await expect(currentStep(page)).toContainText("Artist");
  await app.hydrated();

  // 1. Artist (the only one is chosen already), title and type.
  await expect(page.getByLabel("Artist page")).toHaveValue(/\d+/);
  await page.getByLabel("Release title").fill("Night Ferry");
  await page.getByLabel("Release type").selectOption("single");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(flash(page)).toContainText("“Night Ferry” is saved as a draft.");

  // 2. Details.
  await expect(page).toHaveURL(flowUrl(memberId, "details"));
  await expect(currentStep(page)).toContainText("Release details");
  await page.getByLabel("Label", { exact: true }).fill("Fireflies Records");
  await page.getByLabel("℗ line (sound recording owner)").fill("℗ 2027 Flow Fireflies");
  await page.getByLabel("© line (artwork owner)").fill("© 2027 Flow Fireflies");
  await page.getByLabel("Primary genre").selectOption({ index: 1 });
  await page.getByLabel("Language").selectOption({ label: "English" });
  await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(30));
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(flash(page)).toContainText("The release's details are saved.");

  // 3. Tracks and audio.
  await expect(page).toHaveURL(flowUrl(memberId, "tracks"));
  await page.getByLabel("Add a song").selectOption({ label: "Night Ferry · 3:21" });
  await page.getByRole("button", { name: "Add track" }).click();
  await expect(flash(page)).toContainText("The track is added.");
  await expect(page).toHaveURL(flowUrl(memberId, "tracks"));
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("WAV · 24-bit / 48 kHz");
  await page.getByRole("link", { name: "Continue" }).click();

  // 4. Cover.
  await expect(page).toHaveURL(flowUrl(memberId, "cover"));
  await page.locator("#field-cover").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: await solidImage("png", 1400, 1400) });
  await page.getByRole("button", { name: "Upload cover art" }).click();
  await expect(flash(page)).toContainText("The cover art is saved.");
  await expect(page).toHaveURL(flowUrl(memberId, "stores"));

  // 5. Stores and territories.
  await page.getByLabel("Spotify").check();
  await page.getByLabel("Worldwide").check();
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(flash(page)).toContainText("Stores and territories are saved.");

  // 6. Preflight: nothing blocks.
  await expect(page).toHaveURL(flowUrl(memberId, "preflight"));
  await expect(page.getByText("Everything the stores need is there.")).toBeVisible();
  await page.getByRole("link", { name: "Continue", exact: true }).click();

  // 7. Submit: the status page shows it pending.
  await expect(page).toHaveURL(flowUrl(memberId, "submit"));
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(flash(page)).toContainText("“Night Ferry” is submitted for review.");
  await expect(page).toHaveURL(`/member/${memberId}/releases/${RELEASE_ARTISTS.flow.username}/night-ferry`);
  await expect(page.getByText("Pending approval").first()).toBeVisible();

  // The flow no longer edits it.
  await page.goBack();
  await page.reload();
  await expect(page.getByText("it can no longer be changed here")).toBeVisible();

  // An administrator reviews it: the preflight is clean, approval builds the delivery package.
  const admin = await otherBrowser(browser, browserErrors);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD, { page: admin.page });
  await app.goto("/admin/releases?status=pending_approval&q=night%20ferry", admin.page);
  await admin.page.getByRole("link", { name: "Night Ferry" }).click();
  await expect(admin.page.getByRole("img", { name: "Cover art of Night Ferry" })).toBeVisible();
  await admin.page.getByRole("button", { name: "Approve release" }).click();
  await expect(flash(admin.page)).toContainText("“Night Ferry” is approved.");
  const packages = admin.page.getByRole("list", { name: "Delivery packages" }).getByRole("listitem");
  await expect(packages).toHaveCount(1);
  const download = await admin.page.request.get((await packages.getByRole("link").getAttribute("href"))!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/zip");
  await admin.context.close();

  // The member's status page shows it approved (the notification is covered live in release-review.spec.ts).
  await app.goto(`/member/${memberId}/releases/${RELEASE_ARTISTS.flow.username}/night-ferry`);
  await expect(page.getByText("Ready for distribution", { exact: true }).first()).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("each step posts and saves; bad input is refused beside its field with the values kept; preflight links to the step", async ({
    page,
    app,
    browserErrors,
  }) => {
    browserErrors.allowStatus(400);
    const memberId = await logInMember(app, RELEASE_MEMBERS.noscript, RELEASE_PASSWORD);
    await app.goto(`/member/${memberId}/digital-distribution/start`);

    // No title: refused beside the field.
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page.getByText("Enter the release's title.")).toBeVisible();

    await page.getByLabel("Release title").fill("Paper Lantern");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(flash(page)).toContainText("“Paper Lantern” is saved as a draft.");
    await expect(page).toHaveURL(flowUrl(memberId, "details"));

    // A date too soon: refused, the label kept.
    await page.getByLabel("Label", { exact: true }).fill("Pelican Press");
    await page.getByLabel("Release date", { exact: true }).fill(daysFromNow(2));
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page.getByText("at least 7 days ahead")).toBeVisible();
    await expect(page.getByLabel("Label", { exact: true })).toHaveValue("Pelican Press");
    await expect(page).toHaveURL(flowUrl(memberId, "details"));

    // Stores: none chosen is refused.
    const stores = new URL(page.url());
    stores.searchParams.set("step", "stores");
    await app.goto(stores.pathname + stores.search);
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page.getByText("Choose at least one store.")).toBeVisible();

    // The preflight lists what is missing, each linking to the step that fixes it.
    await page.getByRole("link", { name: /Preflight/ }).click();
    const preflight = page.getByRole("region", { name: "Preflight check" });
    await expect(preflight).toContainText("Add at least one track.");
    await expect(preflight.getByRole("link", { name: "Fix" }).first()).toHaveAttribute("href", /\/digital-distribution\/start\?release=\d+&step=\w+#field-/);

    // Submitting now is refused with the reasons.
    await page.getByRole("link", { name: /Submit/ }).click();
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByRole("region", { name: "Why the submission was refused" })).toContainText("Add at least one track.");

    // The draft is kept: the first step offers to continue it.
    await app.goto(`/member/${memberId}/digital-distribution/start`);
    await expect(page.getByRole("link", { name: "Continue “Paper Lantern”" })).toBeVisible();
  });
});
