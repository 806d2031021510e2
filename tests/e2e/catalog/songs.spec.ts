import type { Page } from "@playwright/test";
import { logInMember } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { expect, test } from "../support/test";
import { wav } from "../../helpers/audio";

/**
 * The song pages: the list, the song profile (details, writers, audio), and the admin's view.
 */
test.describe.configure({ timeout: 60_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const writerRow = (page: Page, index: number) => page.getByRole("region", { name: "Writers" }).getByRole("listitem").nth(index);

async function newSong(page: Page, app: { goto: (path: string) => Promise<unknown> }, memberId: number, title: string) {
  await app.goto(`/member/${memberId}/songs`);
  await page.getByRole("link", { name: "New song" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New song" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Language").selectOption({ label: "English" });
  await page.getByRole("button", { name: "Create song" }).click();
  await expect(flash(page)).toContainText(`“${title}” is saved.`);
  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/song-profile/\\d+$`));
}

test("guards: signed out goes to log in; another member's song and area answer 404", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await page.goto("/member/2/songs");
  await expect(page).toHaveURL(/\/login/);
  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD);
  for (const path of [
    `/member/${strangerId}/song-profile/1`,
    `/member/${strangerId}/song-profile/abc`,
    `/member/${strangerId === 1 ? 2 : 1}/songs`,
    "/storage/audio/1",
  ]) {
    expect((await page.goto(path))!.status(), path).toBe(404);
  }
  await app.goto(`/member/${strangerId}/songs`);
  await expect(page.getByText("No songs yet.")).toBeVisible();
  await app.goto(`/member/${strangerId}/song-profile/new`);
  await expect(page.getByText("You need an artist page first")).toBeVisible();
  await page.goto("/admin/songs");
  await expect(page).not.toHaveURL(/\/admin\//);
});

test("a member creates a song, its writers and its audio, and hears it", async ({ page, app }) => {
  const memberId = await logInMember(app, RELEASE_MEMBERS.songwriter, RELEASE_PASSWORD);
  await newSong(page, app, memberId, "Lantern Light");
  await app.hydrated();

  // Writers: two rows of the spare ones.
  await writerRow(page, 0).getByLabel("Writer 1").fill("Sam Songwriter");
  await writerRow(page, 0).getByLabel("Share %").fill("60");
  await writerRow(page, 1).getByLabel("Writer 2").fill("Pat Partner");
  await writerRow(page, 1).getByLabel("Share %").fill("40");
  await writerRow(page, 1).getByLabel("IPI (optional)").fill("00123456789");
  await page.getByRole("button", { name: "Save writers" }).click();
  await expect(flash(page)).toContainText("The writers are saved.");
  await expect(writerRow(page, 1).getByLabel("Share %")).toHaveValue("40");

  // Audio: a real 16-bit / 44.1 kHz WAV.
  await page.locator("#field-audio").setInputFiles({ name: "lantern.wav", mimeType: "audio/wav", buffer: wav({ seconds: 2 }) });
  await page.getByRole("button", { name: "Upload audio" }).click();
  await expect(flash(page)).toContainText("The audio is saved: WAV, 16-bit / 44.1 kHz, 0:02.");
  const player = page.locator("audio[controls]");
  await expect(player).toHaveAttribute("src", /^\/storage\/audio\/\d+$/);
  const src = (await player.getAttribute("src"))!;
  const ranged = await page.request.get(src, { headers: { Range: "bytes=0-43" } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()["content-range"]).toMatch(/^bytes 0-43\/\d+$/);
  expect((await ranged.body()).subarray(0, 4).toString()).toBe("RIFF");

  // The list shows it complete, and finds it.
  await app.goto(`/member/${memberId}/songs?q=lantern`);
  const row = page.getByRole("list", { name: "Songs" }).getByRole("listitem");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Audio");
  await expect(row).toContainText("2 writers");
  await expect(row).toContainText("0:02");
});

test("bad input: a taken ISRC, shares off 100 %, a file that is not audio and an 8-bit file are refused beside their field", async ({
  page,
  app,
  browserErrors,
}) => {
  browserErrors.allowStatus(400);
  const memberId = await logInMember(app, RELEASE_MEMBERS.songwriter, RELEASE_PASSWORD);
  await newSong(page, app, memberId, "Wrong Notes");
  await app.hydrated();

  await page.getByLabel("ISRC (optional)").fill("USBL12600001");
  await page.getByLabel("Version (optional)").fill("Demo");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByText("Another recording already uses this ISRC")).toBeVisible();
  await expect(page.getByLabel("Version (optional)")).toHaveValue("Demo");

  await writerRow(page, 0).getByLabel("Writer 1").fill("Sam Songwriter");
  await writerRow(page, 0).getByLabel("Share %").fill("60");
  await writerRow(page, 1).getByLabel("Writer 2").fill("Pat Partner");
  await writerRow(page, 1).getByLabel("Share %").fill("30");
  await page.getByRole("button", { name: "Save writers" }).click();
  await expect(page.getByRole("region", { name: "Writers" })).toContainText("The shares total 90%: 10% short of 100%.");
  await expect(writerRow(page, 1).getByLabel("Writer 2")).toHaveValue("Pat Partner");

  await page.locator("#field-audio").setInputFiles({ name: "notes.wav", mimeType: "audio/wav", buffer: Buffer.from("these are words, not sound") });
  await page.getByRole("button", { name: "Upload audio" }).click();
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("This file is not a WAV or FLAC audio file.");
  await page.locator("#field-audio").setInputFiles({ name: "lofi.wav", mimeType: "audio/wav", buffer: wav({ bitDepth: 8 }) });
  await page.getByRole("button", { name: "Upload audio" }).click();
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("stores need at least 16-bit / 44.1 kHz");
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("No audio yet.");
});

test("an administrator finds a song in distribution and sees it locked", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/songs?q=northbound");
  await page.getByRole("link", { name: "Northbound" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Northbound" })).toBeVisible();
  await expect(page.getByText("it can no longer be changed")).toBeVisible();
  await expect(page.getByRole("region", { name: "Credits" })).toContainText("Paul Producer");
  await expect(page.getByRole("region", { name: "Credits" })).toContainText("Verified");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a song and its writers are saved with plain form posts", async ({ page, app }) => {
    const memberId = await logInMember(app, RELEASE_MEMBERS.songwriter, RELEASE_PASSWORD);
    await newSong(page, app, memberId, "Plain Post");
    await writerRow(page, 0).getByLabel("Writer 1").fill("Sam Songwriter");
    await writerRow(page, 0).getByLabel("Share %").fill("100");
    await page.getByRole("button", { name: "Save writers" }).click();
    await expect(flash(page)).toContainText("The writers are saved.");
    await expect(writerRow(page, 0).getByLabel("Writer 1")).toHaveValue("Sam Songwriter");
  });
});
