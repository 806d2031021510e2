import fs from "node:fs";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { READY, READY_PASSWORD, readyName } from "../support/account-admin-accounts";
import { avatarButton, flash, INVALID_CREDENTIALS, largePng, logInMember, otherBrowser, solidImage, tryLogin } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_NAMES, DEMO_PASSWORD } from "../support/accounts";
import { actionLink, mailsTo, waitForMail, expectNoMail } from "../support/outbox";
import { pathOf } from "../support/signed-links";
import { confirmWithPassword } from "../payouts/helpers";
import { expect, test, uniqueEmail } from "../support/test";

/**
 * The account page /member/{id}/profile (app/routes/member.$memberId.profile.tsx, profile.server.ts,
 * images.server.ts, storage.images.$.ts): names, email change with confirmation, password, avatar.
 */

const profilePath = (id: number) => `/member/${id}/profile`;
const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;
const AVATAR_SRC = /^\/storage\/images\/avatar\/[0-9a-f]{32}\/256x256\.webp$/;
const IMMUTABLE = "public, max-age=31536000, immutable";
const MESSAGES = {
  saved: "Your changes are saved.",
  passwordChanged: "Your password is changed. Every other session of your account has been signed out.",
  avatarUpdated: "The avatar is updated.",
  avatarRemoved: "The avatar is removed.",
  unreadable: "That file is not an image we can read (use JPEG, PNG, WebP or GIF).",
  tooLarge: "Images can be at most 5 MB.",
  tooSmall: "Images must be at least 64x64 pixels.",
};
const AVATAR_HELP = "JPEG, PNG, WebP or GIF, up to 5 MB.";

const firstName = (page: Page) => page.getByLabel("First name");
const lastName = (page: Page) => page.getByLabel("Last name");
const email = (page: Page) => page.getByLabel("Email", { exact: true });
const avatarInput = (page: Page) => page.getByLabel(/^(New avatar|Avatar) image$/);
const headerAvatarImg = (page: Page) => avatarButton(page).locator("img");

test.describe("guard", () => {
  test("without a session the page and its form go to /login?redirect=", async ({ page, request }) => {
    await page.goto(profilePath(DEMO_IDS.member));
    await expect(page).toHaveURL(loginFor(profilePath(DEMO_IDS.member)));
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();

    const post = await request.post(profilePath(DEMO_IDS.member), {
      form: { intent: "names", name: "Mia", lastName: "Member", email: DEMO.member },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(loginFor(profilePath(DEMO_IDS.member)));
  });

  test("a member opening another member's account page gets 404 and none of its data", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    const response = await page.goto(profilePath(DEMO_IDS.admin));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
    await expect(page).toHaveTitle("Not Found | Backline");
    const html = await page.content();
    expect(html).not.toContain(DEMO.admin);
    expect(html).not.toContain(DEMO_NAMES.admin);
    await expect(page.getByLabel("First name")).toHaveCount(0);

    // The action is guarded too (the values sent are the admin's own, so nothing could change anyway).
    const post = await page.request.post(profilePath(DEMO_IDS.admin), {
      form: { intent: "names", name: "Ada", lastName: "Admin", email: DEMO.admin },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(404);
    expect(await post.text()).not.toContain(DEMO.admin);
  });

  test("an administrator in a member's area edits names and email but sees no password form", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(403);
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    expect((await app.goto(profilePath(DEMO_IDS.member)))?.status()).toBe(200);
    await expect(page).toHaveTitle("Mia Member | Account | Backline");
    await expect(page.getByText("You are viewing the member area of Mia Member as an administrator.")).toBeVisible();
    await expect(page.getByText("The picture, names and email address of Mia Member.")).toBeVisible();
    await expect(firstName(page)).toHaveValue("Mia");
    await expect(email(page)).toHaveValue(DEMO.member);

    const passwordSection = page.getByRole("region", { name: "Password" });
    await expect(passwordSection).toContainText(
      "Only Mia Member can change this password. They can choose a new one with “Forgot your password?” on the login page.",
    );
    await expect(page.getByLabel("Current password")).toHaveCount(0);
    await expect(page.getByLabel("New password")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Change password" })).toHaveCount(0);

    // Posting the form anyway is refused (the current password is wrong too, so nothing could change).
    const post = await page.request.post(profilePath(DEMO_IDS.member), {
      form: { intent: "password", currentPassword: "not-the-password", password: "admin-chosen-1", passwordConfirmation: "admin-chosen-1" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
  });
});

test("changing the names saves them and updates the title and the header", async ({ page, app }) => {
  const id = await logInMember(app, READY.profileNames, READY_PASSWORD);
  await app.goto(profilePath(id));
  const before = readyName("profileNames");
  await expect(page).toHaveTitle(`${before.fullname} | Account | Backline`);
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByText("Your picture, names, email address and password.")).toBeVisible();
  await expect(firstName(page)).toHaveValue(before.name);
  await expect(lastName(page)).toHaveValue(before.lastName);
  await expect(email(page)).toHaveValue(READY.profileNames);
  await expect(avatarButton(page)).toHaveAccessibleName(`Account menu for ${before.fullname}`);

  await firstName(page).fill("Nora");
  await lastName(page).fill("Renamed-Öz");
  await page.getByRole("button", { name: "Save names and email" }).click();

  await expect(flash(page)).toHaveText(MESSAGES.saved);
  await expect(page).toHaveURL(profilePath(id));
  await expect(firstName(page)).toHaveValue("Nora");
  await expect(lastName(page)).toHaveValue("Renamed-Öz");
  await expect(email(page)).toHaveValue(READY.profileNames);
  await expect(page).toHaveTitle("Nora Renamed-Öz | Account | Backline");
  await expect(avatarButton(page)).toHaveAccessibleName("Account menu for Nora Renamed-Öz");
  await expect(avatarButton(page)).toHaveText("NR");
  // No email change was asked for: no pending notice, no confirmation mail.
  await expect(page.getByText("Email change pending.")).toHaveCount(0);
  await expectNoMail(READY.profileNames, /new email address/);

  // Saved for real: a fresh load shows the same.
  await page.reload();
  await expect(firstName(page)).toHaveValue("Nora");
  await expect(lastName(page)).toHaveValue("Renamed-Öz");
});

test("changing the email asks for the password and waits for the link: cancel kills it, the next link switches the address, and the old address can undo it", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  browserErrors.allowStatus(410);
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  const oldEmail = READY.profileEmail;
  const id = await logInMember(app, oldEmail, READY_PASSWORD);
  await app.goto(profilePath(id));

  // A first request, then cancelled: its link no longer works.
  const cancelled = uniqueEmail("cancelled");
  await email(page).fill(cancelled);
  await page.getByRole("button", { name: "Save names and email" }).click();
  // The login email leads to the password reset: changing it needs the password first (decision 020).
  await confirmWithPassword(page, READY_PASSWORD);
  await expect(flash(page)).toHaveText(`Saved. We sent a confirmation link to ${cancelled}: the email address changes once it is opened.`);
  const cancelledMail = await waitForMail(cancelled, { subject: /^Confirm your new email address for Backline$/ });
  await page.getByRole("button", { name: "Cancel the change" }).click();
  await expect(flash(page)).toHaveText("The email change is cancelled; its link no longer works.");
  await expect(page.getByText("Email change pending.")).toHaveCount(0);

  // The real change.
  const noticesBefore = mailsTo(oldEmail, /^A change of email address was requested/).length;
  const newEmail = uniqueEmail("changed");
  await email(page).fill(newEmail);
  await page.getByRole("button", { name: "Save names and email" }).click();
  await expect(flash(page)).toHaveText(`Saved. We sent a confirmation link to ${newEmail}: the email address changes once it is opened.`);
  const pending = page.getByRole("status").filter({ hasText: "Email change pending." });
  await expect(pending).toContainText(
    `Email change pending. We sent a confirmation link to ${newEmail}. Until it is opened, the account keeps using ${oldEmail}.`,
  );
  await expect(pending.getByRole("button", { name: "Cancel the change" })).toBeVisible();
  // The field shows the address in use until the link is opened.
  await expect(email(page)).toHaveValue(oldEmail);

  const mail = await waitForMail(newEmail, { subject: /^Confirm your new email address for Backline$/ });
  expect(mail.text).toContain(`Until you do, the account keeps using ${oldEmail}.`);
  const link = actionLink(mail);
  expect(pathOf(link)).toMatch(new RegExp(`^/email-verify/${id}/[^/?]+\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  const notice = await waitForMail(oldEmail, { subject: /^A change of email address was requested for your Backline account$/, after: noticesBefore });
  expect(notice.text).toContain(`We received a request to use ${newEmail} as the email address`);

  // Nothing changed yet: the old address still logs in, the new one does not.
  expect((await tryLogin(newEmail, READY_PASSWORD)).status).toBe(400);

  const other = await otherBrowser(browser, browserErrors);
  const dead = await other.page.goto(pathOf(actionLink(cancelledMail)));
  expect(dead?.status()).toBe(410);
  await expect(other.page.getByRole("alert")).toHaveText("This verification link has already been used or has been replaced by a newer one.");

  await other.page.goto(pathOf(link));
  await expect(other.page).toHaveURL("/login");
  await expect(flash(other.page)).toHaveText("Your new email address is confirmed. Use it the next time you log in.");
  await other.context.close();

  const withNew = await tryLogin(newEmail, READY_PASSWORD);
  expect(withNew.status).toBe(302);
  expect(withNew.location).toBe(`/member/${id}/dashboard`);
  const withOld = await tryLogin(oldEmail, READY_PASSWORD);
  expect(withOld.status).toBe(400);
  expect(withOld.text).toContain(INVALID_CREDENTIALS);

  await app.goto(profilePath(id));
  await expect(email(page)).toHaveValue(newEmail);
  await expect(page.getByText("Email change pending.")).toHaveCount(0);

  // The old address's "This was not me" link, still good after the change: it puts the address back and signs out.
  const undo = await otherBrowser(browser, browserErrors);
  await undo.page.goto(pathOf(notice.links.find((l) => l.includes("/email-change-cancel/"))!));
  await expect(undo.page.getByRole("heading", { level: 1, name: "Cancel an email change" })).toBeVisible();
  await undo.page.getByRole("button", { name: "This was not me: cancel the change" }).click();
  await expect(undo.page.getByRole("heading", { level: 1, name: "The email change is cancelled" })).toBeVisible();
  await expect(undo.page.getByRole("status").filter({ hasText: "Your account uses" })).toContainText(`Your account uses ${oldEmail} again.`);
  await undo.context.close();
  expect((await tryLogin(oldEmail, READY_PASSWORD)).status).toBe(302);
  await app.goto(profilePath(id));
  await expect(page).toHaveURL(/\/login/);
});

test("an email address another account uses is answered like a free one; its holder is told, and nothing changes", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  const id = await logInMember(app, READY.profileEmailTaken, READY_PASSWORD);
  await app.goto(profilePath(id));
  const before = mailsTo(DEMO.member, /^Someone tried/).length;

  await email(page).fill("MEMBER@example.com");
  await page.getByRole("button", { name: "Save names and email" }).click();
  await confirmWithPassword(page, READY_PASSWORD);
  // The same answer as for a free address: the page does not tell that it has an account.
  await expect(flash(page)).toHaveText("Saved. We sent a confirmation link to MEMBER@example.com: the email address changes once it is opened.");
  await expect(page.getByRole("status").filter({ hasText: "Email change pending." })).toContainText("MEMBER@example.com");
  // Its holder is told someone tried it; no link that could move it goes anywhere.
  const told = await waitForMail(DEMO.member, { subject: /^Someone tried to move another Backline account to your address$/, after: before });
  expect(told.text).not.toContain("/email-verify/");
  await page.getByRole("button", { name: "Cancel the change" }).click();
  await expect(page.getByText("Email change pending.")).toHaveCount(0);
  await expect(email(page)).toHaveValue(READY.profileEmailTaken);
});

test("a wrong current password is refused beside that field; the password stays", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const id = await logInMember(app, READY.profilePasswordWrong, READY_PASSWORD);
  await app.goto(profilePath(id));

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("brand-new-pass-1");
  await page.getByLabel("Repeat new password").fill("brand-new-pass-1");
  await page.getByRole("button", { name: "Change password" }).click();

  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("That is not your current password.");
  // Password fields never keep their values after a failed submit.
  await expect(page.getByLabel("Current password")).toHaveValue("");
  await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("Repeat new password")).toHaveValue("");
  await expect(flash(page)).toHaveText("");

  // Mismatched new passwords are caught too.
  await page.getByLabel("Current password").fill(READY_PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("brand-new-pass-1");
  await page.getByLabel("Repeat new password").fill("brand-new-pass-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByLabel("Repeat new password")).toHaveAccessibleDescription("The two passwords do not match.");

  expect((await tryLogin(READY.profilePasswordWrong, "brand-new-pass-1")).status).toBe(400);
  expect((await tryLogin(READY.profilePasswordWrong, READY_PASSWORD)).status).toBe(302);
});

test("changing the password with the right one signs out every other session", async ({ page, app, browser, browserErrors }) => {
  const user = READY.profilePassword;
  const id = await logInMember(app, user, READY_PASSWORD);
  const other = await otherBrowser(browser, browserErrors);
  await logInMember(app, user, READY_PASSWORD, other.page);
  expect((await other.page.goto(`/member/${id}/dashboard`))?.status()).toBe(200);
  await expect(other.page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  await app.goto(profilePath(id));
  await page.getByLabel("Current password").fill(READY_PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("changed-pass-456");
  await page.getByLabel("Repeat new password").fill("changed-pass-456");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(flash(page)).toHaveText(MESSAGES.passwordChanged);
  await expect(page.getByLabel("Current password")).toHaveValue("");

  // This browser stays signed in; the other one is signed out.
  expect((await page.reload())?.status()).toBe(200);
  await expect(page).toHaveURL(profilePath(id));
  await other.page.goto(`/member/${id}/dashboard`);
  await expect(other.page).toHaveURL(loginFor(`/member/${id}/dashboard`));
  await other.context.close();

  const old = await tryLogin(user, READY_PASSWORD);
  expect(old.status).toBe(400);
  expect(old.text).toContain(INVALID_CREDENTIALS);
  const fresh = await tryLogin(user, "changed-pass-456");
  expect(fresh.status).toBe(302);
  expect(fresh.location).toBe(`/member/${id}/dashboard`);
});

test("an uploaded PNG becomes the avatar in the header, a JPEG replaces it, and it can be removed", async ({ page, app }) => {
  test.slow();
  const id = await logInMember(app, READY.profileAvatar, READY_PASSWORD);
  await app.goto(profilePath(id));
  await expect(headerAvatarImg(page)).toHaveCount(0);
  await expect(avatarButton(page)).toHaveText("RR");
  await expect(page.getByRole("button", { name: "Remove avatar" })).toHaveCount(0);

  await avatarInput(page).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await solidImage("png", 300, 300) });
  await page.getByRole("button", { name: "Upload avatar" }).click();
  await expect(flash(page)).toHaveText(MESSAGES.avatarUpdated, { timeout: 15_000 });
  await expect(headerAvatarImg(page)).toHaveAttribute("src", AVATAR_SRC);
  const first = (await headerAvatarImg(page).getAttribute("src"))!;
  // The page's own preview shows the same stored image, and the field now offers a replacement.
  await expect(page.getByRole("region", { name: "Avatar" }).locator("img")).toHaveAttribute("src", first);
  await expect(page.getByLabel("New avatar image")).toBeVisible();

  const image = await page.request.get(first);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/webp");
  expect(image.headers()["cache-control"]).toBe(IMMUTABLE);
  const meta = await sharp(await image.body()).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
  const small = await page.request.get(first.replace("256x256", "64x64"));
  expect(small.status()).toBe(200);
  expect((await sharp(await small.body()).metadata()).width).toBe(64);
  // The browser really displays it (decoded at its natural size).
  await expect.poll(() => headerAvatarImg(page).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);

  // A JPEG replaces it: a new file, and the old one is gone.
  await page.getByLabel("New avatar image").setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await solidImage("jpeg", 400, 240, "#cc8800") });
  await page.getByRole("button", { name: "Upload avatar" }).click();
  await expect(headerAvatarImg(page)).not.toHaveAttribute("src", first, { timeout: 15_000 });
  await expect(flash(page)).toHaveText(MESSAGES.avatarUpdated);
  const second = (await headerAvatarImg(page).getAttribute("src"))!;
  expect(second).toMatch(AVATAR_SRC);
  expect((await page.request.get(second)).status()).toBe(200);
  const gone = await page.request.get(first);
  expect(gone.status()).toBe(404);
  expect(gone.headers()["cache-control"]).toBe("no-store");

  await page.getByRole("button", { name: "Remove avatar" }).click();
  await expect(flash(page)).toHaveText(MESSAGES.avatarRemoved);
  await expect(headerAvatarImg(page)).toHaveCount(0);
  await expect(avatarButton(page)).toHaveText("RR");
  await expect(page.getByRole("button", { name: "Remove avatar" })).toHaveCount(0);
  await expect(page.getByLabel("Avatar image", { exact: true })).toBeVisible();
  expect((await page.request.get(second)).status()).toBe(404);
});

test("files that are not acceptable images are refused beside the field and the avatar stays", async ({ page, app, browserErrors }) => {
  test.slow();
  browserErrors.allowStatus(400);
  const id = await logInMember(app, READY.profileAvatarBad, READY_PASSWORD);
  await app.goto(profilePath(id));
  await avatarInput(page).setInputFiles({ name: "good.png", mimeType: "image/png", buffer: await solidImage("png", 128, 128) });
  await page.getByRole("button", { name: "Upload avatar" }).click();
  await expect(flash(page)).toHaveText(MESSAGES.avatarUpdated, { timeout: 15_000 });
  const src = (await headerAvatarImg(page).getAttribute("src"))!;
  expect(src).toMatch(AVATAR_SRC);

  const field = page.getByLabel("New avatar image");
  const upload = page.getByRole("button", { name: "Upload avatar" });
  const expectRefused = async (message: string) => {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(`${message} ${AVATAR_HELP}`);
    await expect(headerAvatarImg(page)).toHaveAttribute("src", src);
  };

  // Nothing chosen.
  await upload.click();
  await expectRefused("Choose an image to upload.");

  // Text named .png and declared image/png: the server decodes it and refuses.
  await field.setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("this is just text, not a picture\n".repeat(20)) });
  await upload.click();
  await expectRefused(MESSAGES.unreadable);

  // A real image that is too small.
  await field.setInputFiles({ name: "tiny.png", mimeType: "image/png", buffer: await solidImage("png", 32, 32) });
  await upload.click();
  await expectRefused(MESSAGES.tooSmall);

  // Over 5 MB: refused in the browser before it is sent...
  const big = await largePng(6 * 1024 * 1024);
  // From a file on disk: Playwright hands large in-memory buffers over through a blob: URL the page's CSP refuses.
  const bigFile = test.info().outputPath("huge.png");
  fs.writeFileSync(bigFile, big);
  await field.setInputFiles(bigFile);
  await upload.click();
  await expectRefused(MESSAGES.tooLarge);
  // ...and by the server, by its size, when it is sent anyway.
  const post = await page.request.post(profilePath(id), {
    multipart: { intent: "avatar", avatar: { name: "huge.png", mimeType: "image/png", buffer: big } },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(413);
  expect(await post.text()).toContain(MESSAGES.tooLarge);

  await page.reload();
  await expect(headerAvatarImg(page)).toHaveAttribute("src", src);
  const still = await page.request.get(src);
  expect(still.status()).toBe(200);
  expect(still.headers()["content-type"]).toBe("image/webp");
});

test("stored images are served only for exact known paths", async ({ request }) => {
  const id = "0123456789abcdef0123456789abcdef";
  for (const path of [
    `/storage/images/avatar/${id}/256x256.webp`, // well-formed but no such image
    `/storage/images/avatar/${id}/999x999.webp`,
    `/storage/images/avatar/${id}/256x256.png`,
    `/storage/images/hero/${id}/256x256.webp`,
    `/storage/images/avatar/${id.slice(1)}/256x256.webp`,
    `/storage/images/avatar/${id}/%2e%2e%2f256x256.webp`,
    `/storage/images/avatar/${id}`,
    `/storage/images/`,
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()["cache-control"], path).toBe("no-store");
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the names form reports an error beside the field, keeps the values, then saves", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const id = await logInMember(app, READY.profileNamesNoJs, READY_PASSWORD);
    await app.goto(profilePath(id));
    await firstName(page).fill("");
    await lastName(page).fill("Kept Lastname");
    await page.getByRole("button", { name: "Save names and email" }).click();

    await expect(page).toHaveURL(profilePath(id));
    await expect(firstName(page)).toHaveAttribute("aria-invalid", "true");
    await expect(firstName(page)).toHaveAccessibleDescription("Enter your first name.");
    await expect(firstName(page)).toHaveValue("");
    await expect(lastName(page)).toHaveValue("Kept Lastname");
    await expect(email(page)).toHaveValue(READY.profileNamesNoJs);
    await expect(page).toHaveTitle(`${readyName("profileNamesNoJs").fullname} | Account | Backline`);

    await firstName(page).fill("Nadia");
    await page.getByRole("button", { name: "Save names and email" }).click();
    await expect(flash(page)).toHaveText(MESSAGES.saved);
    await expect(firstName(page)).toHaveValue("Nadia");
    await expect(lastName(page)).toHaveValue("Kept Lastname");
    await expect(firstName(page)).not.toHaveAttribute("aria-invalid");
    await expect(page).toHaveTitle("Nadia Kept Lastname | Account | Backline");
    await expect(avatarButton(page)).toHaveAccessibleName("Account menu for Nadia Kept Lastname");
  });
});
