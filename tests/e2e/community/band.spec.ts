import type { Browser, Page } from "@playwright/test";
import { BAND, BAND_ARTISTS, BAND_PASSWORD, bandName } from "../support/band-accounts";
import { actionLink, mailsTo, waitForMail, expectNoMail } from "../support/outbox";
import { expiredLink, pathOf, tamperedSignature } from "../support/signed-links";
import { App, expect, test, uniqueEmail, type BrowserErrors, sendAppOrigin } from "../support/test";

/**
 * Band members of artist pages (app/modules/profiles/band*.ts, band-section.tsx) and the public
 * /band-invite/{id} page: the owner invites by email from the artist's owner page, the invitee follows
 * the mailed link (logging in, or creating the account right there), joins, and can be removed again.
 */

const menu = (page: Page) => page.getByRole("navigation", { name: "Member menu" });
const yourArtists = (page: Page) => menu(page).getByRole("region", { name: "Your Artists" });
const bandSection = (page: Page) => page.getByRole("region", { name: "Band members" });
const membersTable = (page: Page) => bandSection(page).getByRole("table", { name: "Band members" });
const invitesTable = (page: Page) => bandSection(page).getByRole("table", { name: "Pending invitations" });
const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ });

/** Logs in (a form POST) and opens the artist's owner page from the menu; returns its path and ids. */
async function openArtistFromMenu(app: App, email: string, artistName: string, page: Page = app.page) {
  const dashboard = await app.logInQuickly(email, BAND_PASSWORD, { page });
  await app.goto(dashboard, page);
  await yourArtists(page).getByRole("link", { name: artistName }).click();
  await expect(page).toHaveURL(/\/member\/\d+\/artist-profile\/\d+$/);
  await app.hydrated(page);
  const [, memberId, artistId] = /\/member\/(\d+)\/artist-profile\/(\d+)$/.exec(page.url())!;
  return { path: new URL(page.url()).pathname, memberId: Number(memberId), artistId: Number(artistId) };
}

/** Sends an invitation from the band section and returns the mailed link. */
async function invite(page: Page, email: string, artistName: string, canEdit: boolean) {
  const before = mailsTo(email).length;
  await bandSection(page).getByLabel("Email address").fill(email);
  const box = bandSection(page).getByRole("checkbox", { name: "May edit the page" });
  if (canEdit) await box.check();
  else await expect(box).not.toBeChecked();
  await bandSection(page).getByRole("button", { name: "Send invitation" }).click();
  await expect(flash(page)).toHaveText(`We emailed an invitation to join ${artistName} to ${email}.`);
  await expect(invitesTable(page).getByRole("rowheader", { name: email })).toBeVisible();
  const mail = await waitForMail(email, { subject: new RegExp(`invited you to join ${artistName} on Backline$`), after: before });
  return actionLink(mail);
}

/** A second browser whose console errors also fail the test. */
async function otherBrowser(browser: Browser, browserErrors: BrowserErrors, js = true) {
  const context = await browser.newContext({ javaScriptEnabled: js });
  sendAppOrigin(context.request);
  browserErrors.watch(context);
  const page = await context.newPage();
  return { context, page, app: new App(page, js) };
}

test.describe("inviting an existing member", () => {
  test("the invitee logs in from the mail and accepts; the owner withdraws their rights and removes them", async ({ page, app, browser, browserErrors }) => {
    // One long story across two browsers: give it the time of three tests.
    test.slow();
    browserErrors.allowStatus(409);
    const artist = BAND_ARTISTS.existing;
    const invitee = bandName("invitee");
    const owner = await openArtistFromMenu(app, BAND.owner, artist.name);
    await expect(membersTable(page).getByRole("rowheader")).toHaveCount(1);
    await expect(membersTable(page).getByRole("rowheader")).toContainText(`${bandName("owner").fullname} (you)`);
    await expect(bandSection(page).getByText("No invitations are waiting for an answer.")).toBeVisible();

    // Bad input is refused beside the field, the value kept.
    const email = bandSection(page).getByLabel("Email address");
    await email.fill("not-an-email");
    await bandSection(page).getByRole("button", { name: "Send invitation" }).click();
    await expect(bandSection(page).getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
    await email.fill(BAND.owner.toUpperCase());
    await bandSection(page).getByRole("button", { name: "Send invitation" }).click();
    await expect(bandSection(page).getByText(`${BAND.owner.toUpperCase()} is already a member of ${artist.name}.`)).toBeVisible();
    await expect(email).toHaveValue(BAND.owner.toUpperCase());
    await expect(email).toHaveAttribute("aria-invalid", "true");

    const link = await invite(page, BAND.invitee, artist.name, true);
    await expect(email).toHaveValue("");
    const mail = mailsTo(BAND.invitee).at(-1)!;
    expect(mail.subject).toBe(`${bandName("owner").fullname} invited you to join ${artist.name} on Backline`);
    expect(mail.text).toContain(`${bandName("owner").fullname} invited you to join the band ${artist.name}`);
    // Inviting the same address twice is refused while the first invitation is pending.
    await email.fill(BAND.invitee);
    await bandSection(page).getByRole("button", { name: "Send invitation" }).click();
    await expect(bandSection(page).getByText(`${BAND.invitee} already has a pending invitation. Revoke it first to send a new one.`)).toBeVisible();

    // The invitee opens the link logged out: log in, come back to the link, accept.
    const other = await otherBrowser(browser, browserErrors);
    await other.app.goto(pathOf(link));
    await expect(other.page.getByRole("heading", { level: 1, name: "Band invitation" })).toBeVisible();
    await expect(
      other.page.getByText(`${bandName("owner").fullname} invited ${BAND.invitee} to join the band ${artist.name}, with the right to edit its artist page.`),
    ).toBeVisible();
    await other.page.getByRole("link", { name: "Log in to accept" }).click();
    await expect(other.page).toHaveURL(`/login?${new URLSearchParams({ redirect: pathOf(link) })}`);
    await other.app.hydrated();
    await other.page.getByLabel("Email").fill(BAND.invitee);
    await other.page.getByLabel("Password").fill(BAND_PASSWORD);
    await other.page.getByRole("button", { name: "Log in" }).click();
    await expect(other.page).toHaveURL(pathOf(link));
    await other.app.hydrated();
    await other.page.getByRole("button", { name: "Accept invitation" }).click();
    await expect(other.page).toHaveURL(new RegExp(`/member/\\d+/artist-profile/${owner.artistId}$`));
    await expect(flash(other.page)).toHaveText(`Welcome to ${artist.name}! You are now a member of the band.`);
    await expect(yourArtists(other.page).getByRole("link", { name: artist.name })).toBeVisible();
    // Off the artist's page before losing the right to open it (its next revalidation would answer 404).
    const inviteeDashboard = new URL(other.page.url()).pathname.replace(/artist-profile\/\d+$/, "dashboard");
    await other.app.goto(inviteeDashboard);

    // The owner sees the new member, withdraws their editing rights, then removes them.
    await app.goto(owner.path);
    const row = membersTable(page).getByRole("row").filter({ hasText: invitee.fullname });
    await expect(row).toContainText("Member");
    await expect(row).toContainText("May edit the page");
    await expect(bandSection(page).getByText("No invitations are waiting for an answer.")).toBeVisible();
    await row.getByRole("button", { name: `Withdraw editing rights for ${invitee.fullname}` }).click();
    await expect(flash(page)).toHaveText(`${invitee.fullname} may no longer edit the artist page.`);
    await expect(row).toContainText("Cannot edit the page");
    await row.locator("summary", { hasText: "Remove" }).click();
    await expect(row.getByText(`Remove ${invitee.fullname} from the band?`)).toBeVisible();
    await row.getByRole("button", { name: `Yes, remove ${invitee.fullname}` }).click();
    await expect(flash(page)).toHaveText(`${invitee.fullname} is no longer a member of ${artist.name}.`);
    await expect(membersTable(page).getByRole("rowheader")).toHaveCount(1);

    // Gone from the former member's menu.
    await other.app.goto(inviteeDashboard);
    await expect(menu(other.page)).toBeVisible();
    await expect(yourArtists(other.page).getByRole("link", { name: artist.name })).toHaveCount(0);
    await other.context.close();
  });
});

test.describe("inviting a new address, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the invitee creates the account on the invite page and finds the band in the menu", async ({ page, app, browser, browserErrors }) => {
    test.slow();
    const artist = BAND_ARTISTS.newcomer;
    await openArtistFromMenu(app, BAND.newOwner, artist.name);
    const email = uniqueEmail("band-newcomer");
    const link = await invite(page, email, artist.name, false);

    const other = await otherBrowser(browser, browserErrors, false);
    await other.page.goto(pathOf(link));
    await expect(other.page.getByText(`${bandName("newOwner").fullname} invited ${email} to join the band ${artist.name}.`)).toBeVisible();
    await expect(other.page.getByRole("link", { name: "Log in to accept" })).toHaveCount(0);

    // Errors beside the fields; names kept, passwords never.
    browserErrors.allowStatus(400);
    await other.page.getByLabel("First name").fill("Nia");
    await other.page.getByLabel("Password", { exact: true }).fill("a-good-password");
    await other.page.getByLabel("Repeat password").fill("another-password");
    await other.page.getByRole("button", { name: "Create account and join" }).click();
    await expect(other.page.getByText("Enter your last name.")).toBeVisible();
    await expect(other.page.getByText("The two passwords do not match.")).toBeVisible();
    await expect(other.page.getByText("Agree to the Terms of Service and Privacy Policy to continue.")).toBeVisible();
    await expect(other.page.getByLabel("First name")).toHaveValue("Nia");
    await expect(other.page.getByLabel("Password", { exact: true })).toHaveValue("");

    await other.page.getByLabel("Last name").fill("Newcomer");
    await other.page.getByLabel("Password", { exact: true }).fill("a-good-password");
    await other.page.getByLabel("Repeat password").fill("a-good-password");
    await other.page.getByRole("checkbox", { name: /I agree to the/ }).check();
    await other.page.getByRole("button", { name: "Create account and join" }).click();
    // Without editing rights the artist's edit page is not theirs to open: they land on the artist's page,
    // which band members see even before it is published.
    await expect(other.page).toHaveURL(new RegExp(`/member/\\d+/artists/${artist.username}$`));
    const artistPage = other.page.url();
    await expect(other.page.getByRole("heading", { level: 1, name: artist.name })).toBeVisible();
    await expect(flash(other.page)).toHaveText(`Your account is ready. Welcome to ${artist.name}! You are now a member of the band.`);
    await expect(yourArtists(other.page).getByRole("link", { name: artist.name })).toHaveAttribute(
      "href",
      new RegExp(`/member/\\d+/artists/${artist.username}$`),
    );

    // The link is used up.
    browserErrors.allowStatus(410);
    const again = await other.page.goto(pathOf(link));
    expect(again?.status()).toBe(410);
    await expect(other.page.getByRole("alert")).toHaveText("This invitation has already been accepted.");

    // A member without editing rights leaves from the artist's page.
    await other.app.goto(new URL(artistPage).pathname);
    await other.page.locator("summary", { hasText: "Leave the band" }).click();
    await other.page.getByRole("button", { name: "Yes, leave the band" }).click();
    await expect(other.page).toHaveURL(/\/member\/\d+\/dashboard$/);
    await expect(flash(other.page)).toHaveText(`You left ${artist.name}.`);
    await expect(menu(other.page).getByRole("link", { name: artist.name })).toHaveCount(0);
    await other.context.close();
  });
});

test.describe("links that cannot be used", () => {
  test("a revoked invitation, a tampered and an expired signature each show a clear page", async ({ page, app, browserErrors }) => {
    const artist = BAND_ARTISTS.revoke;
    await openArtistFromMenu(app, BAND.revokeOwner, artist.name);
    const email = uniqueEmail("band-revoked");
    const link = await invite(page, email, artist.name, false);
    await invitesTable(page)
      .getByRole("button", { name: `Revoke the invitation to ${email}` })
      .click();
    await expect(flash(page)).toHaveText(`The invitation to ${email} is revoked.`);
    await expect(bandSection(page).getByText("No invitations are waiting for an answer.")).toBeVisible();

    browserErrors.allowStatus(403, 410);
    const revoked = await page.goto(pathOf(link));
    expect(revoked?.status()).toBe(410);
    await expect(page.getByRole("alert")).toHaveText("This invitation was withdrawn by the band.");
    await expect(page.getByRole("button", { name: /Accept|Create account/ })).toHaveCount(0);

    for (const bad of [tamperedSignature(link), expiredLink(link)]) {
      const response = await page.goto(pathOf(bad));
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("alert")).toHaveText("Invalid signature.");
    }
  });
});

test.describe("who may do what", () => {
  test("a member with editing rights invites but cannot remove anyone or change rights (403)", async ({ page, app }) => {
    const artist = BAND_ARTISTS.rights;
    const editor = await openArtistFromMenu(app, BAND.editor, artist.name);
    await expect(membersTable(page).getByRole("rowheader")).toHaveCount(3);
    await expect(bandSection(page).locator("summary", { hasText: "Remove" })).toHaveCount(0);
    await expect(bandSection(page).getByRole("button", { name: /editing rights|Allow editing/ })).toHaveCount(0);
    await invite(page, uniqueEmail("band-by-editor"), artist.name, false);
    await expect(invitesTable(page).getByRole("button", { name: /Revoke/ })).toHaveCount(0);

    // Forged posts of the owner's forms are refused.
    const forged: Array<Record<string, string>> = [
      { intent: "band-remove", userId: String(editor.memberId) },
      { intent: "band-rights", userId: String(editor.memberId), canEdit: "false" },
    ];
    for (const form of forged) {
      const response = await page.request.post(editor.path, { form, maxRedirects: 0 });
      expect(response.status(), form.intent!).toBe(403);
      expect(await response.text()).toContain(
        form.intent === "band-remove"
          ? "Only the owner or an administrator may remove band members."
          : "Only the owner or an administrator may change editing rights.",
      );
    }
    await app.goto(editor.path);
    await expect(membersTable(page).getByRole("rowheader")).toHaveCount(3);
  });

  test("a member without editing rights sees the band in the menu, opens its page, but cannot open its edit page or invite (404)", async ({
    page,
    app,
    browserErrors,
  }) => {
    browserErrors.allowStatus(404);
    const artist = BAND_ARTISTS.rights;
    const dashboard = await app.logInQuickly(BAND.plain, BAND_PASSWORD);
    await app.goto(dashboard);
    const memberId = /\/member\/(\d+)\//.exec(dashboard)![1];
    const link = yourArtists(page).getByRole("link", { name: artist.name });
    await expect(link).toHaveAttribute("href", `/member/${memberId}/artists/${artist.username}`);
    await link.click();
    await expect(page.getByRole("heading", { level: 1, name: artist.name })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Edit/ })).toHaveCount(0);

    const { data } = await (await page.request.get(`/api/members/${memberId}/dashboard/profiles`)).json();
    const { id: artistId } = data.artists.find((a: { name: string }) => a.name === artist.name);
    const editPage = `/member/${memberId}/artist-profile/${artistId}`;
    const opened = await page.goto(editPage);
    expect(opened?.status()).toBe(404);
    const email = uniqueEmail("band-by-plain");
    const response = await page.request.post(editPage, { form: { intent: "band-invite", email }, maxRedirects: 0 });
    expect(response.status()).toBe(404);
    await expectNoMail(email);
  });

  test("the owner's page refuses a stranger, who gets Not Found", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    // The owner of another band opens this artist's page under their own member id.
    const own = await openArtistFromMenu(app, BAND.revokeOwner, BAND_ARTISTS.revoke.name);
    const other = await app.logInQuickly(BAND.rightsOwner, BAND_PASSWORD);
    const rightsOwnerId = Number(/\/member\/(\d+)\//.exec(other)![1]);
    const foreign = `/member/${rightsOwnerId}/artist-profile/${own.artistId}`;
    const response = await page.goto(foreign);
    expect(response?.status()).toBe(404);
    const post = await page.request.post(foreign, { form: { intent: "band-invite", email: uniqueEmail("band-stranger") }, maxRedirects: 0 });
    expect(post.status()).toBe(404);
  });

  test("a member leaves the band and it disappears from their menu", async ({ page, app }) => {
    const artist = BAND_ARTISTS.leave;
    const leaver = await openArtistFromMenu(app, BAND.leaver, artist.name);
    await expect(bandSection(page).getByRole("heading", { name: "Leave the band" })).toBeVisible();
    await bandSection(page).locator("summary", { hasText: "Leave the band" }).click();
    await bandSection(page).getByRole("button", { name: "Yes, leave the band" }).click();
    await expect(page).toHaveURL(`/member/${leaver.memberId}/dashboard`);
    await expect(flash(page)).toHaveText(`You left ${artist.name}.`);
    await expect(menu(page)).toBeVisible();
    await expect(yourArtists(page).getByRole("link", { name: artist.name })).toHaveCount(0);
  });
});
