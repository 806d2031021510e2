import type { Page } from "@playwright/test";
import { otherBrowser } from "../support/account-admin-helpers";
import { actionLink, waitForMail } from "../support/outbox";
import { expiredLink } from "../support/signed-links";
import { expect as baseExpect, test, uniqueEmail, type App } from "../support/test";
import {
  PP_CARD_ARTIST,
  PP_CARD_OWNER,
  PP_CARD_SONG,
  PP_ENGINEER,
  PP_ENGINEER_NAME,
  PP_FRESH,
  PP_FRESH_NAME,
  PP_FRESH_SONG,
  PP_OWNER,
  PP_OWNER_NAME,
  PP_PASSWORD,
  PP_SONG,
  PP_THIRD,
} from "./accounts";

/**
 * Post-production jobs (decision 023): the owner sends a song to a member engineer at a price; the
 * engineer accepts; the owner pays it into escrow from their Backline balance (a fresh password confirmation);
 * the engineer moves a stage and uploads the mix; the owner listens and accepts it as the song's audio, which
 * releases the escrow to the engineer less the fee. An invited engineer receives
 * the signed link over the suite's SMTP listener, creates an account there and sees the job. A third member
 * gets 404; bad input shows beside the fields; the menu entry appears once there is a job.
 */
test.describe.configure({ timeout: 180_000 });

/** These flows hash passwords, read audio and send mail on each step: more patience than 5 s on two cores. */
const expect = baseExpect.configure({ timeout: 15_000 });

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const summaryValue = (page: Page, label: string) =>
  page
    .locator("dl[aria-label='Job summary'] div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");
const menuEntry = (page: Page) => page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Post Production Jobs", exact: true });

/** A real second of 16-bit / 44.1 kHz mono PCM silence: lossless audio a song can take. */
function oneSecondWav(): Buffer {
  const data = Buffer.alloc(44_100 * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(88_200, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function logIn(app: App, email: string, page?: Page): Promise<number> {
  const location = await app.logInQuickly(email, PP_PASSWORD, { page });
  const id = Number(/^\/member\/(\d+)\//.exec(location)?.[1]);
  expect(id, location).toBeGreaterThan(0);
  return id;
}

test("a member engineer: the owner sends a song, the engineer accepts and delivers, the owner accepts it as the song's audio; a third member gets 404", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  // The owner opens the song and sends it to post-production from its page.
  const ownerId = await logIn(app, PP_OWNER);
  await app.goto(`/member/${ownerId}/songs`);
  await page.getByRole("link", { name: PP_SONG }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: PP_SONG })).toBeVisible();
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("No audio yet.");
  await app.hydrated();
  await page.getByRole("link", { name: "Send to post-production" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Post Production Jobs" })).toBeVisible();
  await expect(page).toHaveTitle(`${PP_OWNER_NAME} | Post Production Jobs | Backline`);
  await app.hydrated();
  await expect(page.getByLabel("Song")).toHaveValue(/\d+/);
  await page.getByLabel("Service").selectOption({ label: "Mixing" });
  await page.getByLabel("Engineer's email").fill(PP_ENGINEER);
  await page.getByLabel("Price (USD)").fill("150.00");
  await page.getByLabel("Notes for the engineer").fill("Vocals up front, warm low end.");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(flash(page)).toContainText("The job is created: the engineer was asked to accept it.");
  await expect(page).toHaveURL(new RegExp(`/member/${ownerId}/post-production-job/\\d+\\?done=`));
  const jobId = Number(/post-production-job\/(\d+)/.exec(page.url())![1]);
  await expect(page.getByRole("heading", { level: 1, name: `Job #${jobId}` })).toBeVisible();
  await expect(page).toHaveTitle(`${PP_OWNER_NAME} | Job #${jobId} | Post Production Job | Backline`);
  await expect(summaryValue(page, "Engineer")).toHaveText(PP_ENGINEER_NAME);
  await expect(summaryValue(page, "Status")).toHaveText("Waiting for the engineer");
  await expect(summaryValue(page, "Price")).toHaveText("$150.00");
  await expect(summaryValue(page, "Platform fee \\(10%\\)")).toHaveText("$15.00");
  await expect(summaryValue(page, "The engineer receives")).toHaveText("$135.00");
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");

  // A third member: 404 on the job's pages (under their id or the owner's) and on its actions and downloads.
  const third = await otherBrowser(browser, browserErrors);
  browserErrors.allowStatus(404, 400);
  const thirdId = await logIn(app, PP_THIRD, third.page);
  for (const path of [`/member/${thirdId}/post-production-job/${jobId}`, `/member/${ownerId}/post-production-job/${jobId}`]) {
    const response = await third.page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  const forms: Array<Record<string, string>> = [{ intent: "accept" }, { intent: "cancel", reason: "Not my job at all." }, { intent: "accept-audio" }];
  for (const form of forms) {
    const response = await third.context.request.post(`/member/${thirdId}/post-production-job/${jobId}`, { form, maxRedirects: 0 });
    expect(response.status(), form.intent).toBe(404);
  }
  expect((await third.context.request.get(`/storage/post-production/source/${jobId}`, { maxRedirects: 0 })).status()).toBe(404);

  // The engineer: the job is in their list as engineer; they accept, move a stage and deliver.
  const engineer = await otherBrowser(browser, browserErrors);
  const engineerId = await logIn(app, PP_ENGINEER, engineer.page);
  await app.goto(`/member/${engineerId}/post-production-jobs?as=engineer`, engineer.page);
  await expect(menuEntry(engineer.page)).toBeVisible();
  await engineer.page
    .getByRole("table")
    .getByRole("link", { name: `Job #${jobId}` })
    .click();
  await expect(engineer.page.getByRole("heading", { level: 1, name: `Job #${jobId}` })).toBeVisible();
  await app.hydrated(engineer.page);
  await engineer.page.getByRole("button", { name: "Accept the job" }).click();
  await expect(flash(engineer.page)).toContainText("You accepted the job: the owner was asked to pay $150.00 into escrow.");
  await expect(engineer.page.getByText("The owner has not funded this job yet")).toBeVisible();
  await expect(engineer.page.getByRole("button", { name: "Move to Mixed" })).toHaveCount(0);

  // The owner pays it from their Backline balance, confirming their password first.
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  await app.goto(`/member/${ownerId}/post-production-job/${jobId}`);
  await expect(summaryValue(page, "Status")).toHaveText("Awaiting funding");
  const funding = page.getByRole("region", { name: "Fund the job" });
  await expect(funding).toContainText("Available: $200.00.");
  await expect(funding).toContainText(`BACKLINE-JOB-${jobId}`);
  await app.hydrated();
  await funding.getByRole("button", { name: "Pay $150.00 from my balance" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByLabel("Password").fill(PP_PASSWORD);
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(flash(page)).toContainText("$150.00 from your Backline balance is held in escrow: the engineer can start.");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  await expect(summaryValue(page, "Paid by")).toHaveText("The owner's Backline balance");
  await expect(summaryValue(page, "Status")).toHaveText("In progress");

  // The engineer works: a stage, then the file.
  await app.goto(`/member/${engineerId}/post-production-job/${jobId}`, engineer.page);
  await app.hydrated(engineer.page);
  await engineer.page.getByRole("button", { name: "Move to Mixed" }).click();
  await expect(flash(engineer.page)).toContainText("The job is now mixed.");
  // Not audio a song can take: refused beside the file field.
  await engineer.page.getByLabel("Mixed or mastered file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just text") });
  await engineer.page.getByRole("button", { name: "Upload file" }).click();
  await expect(engineer.page.locator("#delivery-file").locator("xpath=..")).toContainText("This file is not WAV or FLAC audio.");
  await engineer.page.getByLabel("Mixed or mastered file").setInputFiles({ name: "harbour-mix.wav", mimeType: "audio/wav", buffer: oneSecondWav() });
  await engineer.page.getByRole("button", { name: "Upload file" }).click();
  await expect(flash(engineer.page)).toContainText("harbour-mix.wav is delivered.");
  await expect(engineer.page.getByRole("list", { name: "Deliveries" })).toContainText("WAV · 16-bit / 44.1 kHz · mono · 0:01");

  // The owner downloads it and accepts it as the song's audio.
  await app.goto(`/member/${ownerId}/post-production-job/${jobId}`);
  await expect(summaryValue(page, "Status")).toHaveText("Delivered");
  const download = page.getByRole("link", { name: "harbour-mix.wav" });
  const href = (await download.getAttribute("href"))!;
  const file = await page.context().request.get(href);
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 4).toString()).toBe("RIFF");
  expect((await third.context.request.get(href, { maxRedirects: 0 })).status()).toBe(404);
  // The page says "listen": each delivery has a player, whose address serves byte ranges for seeking.
  const player = page.getByRole("list", { name: "Deliveries" }).locator("audio[aria-label='Listen to harbour-mix.wav']");
  await expect(player).toHaveAttribute("src", href);
  await expect(player).toHaveAttribute("controls", "");
  const part = await page.context().request.get(href, { headers: { Range: "bytes=0-3" } });
  expect(part.status()).toBe(206);
  expect((await part.body()).toString()).toBe("RIFF");
  expect(
    await player.evaluate(async (audio: HTMLAudioElement) => {
      audio.preload = "auto";
      audio.load();
      await new Promise((resolve, reject) => {
        audio.addEventListener("loadedmetadata", resolve, { once: true });
        audio.addEventListener("error", () => reject(new Error(`media error ${audio.error?.code}`)), { once: true });
      });
      return Math.round(audio.duration);
    }),
  ).toBe(1);
  await app.hydrated();
  await page.getByRole("button", { name: "Accept as the song's audio" }).click();
  await expect(flash(page)).toContainText("harbour-mix.wav is now the song's audio. The job is completed. $135.00 is released to the engineer.");
  await expect(summaryValue(page, "Status")).toHaveText("Completed");
  await expect(summaryValue(page, "Settled")).toHaveText("$135.00 released, $15.00 fee, $0.00 refunded");
  await expect(summaryValue(page, "Previous audio")).toHaveText("The song had no audio before");

  // The song shows its new audio.
  await page.getByRole("link", { name: PP_SONG }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: PP_SONG })).toBeVisible();
  await expect(page.getByRole("region", { name: "Audio" })).toContainText("WAV · 16-bit / 44.1 kHz · mono");
  // The engineer's earnings: the price less the fee, ready for a payout.
  await app.goto(`/member/${engineerId}/royalty-payment-requests`, engineer.page);
  await expect(engineer.page.getByText("Available to request:")).toContainText("$135.00");
  await third.context.close();
  await engineer.context.close();
});

test("the owner funds an accepted job by card on Stripe Checkout and comes back to it funded", async ({ page, app, browser, browserErrors }) => {
  const ownerId = await logIn(app, PP_CARD_OWNER);
  await app.goto(`/member/${ownerId}/post-production-jobs`);
  await app.hydrated();
  await page.getByLabel("Song").selectOption({ label: `${PP_CARD_SONG} — ${PP_CARD_ARTIST}` });
  await page.getByLabel("Service").selectOption({ label: "Mastering" });
  await page.getByLabel("Engineer's email").fill(PP_ENGINEER);
  await page.getByLabel("Price (USD)").fill("120.00");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${ownerId}/post-production-job/\\d+\\?done=`));
  const jobId = Number(/post-production-job\/(\d+)/.exec(page.url())![1]);

  const engineer = await otherBrowser(browser, browserErrors);
  const engineerId = await logIn(app, PP_ENGINEER, engineer.page);
  await app.goto(`/member/${engineerId}/post-production-job/${jobId}`, engineer.page);
  await app.hydrated(engineer.page);
  await engineer.page.getByRole("button", { name: "Accept the job" }).click();
  await expect(flash(engineer.page)).toContainText("the owner was asked to pay $120.00 into escrow");
  await engineer.context.close();

  // Cancelling on Stripe's page changes nothing.
  await app.goto(`/member/${ownerId}/post-production-job/${jobId}`);
  const funding = page.getByRole("region", { name: "Fund the job" });
  await expect(funding).toContainText(`BACKLINE-JOB-${jobId}`);
  await app.hydrated();
  await funding.getByRole("button", { name: "Pay $120.00 by card" }).click();
  await expect(page.getByRole("heading", { name: "Pay 120.00 USD" })).toBeVisible();
  await page.getByRole("link", { name: "Back without paying" }).click();
  await expect(page).toHaveURL(`/member/${ownerId}/post-production-job/${jobId}`);
  await expect(flash(page)).toContainText("The card payment was canceled: nothing was charged.");
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");

  // Paying: back on the job, funded (the webhook and the return race; whichever is first records it once).
  await app.hydrated();
  await page.getByRole("region", { name: "Fund the job" }).getByRole("button", { name: "Pay $120.00 by card" }).click();
  await page.getByRole("button", { name: "Pay 120.00 USD" }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${ownerId}/post-production-job/${jobId}\\?done=checkout-`));
  await expect(flash(page)).toContainText("Your card payment is received");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  await expect(summaryValue(page, "Paid by")).toHaveText("Card");
  await expect(summaryValue(page, "Status")).toHaveText("In progress");
  await expect(page.getByRole("region", { name: "Fund the job" })).toHaveCount(0);
});

test("bad input shows beside the fields, with the values kept", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const ownerId = await logIn(app, PP_OWNER);
  await app.goto(`/member/${ownerId}/post-production-jobs`);
  await app.hydrated();
  await page.getByLabel("Engineer's email").fill("not-an-address");
  await page.getByLabel("Notes for the engineer").fill("Keep the snare dry.");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(page.getByLabel("Song")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("form#create-job")).toContainText("Choose one of your songs.");
  await expect(page.locator("form#create-job")).toContainText("Enter the engineer's email address.");
  await expect(page.getByLabel("Notes for the engineer")).toHaveValue("Keep the snare dry.");
  // The server's own rules answer beside their field too, values kept.
  await page.getByLabel("Song").selectOption({ label: `${PP_SONG} — Harbour Band` });
  await page.getByLabel("Engineer's email").fill(PP_OWNER);
  await page.getByLabel("Price (USD)").fill("12.345");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(page.getByLabel("Price (USD)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("form#create-job")).toContainText("Enter the price in dollars and cents, such as 150.00");
  await expect(page.getByLabel("Price (USD)")).toHaveValue("12.345");
  await page.getByLabel("Price (USD)").fill("80.00");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(page.locator("form#create-job")).toContainText("That is your own address: name the engineer who will do the work.");
  await expect(page.getByLabel("Engineer's email")).toHaveValue(PP_OWNER);
  await expect(page.getByLabel("Notes for the engineer")).toHaveValue("Keep the snare dry.");
});

test("an invited engineer over SMTP: the signed link's page creates the account, and the new engineer sees the job; an expired link is refused", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  const invited = uniqueEmail("pp-invited");
  // No job yet: no menu entry.
  const ownerId = await logIn(app, PP_FRESH);
  await app.goto(`/member/${ownerId}/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(menuEntry(page)).toHaveCount(0);
  await app.goto(`/member/${ownerId}/post-production-jobs`);
  await app.hydrated();
  await page.getByLabel("Song").selectOption({ label: `${PP_FRESH_SONG} — Paper Band` });
  await page.getByLabel("Service").selectOption({ label: "Mastering" });
  await page.getByLabel("Engineer's email").fill(invited);
  await page.getByLabel("Price (USD)").fill("90.00");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(flash(page)).toContainText(`${invited} was invited by email`);
  const jobId = Number(/post-production-job\/(\d+)/.exec(page.url())![1]);
  await expect(page.getByText(`An invitation was sent to ${invited}`)).toBeVisible();
  // The count is above 0 now: the menu entry shows.
  await expect(menuEntry(page)).toBeVisible();

  // The mail, over SMTP, carries the signed link.
  const mail = await waitForMail(invited, { subject: /asks you for mastering of “Paper Boats”/, timeout: 15_000 });
  expect(mail.subject).toBe(`${PP_FRESH_NAME} asks you for mastering of “${PP_FRESH_SONG}” on Backline`);
  const link = actionLink(mail);
  const url = new URL(link);
  expect(url.pathname).toBe("/post-production-jobs/create-account");
  expect(url.searchParams.get("job")).toBe(String(jobId));

  const visitor = await otherBrowser(browser, browserErrors);
  browserErrors.allowStatus(403);
  const expired = new URL(expiredLink(link));
  await visitor.page.goto(`${expired.pathname}${expired.search}`);
  await expect(visitor.page.getByRole("alert")).toHaveText("Invalid signature.");

  await app.goto(`${url.pathname}${url.search}`, visitor.page);
  await expect(visitor.page).toHaveTitle("Post Production Job | Backline");
  await expect(visitor.page.locator("main")).toContainText(`${PP_FRESH_NAME} asks ${invited} for the mastering of “${PP_FRESH_SONG}” by Paper Band.`);
  await visitor.page.getByLabel("First name").fill("Ivy");
  await visitor.page.getByLabel("Last name").fill("Invited");
  await visitor.page.getByLabel("Password", { exact: true }).fill("a-good-password");
  await visitor.page.getByLabel("Repeat password").fill("a-good-password");
  await visitor.page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await visitor.page.getByRole("button", { name: "Create account and open the job" }).click();
  await expect(visitor.page).toHaveURL(new RegExp(`/member/\\d+/post-production-job/${jobId}$`));
  await expect(visitor.page.getByRole("heading", { level: 1, name: `Job #${jobId}` })).toBeVisible();
  await expect(summaryValue(visitor.page, "Engineer")).toHaveText("Ivy Invited");
  await expect(visitor.page.getByRole("button", { name: "Accept the job" })).toBeVisible();
  await expect(menuEntry(visitor.page)).toBeVisible();
  await visitor.context.close();
});
