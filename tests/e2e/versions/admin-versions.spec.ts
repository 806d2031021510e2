import type { Locator, Page } from "@playwright/test";
import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, type App } from "../support/test";
import { VERSION_MEMBERS, VERSION_PASSWORD } from "../support/version-accounts";
import { flash, latest, signedIn, uniqueVersionName, whatsNew } from "./helpers";

/**
 * /admin/versions (app/routes/admin.versions.tsx): administrators publish a version (name and HTML notes,
 * sanitised on the server, previewed live), and see the list with how many users have seen each one.
 */

const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;
const NAME_LABEL = "Version name";
const CONTENT_LABEL = "What’s new (HTML)";

const nameField = (page: Page) => page.getByLabel(NAME_LABEL);
const contentField = (page: Page) => page.getByLabel(CONTENT_LABEL);
const publishButton = (page: Page) => page.getByRole("button", { name: "Publish version" });
const preview = (page: Page) => page.getByRole("region", { name: "Preview" });
const versionTable = (page: Page) => page.getByRole("table");
const versionRow = (page: Page, name: string) =>
  versionTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader").filter({ hasText: name }) });
/** The row's "Seen by" cell (its phone label is drawn by CSS, so the cell's text is the value alone). */
const seenBy = (row: Locator) => row.getByRole("cell").nth(2);

/** Nothing of the script or the handler made it into `scope`. */
async function expectSanitised(scope: Locator) {
  await expect(scope.locator("script")).toHaveCount(0);
  await expect(scope.locator("[onclick]")).toHaveCount(0);
  await expect(scope.locator("img")).toHaveCount(0);
  await expect(scope).not.toContainText("__versionXss");
}

/** The notes every sanitising test publishes: a script, an inline handler, an image with onerror. */
const HOSTILE_NOTES = [
  "<h2>Faster rehearsals</h2>",
  "<p onclick=\"window.__versionXss = 'onclick'\">Booking a room takes <strong>one click</strong> now.</p>",
  "<script>window.__versionXss = 'script'</script>",
  '<img src="/nope.png" onerror="window.__versionXss = \'img\'">',
  '<ul><li>Shared setlists</li><li><a href="https://example.com/notes" target="_self" onclick="x()">Read more</a></li></ul>',
].join("\n");

async function asAdmin(app: App) {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  expect((await app.goto("/admin/versions"))?.status()).toBe(200);
  await expect(app.page.getByRole("heading", { level: 1, name: "App versions" })).toBeVisible();
}

test.describe("guard", () => {
  test("without a session the page and its POST go to /login?redirect=/admin/versions, and nothing is published", async ({ page, request }) => {
    await page.goto("/admin/versions");
    await expect(page).toHaveURL(loginFor("/admin/versions"));
    await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();

    const name = uniqueVersionName("No session");
    const post = await request.post("/admin/versions", { form: { name, content: "<p>x</p>" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(loginFor("/admin/versions"));

    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    expect((await latest(admin.api)).data?.version.name).not.toBe(name);
    await admin.api.dispose();
  });

  test("a member ends on their own dashboard, and their POST publishes nothing", async ({ page, app }) => {
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    await page.goto("/admin/versions");
    await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Publish a version" })).toHaveCount(0);

    const name = uniqueVersionName("By a member");
    const post = await page.request.post("/admin/versions", { form: { name, content: "<p>x</p>" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/login");
    expect((await latest(page.request)).data?.version.name).not.toBe(name);
  });
});

test.describe("bad input", () => {
  test("empty fields, a name over 80 characters and notes with nothing readable: errors beside the fields, values kept", async ({
    page,
    app,
    browserErrors,
  }) => {
    // The server refuses the unreadable notes with 400 (the browser logs the failed request).
    browserErrors.allowStatus(400);
    await asAdmin(app);
    const before = (await latest(page.request)).data?.version.id ?? null;

    // Both empty: checked in the browser.
    await publishButton(page).click();
    await expect(nameField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(nameField(page)).toHaveAccessibleDescription(/Enter a version name\./);
    await expect(contentField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(contentField(page)).toHaveAccessibleDescription(/Describe what is new\./);

    // Notes alone: the name's error stays, the notes are fine and kept.
    await contentField(page).fill("<p>Kept notes</p>");
    await publishButton(page).click();
    await expect(nameField(page)).toHaveAccessibleDescription(/Enter a version name\./);
    await expect(contentField(page)).not.toHaveAttribute("aria-invalid", "true");
    await expect(contentField(page)).toHaveValue("<p>Kept notes</p>");

    // 81 characters (the field's own maxlength stops typing at 80; a client that ignores it meets the schema).
    const long = "v".repeat(81);
    await nameField(page).evaluate((input) => input.removeAttribute("maxlength"));
    await nameField(page).fill(long);
    await publishButton(page).click();
    await expect(nameField(page)).toHaveAccessibleDescription(/The name can be at most 80 characters\./);
    await expect(nameField(page)).toHaveValue(long);
    await expect(contentField(page)).toHaveValue("<p>Kept notes</p>");

    // Notes that are only markup the server removes: the server's error, beside the notes.
    const name = uniqueVersionName("Nothing readable");
    await nameField(page).fill(name);
    await contentField(page).fill("<script>alert(1)</script><img src=x>");
    await publishButton(page).click();
    await expect(contentField(page)).toHaveAccessibleDescription(/Nothing readable is left once unsupported HTML is removed/);
    await expect(contentField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(nameField(page)).toHaveValue(name);
    await expect(nameField(page)).not.toHaveAttribute("aria-invalid", "true");
    await expect(contentField(page)).toHaveValue("<script>alert(1)</script><img src=x>");
    await expect(page).toHaveURL("/admin/versions");
    await expect(flash(page)).toHaveText("");

    // Nothing was published.
    expect((await latest(page.request)).data?.version.id ?? null).toBe(before);
  });

  test("a name and notes of spaces only get the fields' own messages", async ({ page, app }) => {
    await asAdmin(app);
    await nameField(page).fill("   ");
    await contentField(page).fill(" \n ");
    await publishButton(page).click();
    await expect(nameField(page)).toHaveAttribute("aria-invalid", "true");
    await expect(nameField(page)).toHaveAccessibleDescription(/^Enter a version name\./, { timeout: 2_000 });
    await expect(contentField(page)).toHaveAccessibleDescription(/^Describe what is new\./, { timeout: 2_000 });
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the server answers 400 with the errors beside the fields and the values kept", async ({ page, app, browserErrors }) => {
      browserErrors.allowStatus(400);
      await asAdmin(app);
      const before = (await latest(page.request)).data?.version.id ?? null;

      const submitted = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/admin/versions");
      await publishButton(page).click();
      expect((await submitted).status()).toBe(400);
      await expect(nameField(page)).toHaveAccessibleDescription(/Enter a version name\./);
      await expect(contentField(page)).toHaveAccessibleDescription(/Describe what is new\./);

      const long = "n".repeat(81);
      const again = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/admin/versions");
      await nameField(page).evaluate((input, value) => {
        input.removeAttribute("maxlength");
        (input as HTMLInputElement).value = value;
      }, long);
      await contentField(page).fill("<p>Server-side notes</p>");
      await publishButton(page).click();
      expect((await again).status()).toBe(400);
      await expect(nameField(page)).toHaveAccessibleDescription(/The name can be at most 80 characters\./);
      await expect(nameField(page)).toHaveValue(long);
      await expect(contentField(page)).toHaveValue("<p>Server-side notes</p>");
      await expect(contentField(page)).not.toHaveAttribute("aria-invalid", "true");

      expect((await latest(page.request)).data?.version.id ?? null).toBe(before);
    });
  });
});

test("publishing notes with a script and handlers: the preview, the list and the member's modal show them without", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  // Publishing reloads the list: a slow machine needs more than the default.
  test.setTimeout(60_000);
  await asAdmin(app);
  await expect(page).toHaveTitle("App versions | Admin Area | Backline");
  const name = uniqueVersionName("Release 3.1");

  // The live preview, sanitised by the server as the admin types.
  await expect(preview(page)).toContainText("The notes appear here as you type.");
  await nameField(page).fill(name);
  await contentField(page).fill(HOSTILE_NOTES);
  await expect(preview(page).getByRole("heading", { level: 2, name: "Faster rehearsals" })).toBeVisible();
  await expect(preview(page).getByRole("listitem")).toHaveText(["Shared setlists", "Read more"]);
  await expectSanitised(preview(page));
  // A link keeps its address, and target is never anything but a new tab with noopener.
  await expect(preview(page).getByRole("link", { name: "Read more" })).toHaveAttribute("href", "https://example.com/notes");
  await expect(preview(page).getByRole("link", { name: "Read more" })).toHaveAttribute("rel", "noopener noreferrer");

  await publishButton(page).click();
  await expect(flash(page)).toHaveText(`${name} was published. Everyone signed in sees its notes once, in “What’s new”.`);
  await expect(page).toHaveURL(/\/admin\/versions\?done=\d+$/);

  // Stored without the script, the handlers and the image.
  const stored = (await latest(page.request)).data!;
  expect(stored.version.name).toBe(name);
  expect(stored.seen, "the publisher has seen their own notes").toBe(true);
  for (const gone of ["<script", "onclick", "onerror", "<img", "__versionXss", "_self"]) {
    expect(stored.version.content, `stored notes contain ${gone}`).not.toContain(gone);
  }
  expect(stored.version.content).toContain("<p>Booking a room takes <strong>one click</strong> now.</p>");

  // The list: newest first, the publisher, seen by 1 (the publisher), the notes behind "Show notes".
  const row = versionRow(page, name);
  await expect(row).toHaveCount(1);
  await expect(versionTable(page).getByRole("rowheader").first()).toContainText(name);
  await expect(row.getByRole("cell").nth(1)).toContainText("Ada Admin");
  await expect(seenBy(row)).toHaveText(/(?:^|\D)1 user$/);
  const notes = row.locator("details");
  await expect(notes.getByRole("heading", { name: "Faster rehearsals" })).toBeHidden();
  await notes.getByText("Show notes").click();
  await expect(notes.getByRole("heading", { level: 2, name: "Faster rehearsals" })).toBeVisible();
  await expect(notes).toContainText("Booking a room takes one click now.");
  await expectSanitised(notes);
  await notes.getByText("Booking a room takes").click();

  // A member sees the same notes in the modal, and nothing ran.
  const member = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, VERSION_MEMBERS.sanitised, VERSION_PASSWORD, member.page);
  const viewed = member.page.waitForResponse((r) => /\/api\/versions\/\d+\/view$/.test(r.url()));
  await app.goto(`/member/${memberId}/dashboard`, member.page);
  const dialog = whatsNew(member.page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("data-whats-new", String(stored.version.id));
  await expect(dialog.getByRole("heading", { level: 2, name: "Faster rehearsals" })).toBeVisible();
  await expectSanitised(dialog);
  await dialog.getByText("Booking a room takes").click();
  expect((await viewed).status()).toBe(204);
  for (const p of [page, member.page]) {
    expect(await p.evaluate(() => (window as unknown as { __versionXss?: string }).__versionXss)).toBeUndefined();
  }
  await member.context.close();

  // The list counts the member now.
  await page.reload();
  await expect(seenBy(versionRow(page, name))).toHaveText(/(?:^|\D)2 users$/);
});

test("after publishing, the form is empty again", async ({ page, app }) => {
  await asAdmin(app);
  const name = uniqueVersionName("Form reset");
  await nameField(page).fill(name);
  await contentField(page).fill("<p>Nothing to see twice</p>");
  await publishButton(page).click();
  await expect(flash(page)).toContainText(`${name} was published.`);
  await expect(nameField(page)).toHaveValue("", { timeout: 2_000 });
  await expect(contentField(page)).toHaveValue("", { timeout: 2_000 });
});
