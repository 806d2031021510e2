import type { Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { EXPLICIT_RELEASE, NEW_TRACKS_RELEASE, PLAIN_TRACKS_RELEASE, RELEASE_ARTISTS, RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { expect, test } from "../support/test";

/**
 * The distribution flow's Tracks step makes a new track in place (title, ISRC or "assign one", writers, audio
 * uploaded with a progress bar), with and without JavaScript; a release not marked explicit that holds an explicit
 * track is stopped by its own reason code, in the preflight, at submission (one problem box) and in review; after
 * submission the release page says what happens next; the seven-step bar fits at 1280 px and on a phone.
 */
test.describe.configure({ timeout: 120_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const currentStep = (page: Page) => page.getByRole("navigation", { name: "Distribution steps" }).locator('[aria-current="step"]');

/** A WAV of silence: `seconds` long, 16-bit / 44.1 kHz stereo unless told otherwise. */
function wav({ seconds = 1, bitDepth = 16 }: { seconds?: number; bitDepth?: number } = {}): Buffer {
  const channels = 2;
  const sampleRate = 44_100;
  const blockAlign = (channels * bitDepth) / 8;
  const data = Buffer.alloc(Math.round(sampleRate * seconds) * blockAlign);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitDepth, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Opens the member's draft from the flow's first step, then the step named. */
async function openDraftStep(page: Page, app: { goto: (path: string, page?: Page) => Promise<unknown> }, memberId: number, title: string, step: RegExp) {
  await app.goto(`/member/${memberId}/digital-distribution/start`);
  await page.getByRole("link", { name: `Continue “${title}”` }).click();
  await page.getByRole("navigation", { name: "Distribution steps" }).getByRole("link", { name: step }).click();
}

test("a new track is made on the Tracks step, its audio uploaded with progress; bad input stays beside its field", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const memberId = await logInMember(app, RELEASE_MEMBERS.newtracks, RELEASE_PASSWORD);
  await openDraftStep(page, app, memberId, NEW_TRACKS_RELEASE.title, /Tracks and audio/);
  await expect(currentStep(page)).toContainText("Tracks and audio");
  await app.hydrated();
  const newTrack = page.getByRole("region", { name: "New track" });
  await expect(page.getByText("No tracks yet")).toBeVisible();

  // Watch for the progress bar while the audio is sent (it may be brief on a local server).
  await page.evaluate(() => {
    const w = window as unknown as { __sawProgress?: boolean };
    new MutationObserver(() => {
      if (document.querySelector('progress[aria-label="Uploading the track\'s audio"]')) w.__sawProgress = true;
    }).observe(document.body, { childList: true, subtree: true });
  });

  // A bad ISRC: refused beside its field, the title kept, nothing added.
  await newTrack.getByLabel("Title").fill("First Light");
  await newTrack.getByLabel("I have one").check();
  await newTrack.getByLabel("ISRC", { exact: true }).fill("NOT-AN-ISRC");
  await newTrack.getByRole("button", { name: "Add the new track" }).click();
  await expect(newTrack.getByLabel("ISRC", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(newTrack.getByLabel("Title")).toHaveValue("First Light");
  await expect(page.getByRole("list", { name: "Tracks" })).toHaveCount(0);

  // An 8-bit file: refused beside the audio field.
  await newTrack.getByLabel("ISRC", { exact: true }).fill("QZ-K6P-26-00001");
  await newTrack.getByLabel("Written by (optional)").fill("Nia Nights, Sam Stone");
  await newTrack.getByLabel("Audio (WAV or FLAC)").setInputFiles({ name: "first-light.wav", mimeType: "audio/wav", buffer: wav({ bitDepth: 8 }) });
  await newTrack.getByRole("button", { name: "Add the new track" }).click();
  await expect(newTrack.locator("#new-track-audio").locator("xpath=..")).toContainText("stores need at least 16-bit / 44.1 kHz");
  await expect(newTrack.getByLabel("Audio (WAV or FLAC)")).toHaveAttribute("aria-invalid", "true");

  // Right: the song is made with its ISRC, writers and audio, and added; the progress bar showed on the way.
  await newTrack.getByLabel("Audio (WAV or FLAC)").setInputFiles({ name: "first-light.wav", mimeType: "audio/wav", buffer: wav({ seconds: 20 }) });
  await newTrack.getByRole("button", { name: "Add the new track" }).click();
  await expect(flash(page)).toContainText("“First Light” is added with its audio (WAV, 16-bit / 44.1 kHz).");
  expect(await page.evaluate(() => (window as unknown as { __sawProgress?: boolean }).__sawProgress)).toBe(true);
  const tracks = page.getByRole("list", { name: "Tracks" });
  await expect(tracks.getByRole("listitem")).toHaveCount(1);
  await expect(tracks).toContainText("1. First Light");
  await expect(tracks).toContainText("QZK6P2600001");
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("WAV · 16-bit / 44.1 kHz · 0:20");
  // The form is empty again for the next one.
  await expect(page.getByRole("region", { name: "New track" }).getByLabel("Title")).toHaveValue("");

  // A second one, its ISRC assigned at submission and its audio to come.
  await page.getByRole("region", { name: "New track" }).getByLabel("Title").fill("Second Wind");
  await page.getByRole("region", { name: "New track" }).getByRole("button", { name: "Add the new track" }).click();
  await expect(flash(page)).toContainText("“Second Wind” is added: upload its audio before you submit.");
  await expect(tracks.getByRole("listitem")).toHaveCount(2);
  await expect(tracks.getByRole("listitem").nth(1)).toContainText("ISRC assigned at submission");
  await expect(tracks.getByRole("listitem").nth(1)).toContainText("No audio yet");

  // The song's page has the writers, with equal shares.
  await tracks.getByRole("link", { name: "First Light" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "First Light" })).toBeVisible();
  await expect(page.getByLabel("Writer 1")).toHaveValue("Nia Nights");
  await expect(page.getByLabel("Writer 2")).toHaveValue("Sam Stone");
  await expect(page.getByLabel("Share %").first()).toHaveValue("50");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the new track's form posts with its audio; a missing title is refused beside the field", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const memberId = await logInMember(app, RELEASE_MEMBERS.newtracks, RELEASE_PASSWORD);
    await openDraftStep(page, app, memberId, PLAIN_TRACKS_RELEASE.title, /Tracks and audio/);
    const newTrack = page.getByRole("region", { name: "New track" });
    await newTrack.getByLabel("Audio (WAV or FLAC)").setInputFiles({ name: "plain.wav", mimeType: "audio/wav", buffer: wav() });
    await newTrack.getByRole("button", { name: "Add the new track" }).click();
    await expect(page.getByRole("region", { name: "New track" }).getByText("Enter the track's title.")).toBeVisible();
    await page.getByRole("region", { name: "New track" }).getByLabel("Title").fill("Plain Song");
    await page
      .getByRole("region", { name: "New track" })
      .getByLabel("Audio (WAV or FLAC)")
      .setInputFiles({ name: "plain.wav", mimeType: "audio/wav", buffer: wav() });
    await page.getByRole("region", { name: "New track" }).getByRole("button", { name: "Add the new track" }).click();
    await expect(flash(page)).toContainText("“Plain Song” is added with its audio");
    await expect(page).toHaveURL(/step=tracks&done=new-track-\d+$/);
    await expect(page.getByRole("list", { name: "Tracks" })).toContainText("Plain Song");
  });
});

test("a release not marked explicit with an explicit track: its reason code in preflight, at submission (one box) and in review; fixed, submitted, the release page says what comes next", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  browserErrors.allowStatus(400);
  const memberId = await logInMember(app, RELEASE_MEMBERS.wizard, RELEASE_PASSWORD);
  await openDraftStep(page, app, memberId, EXPLICIT_RELEASE.title, /Preflight/);
  const releaseId = Number(new URL(page.url()).searchParams.get("release"));
  const preflight = page.getByRole("region", { name: "Preflight check" });
  const problem = preflight.locator('[data-code="release_not_explicit_with_explicit_track"]');
  await expect(problem).toContainText("“Loud Harbour” is marked explicit: mark the release explicit (parental advisory), or the track clean if it is.");
  await expect(problem.getByRole("link", { name: "Fix" })).toHaveAttribute("href", /step=details#field-parental_advisory$/);
  await expect(preflight).toContainText("1 problem blocks submission");

  // In review: an administrator sees the same reason.
  const admin = await otherBrowser(browser, browserErrors);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD, { page: admin.page });
  await app.goto(`/admin/release-profile/${releaseId}`, admin.page);
  await expect(admin.page.locator('[data-code="release_not_explicit_with_explicit_track"]')).toBeVisible();
  await admin.context.close();

  // Submitting is refused: one box says why, no second list or alert.
  await page
    .getByRole("navigation", { name: "Distribution steps" })
    .getByRole("link", { name: /Submit/ })
    .click();
  await app.hydrated();
  await page.getByRole("button", { name: "Submit for review" }).click();
  const refused = page.getByRole("region", { name: "Why the submission was refused" });
  await expect(refused).toContainText("Not submitted: 1 problem blocks submission");
  await expect(refused.locator('[data-code="release_not_explicit_with_explicit_track"]')).toBeVisible();
  await expect(page.getByText(/problems? blocks? submission/)).toHaveCount(1);
  await expect(page.locator("main").getByRole("alert")).toHaveCount(1);
  await expect(page.getByText("Your draft is saved at every step.")).toBeVisible();

  // Fixed where the link says, then submitted.
  await refused.getByRole("link", { name: "Fix" }).click();
  await expect(currentStep(page)).toContainText("Release details");
  await page.getByLabel("Explicit (parental advisory): at least one track is explicit").check();
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(flash(page)).toContainText("The release's details are saved.");
  await page
    .getByRole("navigation", { name: "Distribution steps" })
    .getByRole("link", { name: /Submit/ })
    .click();
  await expect(page.getByRole("region", { name: "Still to fix" })).toContainText("Everything the stores need is there.");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(flash(page)).toContainText("“Loud Harbour” is submitted for review.");

  // The release page: where it stands, what comes next, its tracks, stores and territories.
  await expect(page).toHaveURL(`/member/${memberId}/releases/${RELEASE_ARTISTS.wizard.username}/${EXPLICIT_RELEASE.slug}`);
  const status = page.getByRole("region", { name: "Where it stands" });
  await expect(status).toContainText("Submitted: an administrator is reviewing it");
  await expect(status).toContainText("What happens next");
  await expect(status).toContainText("delivered to the 2 stores you chose");
  const tracks = page.getByRole("region", { name: "Tracks" });
  await expect(tracks.getByRole("listitem")).toHaveCount(1);
  await expect(tracks).toContainText("1. Loud Harbour");
  await expect(tracks).toContainText(/ISRC [A-Z]{2}[A-Z0-9]{3}\d{7}/);
  await expect(tracks.getByLabel("Listen to Loud Harbour")).toHaveCount(1);
  const stores = page.getByRole("region", { name: "Stores and territories" });
  await expect(stores).toContainText("Spotify, Apple Music / iTunes");
  await expect(stores).toContainText("Worldwide");

  // The flow shows it is no longer a draft, without saying the draft is saved.
  await app.goto(`/member/${memberId}/digital-distribution/start?release=${releaseId}&step=details`);
  await expect(page.getByText("This release is no longer a draft")).toBeVisible();
  await expect(page.getByText("Your draft is saved at every step.")).toHaveCount(0);
});

test("the seven-step bar fits: every label whole at 1280 px, the numbers and the current step on a phone", async ({ page, app }) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.newtracks, RELEASE_PASSWORD);
  for (const width of [1280, 1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await openDraftStep(page, app, memberId, NEW_TRACKS_RELEASE.title, /Tracks and audio/);
    const nav = page.getByRole("navigation", { name: "Distribution steps" });
    const fits = await nav.evaluate((el) => {
      const list = el.querySelector("ol")!;
      const items = [...list.querySelectorAll("li")];
      // Text cut off by its box (overflow hidden or scrolling); the screen-reader-only labels (1 px boxes) are meant so.
      const clipped = [...el.querySelectorAll("*")].filter(
        (node) => node.clientWidth > 1 && node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== "visible",
      ).length;
      const outside = items.filter((li) => li.getBoundingClientRect().right > window.innerWidth + 0.5 || li.getBoundingClientRect().left < -0.5).length;
      return {
        items: items.length,
        listScrolls: list.scrollWidth > list.clientWidth + 1,
        clipped,
        outside,
        pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
    expect(fits, `at ${width} px`).toEqual({ items: 7, listScrolls: false, clipped: 0, outside: 0, pageScrolls: false });
    if (width >= 640) {
      await expect(nav.getByText("Stores and territories")).toBeVisible();
      await expect(nav.getByText("Submit", { exact: true })).toBeVisible();
    } else {
      await expect(nav.getByText("Step 3 of 7: Tracks and audio")).toBeVisible();
      await expect(nav.getByRole("link", { name: "Submit" })).toBeVisible();
    }
  }
});
