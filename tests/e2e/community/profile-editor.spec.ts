import crypto from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { flash, largePng, logInMember, otherBrowser, solidImage } from "../support/account-admin-helpers";
import {
  PROFILE_EDITOR_TYPES,
  profileAccount,
  PROFILES_ADMIN,
  PROFILES_NO_JS,
  PROFILES_OTHER,
  PROFILES_PASSWORD,
  takenUsername,
  type ProfileEditorType,
} from "../support/profile-accounts";
import { App, expect, test } from "../support/test";

/**
 * The single-profile pages of the five types (app/modules/profiles/profile-editor-*.ts*, the ten
 * `*-profile.$id` routes): creating from the member directory, the details form (bad input, then good),
 * header image and artist picture uploads (good and bad files), and who may open the page.
 */

const TYPES = Object.keys(PROFILE_EDITOR_TYPES) as ProfileEditorType[];
const NOT_AN_IMAGE = "That file is not an image we can read (use JPEG, PNG, WebP or GIF).";
const TOO_SMALL = "Images must be at least 64x64 pixels.";
const TOO_LARGE = "Images can be at most 5 MB.";
const BAD_AMOUNT = "Enter an amount in dollars, like 150 or 150.50.";
const BAD_URL = "Enter a full web address starting with https:// or http://.";

const fresh = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString("hex")}`;
const noun = (type: ProfileEditorType) => (PROFILE_EDITOR_TYPES[type].provider ? `${PROFILE_EDITOR_TYPES[type].label.toLowerCase()} profile` : "artist page");

const details = (page: Page) => page.locator("form#profile-details");
const field = (form: Locator, name: string) => form.locator(`[name="${name}"]`);

/** The error list an input points at (aria-describedby), which the form renders beside it. */
async function errorBeside(input: Locator): Promise<Locator> {
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const ids = (await input.getAttribute("aria-describedby"))?.split(" ") ?? [];
  return input.page().locator(`[id="${ids[0]}"]`);
}

async function expectErrorBeside(input: Locator, message: string) {
  await expect(await errorBeside(input)).toHaveText(message);
}

/** Creates a profile through the member directory page; returns its id (the owner page's URL). */
async function createThroughDirectory(page: Page, app: App, memberId: number, type: ProfileEditorType, name: string, username: string) {
  const { directory, memberPage } = PROFILE_EDITOR_TYPES[type];
  await app.goto(`/member/${memberId}/${directory}`);
  if (type === "artist") await page.getByText("Create an artist page", { exact: true }).click();
  const form = page.getByRole("form", { name: `Create ${noun(type)}` });
  await form.getByLabel(type === "artist" ? "Artist or band name" : "Name shown on the profile").fill(name);
  await form.getByLabel("Username").fill(username);
  await form.getByRole("button", { name: `Create ${noun(type)}` }).click();
  // Creating writes, redirects and loads the new page: allow for a busy machine.
  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/${memberPage}/\\d+$`), { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await app.hydrated();
  return Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
}

for (const type of TYPES) {
  const info = PROFILE_EDITOR_TYPES[type];

  test.describe(`${info.label} profile`, () => {
    test("create, edit with bad then good input, and only the owner and admins may open it", async ({ page, app, browser, browserErrors }) => {
      test.setTimeout(90_000);
      // 400: the server's refusals (a taken username); 404: the guard.
      browserErrors.allowStatus(400, 404);
      const owner = profileAccount(type, "edit");
      const memberId = await logInMember(app, owner.email, PROFILES_PASSWORD);

      // Creating: a bad username is refused beside its field and the name is kept.
      await app.goto(`/member/${memberId}/${info.directory}`);
      if (type === "artist") await page.getByText("Create an artist page", { exact: true }).click();
      const createForm = page.getByRole("form", { name: `Create ${noun(type)}` });
      const nameLabel = type === "artist" ? "Artist or band name" : "Name shown on the profile";
      await createForm.getByLabel(nameLabel).fill("Draft Name");
      await createForm.getByLabel("Username").fill("Bad Name");
      await createForm.getByRole("button", { name: `Create ${noun(type)}` }).click();
      await expectErrorBeside(createForm.getByLabel("Username"), "Use only lower-case letters, digits and single hyphens (not at the start or end).");
      await expect(createForm.getByLabel(nameLabel)).toHaveValue("Draft Name");
      await expect(page).toHaveURL(`/member/${memberId}/${info.directory}`);

      const username = fresh(`pe-${info.directory}`);
      const id = await createThroughDirectory(page, app, memberId, type, `First ${info.label}`, username);
      await expect(flash(page)).toContainText("is created as a draft");
      await expect(page.getByText("No header image yet")).toBeVisible();
      await expect(page.getByRole("link", { name: "View public page" })).toHaveAttribute("href", `/member/${memberId}/${info.directory}/${username}`);

      if (info.provider) {
        // One profile of each provider type per member: a second create (a forged POST) is refused.
        const again = await page.request.post(`/member/${memberId}/${info.directory}?index`, {
          form: { intent: "create-profile", name: "Second", username: fresh("second") },
          maxRedirects: 0,
        });
        expect(again.status()).toBe(400);
        expect(await again.text()).toContain(`This member already has a ${info.label.toLowerCase()} profile`);
      }

      // Bad input: the browser's check (the same schema) shows every error beside its field; values stay.
      const form = details(page);
      await field(form, "name").fill("");
      await field(form, "bio").fill("Bio typed before the errors.");
      await field(form, "links[0].label").fill("Site");
      await field(form, "links[0].url").fill("javascript:alert(1)");
      if (info.provider) {
        await field(form, "rates[0].label").fill("Mixing");
        await field(form, "rates[0].amount").fill("12.345");
        await field(form, "rates[0].unit").selectOption("per_song");
        await field(form, "rates[1].label").fill("Sessions");
        await field(form, "rates[1].amount").fill("-5");
        await field(form, "rates[1].unit").selectOption("per_hour");
        await field(form, "credits[0].title").fill("Night Drive");
        await field(form, "credits[0].year").fill("1800");
      }
      await form.getByRole("button", { name: "Save details" }).click();
      await expectErrorBeside(field(form, "name"), "Enter a name.");
      await expectErrorBeside(field(form, "links[0].url"), BAD_URL);
      if (info.provider) {
        await expectErrorBeside(field(form, "rates[0].amount"), BAD_AMOUNT);
        await expectErrorBeside(field(form, "rates[1].amount"), BAD_AMOUNT);
        await expect(await errorBeside(field(form, "credits[0].year"))).toHaveText(/^Enter a year between 1900 and \d{4}\.$/);
        await expect(field(form, "rates[0].label")).toHaveValue("Mixing");
      }
      await expect(field(form, "bio")).toHaveValue("Bio typed before the errors.");

      // Only the server knows the username is taken: its answer comes back with every value kept.
      const newName = `Edited ${info.label} ${crypto.randomBytes(2).toString("hex")}`;
      await field(form, "name").fill(newName);
      await field(form, "username").fill(takenUsername(type));
      await field(form, "links[0].url").fill("https://example.com/site");
      await field(form, "location").fill("Austin, United States");
      await form.getByRole("group", { name: "Genres" }).getByLabel("Rock", { exact: true }).check();
      if (type === "musician") {
        await form.getByRole("group", { name: "Skills" }).getByLabel("Session Musician", { exact: true }).check();
        await form.getByRole("group", { name: "Instruments" }).getByLabel("Piano", { exact: true }).check();
        await form.getByRole("group", { name: "Languages" }).getByLabel("English", { exact: true }).check();
      } else if (info.provider) {
        await form.getByRole("group", { name: "Skills" }).getByLabel("Mixing", { exact: true }).check();
      }
      if (info.provider) {
        await field(form, "rates[0].amount").fill("150.50");
        await field(form, "rates[1].amount").fill("80");
        await field(form, "credits[0].role").fill("Engineer");
        await field(form, "credits[0].year").fill("2021");
        await field(form, "sampleLinks[0].label").fill("Reel");
        await field(form, "sampleLinks[0].url").fill("https://example.com/reel");
      }
      await form.getByRole("button", { name: "Save details" }).click();
      await expectErrorBeside(field(form, "username"), "That username is taken.");
      await expect(field(form, "name")).toHaveValue(newName);
      await expect(field(form, "location")).toHaveValue("Austin, United States");
      await expect(form.getByRole("group", { name: "Genres" }).getByLabel("Rock", { exact: true })).toBeChecked();
      if (info.provider) await expect(field(form, "rates[0].amount")).toHaveValue("150.50");

      // Good input: saved, and the page shows what was saved.
      const newUsername = fresh(`pe2-${info.directory}`);
      await field(form, "username").fill(newUsername);
      await form.getByRole("button", { name: "Save details" }).click();
      await expect(flash(page)).toHaveText("Your changes are saved.");
      await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
      await page.reload();
      await app.hydrated();
      const saved = details(page);
      await expect(field(saved, "username")).toHaveValue(newUsername);
      await expect(field(saved, "bio")).toHaveValue("Bio typed before the errors.");
      await expect(field(saved, "links[0].url")).toHaveValue("https://example.com/site");
      await expect(saved.getByRole("group", { name: "Genres" }).getByLabel("Rock", { exact: true })).toBeChecked();
      await expect(page.getByRole("link", { name: "View public page" })).toHaveAttribute("href", `/member/${memberId}/${info.directory}/${newUsername}`);
      if (info.provider) {
        await expect(field(saved, "rates[0].amount")).toHaveValue("150.50");
        await expect(field(saved, "rates[0].unit")).toHaveValue("per_song");
        await expect(field(saved, "rates[1].amount")).toHaveValue("80");
        await expect(field(saved, "credits[0].year")).toHaveValue("2021");
        await expect(field(saved, "sampleLinks[0].url")).toHaveValue("https://example.com/reel");
        // Spare rows after the saved ones.
        await expect(field(saved, "rates[3].label")).toHaveValue("");
      } else {
        await expect(saved.getByRole("group", { name: "Rates" })).toHaveCount(0);
      }

      // Another member: their own area with this id, and this member's area, both 404; a forged POST too.
      const other = await otherBrowser(browser, browserErrors);
      const otherApp = new App(other.page, true);
      const otherId = await logInMember(otherApp, PROFILES_OTHER.email, PROFILES_PASSWORD, other.page);
      for (const path of [`/member/${otherId}/${info.memberPage}/${id}`, `/member/${memberId}/${info.memberPage}/${id}`]) {
        const response = await other.page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(other.page.getByRole("heading", { name: "Not Found" })).toBeVisible();
        await expect(other.page.getByText(newName)).toHaveCount(0);
      }
      const forged = await other.page.request.post(`/member/${otherId}/${info.memberPage}/${id}`, {
        form: { intent: "details", name: "Hijacked", username: fresh("hijack") },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(404);
      await other.context.close();

      // An administrator opens the admin page of the profile (and gets 404 for the id under another type).
      const adminBrowser = await otherBrowser(browser, browserErrors);
      const adminApp = new App(adminBrowser.page, true);
      await adminApp.logInQuickly(PROFILES_ADMIN.email, PROFILES_PASSWORD, { page: adminBrowser.page });
      const adminPage = await adminBrowser.page.goto(`/admin/${info.adminPage}/${id}`);
      expect(adminPage?.status()).toBe(200);
      await expect(adminBrowser.page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
      await expect(field(details(adminBrowser.page), "username")).toHaveValue(newUsername);
      await expect(adminBrowser.page.getByRole("link", { name: "View public page" })).toHaveAttribute("href", `/admin/${info.directory}/${newUsername}`);
      const wrongType = TYPES.find((t) => t !== type)!;
      const mismatch = await adminBrowser.page.goto(`/admin/${PROFILE_EDITOR_TYPES[wrongType].adminPage}/${id}`);
      expect(mismatch?.status()).toBe(404);
      await adminBrowser.context.close();

      // Nothing the other member sent reached the profile.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: newName })).toBeVisible();
    });

    test("header image: bad files are refused beside the field, a good one shows, and it can be removed", async ({ page, app, browserErrors }) => {
      test.setTimeout(60_000);
      browserErrors.allowStatus(400);
      const owner = profileAccount(type, "images");
      const memberId = await logInMember(app, owner.email, PROFILES_PASSWORD);
      const name = `Pictured ${info.label}`;
      const id = await createThroughDirectory(page, app, memberId, type, name, fresh(`pi-${info.directory}`));
      const heroForm = page.locator("form#profile-hero");
      const heroInput = heroForm.getByLabel("Header image");
      const upload = () => heroForm.getByRole("button", { name: "Upload header image" }).click();

      if (type === "musician") {
        // Over 5 MB: refused in the browser (the account page's pre-check) before anything is sent.
        const posts: string[] = [];
        const onRequest = (request: { method(): string; url(): string }) => void (request.method() === "POST" && posts.push(request.url()));
        page.on("request", onRequest);
        await heroInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: await largePng(5 * 1024 * 1024 + 1024) });
        await upload();
        await expectErrorBeside(heroForm.getByLabel("Header image"), TOO_LARGE);
        page.off("request", onRequest);
        expect(posts).toEqual([]);
      }

      // A text file named .png: the browser accepts the declared type; the server reads it and refuses.
      await heroInput.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text, not a picture") });
      await upload();
      await expectErrorBeside(heroForm.getByLabel("Header image"), NOT_AN_IMAGE);
      await expect(page.getByText("No header image yet")).toBeVisible();

      // A real image that is too small.
      await heroForm.getByLabel("Header image").setInputFiles({ name: "tiny.png", mimeType: "image/png", buffer: await solidImage("png", 20, 20) });
      await upload();
      await expectErrorBeside(heroForm.getByLabel("Header image"), TOO_SMALL);

      // A good JPEG: stored, shown at 728x410 with its srcset.
      await heroForm
        .getByLabel("Header image")
        .setInputFiles({ name: "stage.jpg", mimeType: "image/jpeg", buffer: await solidImage("jpeg", 1600, 900, "#884422") });
      await upload();
      await expect(flash(page)).toHaveText("The header image is updated.");
      const banner = page.getByRole("img", { name: `Header image of ${name}` });
      await expect(banner).toBeVisible();
      const src = (await banner.getAttribute("src"))!;
      expect(src).toMatch(new RegExp(`^/storage/images/hero/${id}-[0-9a-f]{32}/728x410\\.webp$`));
      expect(await banner.getAttribute("srcset")).toContain("1456x820.webp 1456w");
      await expect.poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      const served = await page.request.get(src);
      expect(served.status()).toBe(200);
      expect(served.headers()["content-type"]).toBe("image/webp");
      await expect(page.getByText("No header image yet")).toHaveCount(0);

      if (type === "artist") {
        const avatarForm = page.locator("form#profile-avatar");
        await avatarForm.getByLabel("Picture").setInputFiles({ name: "fake.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a but not really") });
        await avatarForm.getByRole("button", { name: "Upload picture" }).click();
        await expectErrorBeside(avatarForm.getByLabel("Picture"), NOT_AN_IMAGE);
        await avatarForm.getByLabel("Picture").setInputFiles({ name: "face.png", mimeType: "image/png", buffer: await solidImage("png", 400, 300) });
        await avatarForm.getByRole("button", { name: "Upload picture" }).click();
        await expect(flash(page)).toHaveText("The artist's picture is updated.");
        const avatar = page.locator('section[aria-labelledby="avatar-heading"] img');
        await expect(avatar).toHaveAttribute("src", /^\/storage\/images\/avatar\/[0-9a-f]{32}\/256x256\.webp$/);
      } else {
        await expect(page.locator("form#profile-avatar")).toHaveCount(0);
      }

      // Removing: the placeholder is back and the old files are gone.
      await page.getByRole("button", { name: "Remove header image" }).click();
      await expect(flash(page)).toHaveText("The header image is removed.");
      await expect(page.getByText("No header image yet")).toBeVisible();
      expect((await page.request.get(src)).status()).toBe(404);
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("create, rows typed into the spare rows, a bad amount kept beside its row, and an oversized upload", async ({ page, app, browserErrors }) => {
    test.setTimeout(60_000);
    browserErrors.allowStatus(400, 413);
    const memberId = await logInMember(app, PROFILES_NO_JS.email, PROFILES_PASSWORD);
    await createThroughDirectory(page, app, memberId, "studio", "Plain Form Studio", fresh("nojs-studio"));
    const form = details(page);
    await field(form, "rates[0].label").fill("Day in the big room");
    await field(form, "rates[0].amount").fill("900");
    await field(form, "rates[0].unit").selectOption("per_day");
    await field(form, "rates[1].label").fill("Mastering");
    await field(form, "rates[1].amount").fill("1e3");
    await field(form, "rates[1].unit").selectOption("per_song");
    await field(form, "credits[2].title").fill("Third Row Album");
    await form.getByRole("button", { name: "Save details" }).click();

    const after = details(page);
    await expectErrorBeside(field(after, "rates[1].amount"), BAD_AMOUNT);
    await expect(field(after, "rates[0].amount")).not.toHaveAttribute("aria-invalid", "true");
    await expect(field(after, "rates[0].label")).toHaveValue("Day in the big room");
    await expect(field(after, "rates[1].amount")).toHaveValue("1e3");
    await expect(field(after, "credits[2].title")).toHaveValue("Third Row Album");

    await field(after, "rates[1].amount").fill("75.5");
    await after.getByRole("button", { name: "Save details" }).click();
    await expect(flash(page)).toHaveText("Your changes are saved.");
    const saved = details(page);
    await expect(field(saved, "rates[1].amount")).toHaveValue("75.50");
    // The empty rows between were dropped: the credit moved up to the first row, with spares after it.
    await expect(field(saved, "credits[0].title")).toHaveValue("Third Row Album");
    await expect(field(saved, "credits[1].title")).toHaveValue("");
    await expect(field(saved, "rates[3].label")).toHaveValue("");

    // Without JavaScript nothing stops a large file in the browser: the server refuses the body unread.
    const heroForm = page.locator("form#profile-hero");
    await heroForm.getByLabel("Header image").setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: await largePng(5 * 1024 * 1024 + 512 * 1024) });
    await heroForm.getByRole("button", { name: "Upload header image" }).click();
    await expectErrorBeside(page.locator("form#profile-hero").getByLabel("Header image"), TOO_LARGE);
  });
});
