import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { flash } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, type App } from "../support/test";

/**
 * The admin-maintained managers and venues directories (app/routes/admin.managers.tsx, admin.venues.tsx,
 * app/modules/industry/): the guard, add with errors beside the fields, search, edit (`?edit={id}`) and
 * delete with a confirmation step. Every test adds its own records with a random suffix.
 * The seed gives the demo member the published artist page "Mia and the Midnight Owls" (midnight-owls).
 */

const ARTIST = { name: "Mia and the Midnight Owls", username: "midnight-owls" };

const suffix = () => crypto.randomBytes(3).toString("hex");
const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;

const table = (page: Page) => page.getByRole("table");
const row = (page: Page, name: string) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) });
const form = (page: Page, name: string) => page.getByRole("form", { name });

async function asAdmin(app: App) {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
}

async function search(page: Page, what: "managers" | "venues", q: string) {
  const filters = page.getByRole("search", { name: `Filter ${what}` });
  await filters.getByRole("searchbox").fill(q);
  await filters.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === q);
}

/** Opens "Delete", then confirms: the button only exists behind the first step. */
async function deleteRecord(page: Page, name: string, what: "manager" | "venue") {
  const confirm = form(page, `Delete ${name}`).getByRole("button", { name: `Yes, delete ${what}` });
  await expect(confirm).toBeHidden();
  await row(page, name)
    .locator("summary")
    .filter({ hasText: /^Delete/ })
    .click();
  await confirm.click();
}

test.describe("guard", () => {
  for (const path of ["/admin/managers", "/admin/venues"]) {
    test(`${path}: no session goes to /login?redirect=, a member is sent away and cannot post`, async ({ page, app, browser }) => {
      const anonymous = await browser.newPage();
      await anonymous.goto(`${path}?q=x`);
      await expect(anonymous).toHaveURL(loginFor(`${path}?q=x`));
      await anonymous.close();

      await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
      await page.goto(path);
      await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
      // Leave the member's live page before the session changes under it.
      await page.goto("about:blank");
      const name = `Member made ${suffix()}`;
      const post = await page.request.post(path, { form: { intent: "create", name }, maxRedirects: 0 });
      expect(post.status()).toBe(302);
      expect(post.headers()["location"]).toBe("/login");

      await asAdmin(app);
      await app.goto(`${path}?q=${encodeURIComponent(name)}`);
      await expect(page.getByText(/^No (managers|venues) match this search\.$/)).toBeVisible();
    });
  }
});

test("managers: add with an unknown artist username, fix it, search, edit and delete", async ({ page, app, browserErrors }) => {
  await asAdmin(app);
  // The server's answer to unknown usernames is a 400 with the form.
  browserErrors.allowStatus(400);
  const id = suffix();
  const name = `Rosa Reyes ${id}`;
  const company = `Nightjar Management ${id}`;
  await app.goto("/admin/managers");
  await expect(page).toHaveTitle("Managers | Admin Area | Backline");
  await expect(page.getByRole("heading", { level: 1, name: "Managers" })).toBeVisible();

  await page.locator("summary").filter({ hasText: "Add manager" }).click();
  const add = form(page, "Add manager");
  await add.getByLabel("Name", { exact: true }).fill(name);
  await add.getByLabel("Company (optional)").fill(company);
  await add.getByLabel("Email (optional)").fill("rosa@nightjar");
  await add.getByLabel("Managed artists (optional)").fill(`${ARTIST.username}, ghost-band-${id}\n@nobody-${id}`);
  await add.getByRole("button", { name: "Add manager" }).click();
  await expect(add.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();

  await add.getByLabel("Email (optional)").fill("rosa@nightjar.example");
  await add.getByRole("button", { name: "Add manager" }).click();
  // The server names every unknown username beside the field; everything typed is kept.
  await expect(
    add.getByText(`No artist pages have the usernames “ghost-band-${id}” and “nobody-${id}”. Check the spelling, or add the artist pages first.`),
  ).toBeVisible();
  await expect(add.getByLabel("Managed artists (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(add.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(add.getByLabel("Managed artists (optional)")).toHaveValue(`${ARTIST.username}, ghost-band-${id}\n@nobody-${id}`);

  await add.getByLabel("Managed artists (optional)").fill(ARTIST.username.toUpperCase());
  await add.getByRole("button", { name: "Add manager" }).click();
  await expect(flash(page)).toHaveText(`Added the manager “${name}”.`);

  await search(page, "managers", company.toLowerCase());
  await expect(table(page).getByRole("rowheader")).toHaveText([name]);
  const cells = row(page, name).getByRole("cell");
  await expect(cells.nth(0)).toHaveText(company, { useInnerText: true });
  await expect(cells.nth(1).getByRole("link", { name: "rosa@nightjar.example" })).toHaveAttribute("href", "mailto:rosa@nightjar.example");
  await expect(cells.nth(2).getByRole("link", { name: ARTIST.name })).toHaveAttribute("href", `/admin/artists/${ARTIST.username}`);

  // Edit opens the form above the list, filled in; the search is kept.
  await row(page, name)
    .getByRole("link", { name: `Edit ${name}` })
    .click();
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === company.toLowerCase() && url.searchParams.has("edit"));
  const edit = form(page, `Edit ${name}`);
  await expect(page.getByRole("heading", { name: `Edit manager: ${name}` })).toBeVisible();
  await expect(edit.getByLabel("Managed artists (optional)")).toHaveValue(ARTIST.username);
  await edit.getByLabel("Phone (optional)").fill("+44 20 7946 0958");
  await edit.getByLabel("Website (optional)").fill("nightjar.example");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Enter a full web address, like https://example.com.")).toBeVisible();
  await edit.getByLabel("Website (optional)").fill("https://nightjar.example");
  await edit.getByLabel("Managed artists (optional)").fill("");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(flash(page)).toHaveText(`Saved “${name}”.`);
  await expect(edit).toBeHidden();
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === company.toLowerCase() && !url.searchParams.has("edit"));
  await expect(cells.nth(1).getByRole("link", { name: "+44 20 7946 0958" })).toHaveAttribute("href", "tel:+442079460958");
  await expect(cells.nth(1).getByRole("link", { name: "nightjar.example", exact: true })).toBeVisible();
  await expect(cells.nth(2)).toHaveText("None", { useInnerText: true });

  await deleteRecord(page, name, "manager");
  await expect(flash(page)).toHaveText(`Deleted the manager “${name}”.`);
  await expect(page.getByText("No managers match this search.")).toBeVisible();
});

test("venues: capacity must be a whole number above 0; add, search by city, edit and delete", async ({ page, app }) => {
  await asAdmin(app);
  const id = suffix();
  const name = `The Lantern ${id}`;
  const city = `Lanternburg ${id}`;
  await app.goto("/admin/venues");
  await expect(page).toHaveTitle("Venues | Admin Area | Backline");

  await page.locator("summary").filter({ hasText: "Add venue" }).click();
  const add = form(page, "Add venue");
  await add.getByLabel("Name", { exact: true }).fill(name);
  await add.getByLabel("City (optional)", { exact: true }).fill(city);
  await add.getByLabel("Country (optional)").fill("Ireland");
  for (const capacity of ["-3", "abc"]) {
    await add.getByLabel("Capacity (optional)").fill(capacity);
    await add.getByRole("button", { name: "Add venue" }).click();
    await expect(add.getByText("Enter the capacity as a whole number above 0, like 250.")).toBeVisible();
    await expect(add.getByLabel("Capacity (optional)")).toHaveAttribute("aria-invalid", "true");
  }
  await add.getByLabel("Capacity (optional)").fill("1250");
  await add.getByRole("button", { name: "Add venue" }).click();
  await expect(flash(page)).toHaveText(`Added the venue “${name}”.`);

  await search(page, "venues", city.toUpperCase());
  await expect(table(page).getByRole("rowheader")).toHaveText([name]);
  const cells = row(page, name).getByRole("cell");
  await expect(cells.nth(0)).toHaveText(`${city}, Ireland`, { useInnerText: true });
  await expect(cells.nth(1)).toHaveText("1,250", { useInnerText: true });
  await expect(cells.nth(2)).toHaveText("—", { useInnerText: true });

  await row(page, name)
    .getByRole("link", { name: `Edit ${name}` })
    .click();
  const edit = form(page, `Edit ${name}`);
  await expect(edit.getByLabel("Capacity (optional)")).toHaveValue("1250");
  await edit.getByLabel("Capacity (optional)").fill("0");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Enter the capacity as a whole number above 0, like 250.")).toBeVisible();
  await edit.getByLabel("Capacity (optional)").fill("");
  await edit.getByLabel("Email (optional)").fill("gigs@lantern.example");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(flash(page)).toHaveText(`Saved “${name}”.`);
  await expect(cells.nth(1)).toHaveText("—", { useInnerText: true });
  await expect(cells.nth(2).getByRole("link", { name: "gigs@lantern.example" })).toBeVisible();

  await deleteRecord(page, name, "venue");
  await expect(flash(page)).toHaveText(`Deleted the venue “${name}”.`);
  await expect(page.getByText("No venues match this search.")).toBeVisible();
});

test("an unknown record to edit or delete is not found", async ({ page, app, browserErrors }) => {
  await asAdmin(app);
  browserErrors.allowStatus(404);
  expect((await page.goto("/admin/venues?edit=2000000000"))?.status()).toBe(404);
  expect((await page.goto("/admin/managers?edit=abc"))?.status()).toBe(404);
  const response = await page.request.post("/admin/managers", { form: { intent: "delete", id: "2000000000" }, maxRedirects: 0 });
  expect(response.status()).toBe(404);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a venue's errors come back in the open add form, and deleting asks first", async ({ page, app, browserErrors }) => {
    await asAdmin(app);
    browserErrors.allowStatus(400);
    const id = suffix();
    const name = `Cellar Bar ${id}`;
    await app.goto("/admin/venues");
    await page.locator("summary").filter({ hasText: "Add venue" }).click();
    const add = form(page, "Add venue");
    await add.getByLabel("Name", { exact: true }).fill(name);
    await add.getByLabel("Capacity (optional)").fill("-3");
    await add.getByLabel("Website (optional)").fill("cellar");
    await add.getByRole("button", { name: "Add venue" }).click();
    await expect(add).toBeVisible();
    await expect(add.getByText("Enter the capacity as a whole number above 0, like 250.")).toBeVisible();
    await expect(add.getByText("Enter a full web address, like https://example.com.")).toBeVisible();
    await expect(add.getByLabel("Name", { exact: true })).toHaveValue(name);

    await add.getByLabel("Capacity (optional)").fill("80");
    await add.getByLabel("Website (optional)").fill("http://cellar.example");
    await add.getByRole("button", { name: "Add venue" }).click();
    await expect(flash(page)).toHaveText(`Added the venue “${name}”.`);

    await app.goto(`/admin/venues?q=${id}`);
    await deleteRecord(page, name, "venue");
    await expect(flash(page)).toHaveText(`Deleted the venue “${name}”.`);
    await expect(page).toHaveURL(new RegExp(`/admin/venues\\?q=${id}&done=`));
    await expect(page.getByText("No venues match this search.")).toBeVisible();
  });
});
