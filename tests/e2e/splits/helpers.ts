import crypto from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { actionLink, waitForMail } from "../support/outbox";
import { expect as baseExpect, type App } from "../support/test";

/**
 * Helpers for the share-split specs: the song profile's "Splits" section
 * (app/modules/splits/split-section.tsx), its proposal form, and the invitation mail.
 */

/**
 * The suite's expect, with more patience: these flows hash passwords, render PDFs and send mail on each
 * step, and a busy two-core machine can take longer than the default 5 s for one of them.
 */
export const expect = baseExpect.configure({ timeout: 15_000 });

/** The flash message's live region (root.tsx). */
export const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

/** The song profile's "Splits" section. */
export const splits = (page: Page) => page.getByRole("region", { name: "Splits" });

/** The "Propose a new version" form (conform's id). */
export const proposalForm = (page: Page) => page.locator("form#split-proposal");

/** The proposal form's line under the parties: the shares' total, or how far off 100 % they are. */
export const sharesTotal = (page: Page) => proposalForm(page).locator('p[aria-live="polite"]');

/** Party `n`'s (1-based) email field. */
export const partyEmail = (page: Page, n: number) => proposalForm(page).getByLabel(`Party ${n} email`, { exact: true });

/** Party `n`'s (1-based) share field (the Writers form has "Share %" fields too: this one is the row's). */
export const partyShare = (page: Page, n: number) =>
  proposalForm(page)
    .getByRole("listitem")
    .filter({ has: page.getByLabel(`Party ${n} email`, { exact: true }) })
    .getByLabel("Share %");

/** The card of version `n` on the sheet. */
export const versionCard = (page: Page, n: number) => splits(page).getByRole("article", { name: new RegExp(`^Version ${n} · from `) });

/** The viewer's pending answer to version `n`. */
export const answerBox = (page: Page, n: number) => page.getByRole("region", { name: `Your answer to version ${n}` });

/** A table row of a version card, by the party's name. */
export const partyRow = (page: Page, version: number, name: string) => versionCard(page, version).getByRole("row").filter({ hasText: name });

/** A title no other test uses (letters and digits only, so it is safe in a pattern). */
export const uniqueTitle = (prefix: string) => `${prefix} ${crypto.randomBytes(3).toString("hex")}`;

/** Creates a song through the form (the owner's only artist page) and returns its id; lands on its profile. */
export async function newSong(page: Page, app: App, memberId: number, title: string): Promise<number> {
  await app.goto(`/member/${memberId}/songs`);
  await page.getByRole("link", { name: "New song" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New song" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Language").selectOption({ label: "English" });
  await page.getByRole("button", { name: "Create song" }).click();
  await expect(flash(page)).toContainText(`“${title}” is saved.`);
  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/song-profile/\\d+$`));
  await app.hydrated();
  return Number(/\/song-profile\/(\d+)$/.exec(page.url())![1]);
}

/** Fills the proposal form: the date and the parties from row 1 on (the rows after them are left as they are). */
export async function fillProposal(page: Page, effectiveFrom: string, parties: Array<[email: string, share: string]>) {
  await proposalForm(page).getByLabel("Effective from").fill(effectiveFrom);
  for (const [i, [email, share]] of parties.entries()) {
    await partyEmail(page, i + 1).fill(email);
    await partyShare(page, i + 1).fill(share);
  }
}

export async function submitProposal(page: Page) {
  await proposalForm(page).getByRole("button", { name: "Propose and invite the parties" }).click();
}

/** The signed link mailed to an invitee without an account (path and query), for a share of `title`. */
export async function inviteLink(email: string, inviter: string, share: string, title: string, after = 0): Promise<string> {
  const subject = new RegExp(`^${inviter} proposed you a ${share.replace(".", "\\.")} share of “${title}” on Backline$`);
  const mail = await waitForMail(email, { subject, after, timeout: 15_000 });
  const url = new URL(actionLink(mail));
  expect(url.pathname).toBe("/share-split-proposals/create-account");
  return `${url.pathname}${url.search}`;
}

/** Fills and sends the invitation page's "create account" form. */
export async function createAccountFromInvite(page: Page, name: string, lastName: string, password: string) {
  await page.getByLabel("First name").fill(name);
  await page.getByLabel("Last name").fill(lastName);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Repeat password").fill(password);
  await page.getByRole("checkbox", { name: /I agree to the/ }).check();
  await page.getByRole("button", { name: "Create account and open the proposal" }).click();
}

/** GETs the signed sheet's PDF with the page's cookies: its status, and for 200 that it is a PDF download. */
export async function expectPdf(request: APIRequestContext, href: string) {
  const response = await request.get(href, { maxRedirects: 0 });
  expect(response.status(), href).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename=".+\.pdf"$/);
  expect((await response.body()).subarray(0, 5).toString()).toBe("%PDF-");
}
