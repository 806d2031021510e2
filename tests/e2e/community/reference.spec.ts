import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { flash } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test, type App } from "../support/test";

/**
 * Reference data admin (app/routes/admin.{genres,skills,instruments,languages,pros}.tsx, one shared page in
 * app/modules/reference/reference-page.tsx): the guard, the tab bar, add, search, edit (with the duplicate-name
 * error beside the field), retire and restore, and the PRO fields. That a retired value is no longer offered
 * on profile forms is checked in reference.server.test.ts (loadReferenceOptions).
 * Every test adds its own values with a random suffix, so reruns and parallel tests never meet.
 */

const PAGES = [
  { path: "/admin/genres", title: "Genres" },
  { path: "/admin/skills", title: "Skills" },
  { path: "/admin/instruments", title: "Instruments" },
  { path: "/admin/pros", title: "PROs" },
  { path: "/admin/languages", title: "Languages" },
] as const;

const suffix = () => crypto.randomBytes(3).toString("hex");
const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;

const table = (page: Page) => page.getByRole("table");
const row = (page: Page, name: string) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) });
const addForm = (page: Page, noun: string) => page.getByRole("form", { name: `Add ${noun}` });
const editForm = (page: Page, name: string) => page.getByRole("form", { name: `Edit ${name}` });
/** The inline edit form's toggle (a <summary>, which has no ARIA role to find it by). */
const openEdit = (page: Page, name: string) => row(page, name).locator("summary").filter({ hasText: /^Edit/ }).click();
const filters = (page: Page, nounPlural: string) => page.getByRole("search", { name: `Filter ${nounPlural}` });

async function asAdmin(app: App) {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
}

async function add(page: Page, noun: string, name: string) {
  const form = addForm(page, noun);
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: `Add ${noun}` }).click();
}

async function search(page: Page, nounPlural: string, q: string, status: "all" | "active" | "retired" = "all") {
  const form = filters(page, nounPlural);
  await form.getByLabel(/^Search by name/).fill(q);
  await form.getByLabel("Status").selectOption(status);
  await form.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === q && url.searchParams.get("status") === status);
}

test.describe("guard", () => {
  test("without a session each page goes to /login?redirect=", async ({ page }) => {
    for (const { path } of PAGES) {
      await page.goto(`${path}?q=x`);
      await expect(page).toHaveURL(loginFor(`${path}?q=x`));
    }
  });

  test("a member is sent away from each page, and posting changes nothing", async ({ page, app }) => {
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    const name = `Member genre ${suffix()}`;
    for (const { path } of PAGES) {
      await page.goto(path);
      await expect(page).toHaveURL(`/member/${DEMO_IDS.member}/dashboard`);
      await page.goto("about:blank");
      const post = await page.request.post(path, { form: { intent: "create", name, country: "Nowhere" }, maxRedirects: 0 });
      expect(post.status()).toBe(302);
      expect(post.headers()["location"]).toBe("/login");
    }
    await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
    await app.goto(`/admin/genres?q=${encodeURIComponent(name)}`);
    await expect(page.getByText("No genres match this search.")).toBeVisible();
  });
});

test("one page for five lists: titles, headings and a tab bar with Languages", async ({ page, app }) => {
  await asAdmin(app);
  for (const { path, title } of PAGES) {
    expect((await app.goto(path))?.status()).toBe(200);
    await expect(page).toHaveTitle(`${title} | Admin Area | Backline`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Reference data" }).getByRole("link");
    await expect(tabs).toHaveText(["Genres", "Skills", "Instruments", "PROs", "Languages"]);
    await expect(tabs.filter({ hasText: title })).toHaveAttribute("aria-current", "page");
    await expect(tabs.and(page.locator("[aria-current]"))).toHaveCount(1);
  }
  await app.goto("/admin/genres");
  await page.getByRole("navigation", { name: "Reference data" }).getByRole("link", { name: "Languages" }).click();
  await expect(page).toHaveURL("/admin/languages");
  await expect(row(page, "English")).toBeVisible();
  // The seeded demo profiles carry "Indie" (and other suites add more): the count is of profiles carrying it.
  await app.goto("/admin/genres?q=indie");
  await expect(row(page, "Indie").getByRole("cell").nth(0)).toHaveText(/^([2-9]|\d{2,}) profiles$/, { useInnerText: true });
  await expect(row(page, "Indie").getByRole("cell").nth(1)).toHaveText("Active", { useInnerText: true });
});

test("add, search, rename, refuse a duplicate beside the field, retire and restore a genre", async ({ page, app, browserErrors }) => {
  await asAdmin(app);
  // The server answers a duplicate name with a 400 and the form.
  browserErrors.allowStatus(400);
  const id = suffix();
  const name = `Porch Stomp ${id}`;
  const renamed = `Porch Stomp ${id} Revival`;
  await app.goto("/admin/genres");

  await add(page, "genre", name);
  await expect(flash(page)).toHaveText(`Added “${name}” to the genres.`);
  await expect(addForm(page, "genre").getByLabel("Name", { exact: true })).toHaveValue("");

  // The same name in other capitals: the error sits beside the field, which keeps what was typed.
  await add(page, "genre", name.toUpperCase());
  const nameField = addForm(page, "genre").getByLabel("Name", { exact: true });
  await expect(addForm(page, "genre").getByText(`“${name}” is already in the genres list.`)).toBeVisible();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toHaveValue(name.toUpperCase());

  await search(page, "genres", `STOMP ${id}`);
  await expect(table(page).getByRole("rowheader")).toHaveText([name]);
  await expect(row(page, name).getByRole("cell")).toHaveText(["0 profiles", "Active", /Edit/], { useInnerText: true });

  // Rename through the inline form.
  await openEdit(page, name);
  await editForm(page, name).getByLabel("Name", { exact: true }).fill(renamed);
  await editForm(page, name).getByRole("button", { name: "Save changes" }).click();
  await expect(flash(page)).toHaveText(`Renamed “${name}” to “${renamed}”.`);
  await expect(page).toHaveURL(new RegExp(`/admin/genres\\?q=STOMP\\+${id}&status=all&done=`));
  await expect(table(page).getByRole("rowheader")).toHaveText([renamed]);
  await expect(editForm(page, renamed)).toBeHidden();

  // Taking a seeded name: refused beside the field, the form stays open with the typed value.
  await openEdit(page, renamed);
  await editForm(page, renamed).getByLabel("Name", { exact: true }).fill("rock");
  await editForm(page, renamed).getByRole("button", { name: "Save changes" }).click();
  await expect(editForm(page, renamed).getByText("“Rock” is already in the genres list.")).toBeVisible();
  await expect(editForm(page, renamed).getByLabel("Name", { exact: true })).toHaveValue("rock");
  await expect(table(page).getByRole("rowheader")).toHaveText([renamed]);

  // Retire: it stays listed as Retired, leaves the Active filter and joins the Retired one.
  await row(page, renamed)
    .getByRole("button", { name: `Retire ${renamed}` })
    .click();
  await expect(flash(page)).toHaveText(`Retired “${renamed}”: profile forms no longer offer it.`);
  await expect(row(page, renamed).getByRole("cell").nth(1)).toHaveText("Retired", { useInnerText: true });
  await search(page, "genres", `STOMP ${id}`, "active");
  await expect(page.getByText("No genres match this search.")).toBeVisible();
  await search(page, "genres", `STOMP ${id}`, "retired");
  await expect(table(page).getByRole("rowheader")).toHaveText([renamed]);

  // Adding it again points at the retired one.
  await add(page, "genre", renamed);
  await expect(addForm(page, "genre").getByText(`A retired genre is already called “${renamed}”: restore it instead of adding it again.`)).toBeVisible();

  await row(page, renamed)
    .getByRole("button", { name: `Restore ${renamed}` })
    .click();
  await expect(flash(page)).toHaveText(`Restored “${renamed}”: profile forms offer it again.`);
  // The retired filter is kept: the restored value leaves it.
  await expect(page.getByText("No genres match this search.")).toBeVisible();
  await page.getByRole("link", { name: "clear the filters" }).click();
  await expect(page).toHaveURL("/admin/genres");
  // The search form is re-mounted from the URL once the new page has rendered: wait for that before typing.
  await expect(page.getByText("No genres match this search.")).toHaveCount(0);
  await search(page, "genres", `STOMP ${id}`, "active");
  await expect(row(page, renamed).getByRole("cell").nth(1)).toHaveText("Active", { useInnerText: true });
});

test("PROs: country, website and code; a bad website is refused beside its field", async ({ page, app }) => {
  await asAdmin(app);
  const id = suffix();
  const name = `Harbour Rights ${id}`;
  await app.goto("/admin/pros");
  await expect(table(page).getByRole("columnheader")).toHaveText(["Name", "Code", "Country", "Website", "Used by", "Status", "Actions"]);
  await expect(row(page, "ASCAP").getByRole("cell").nth(0)).toHaveText("ASCAP", { useInnerText: true });

  const form = addForm(page, "PRO");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Add PRO" }).click();
  await expect(form.getByText("Enter the country.")).toBeVisible();

  await form.getByLabel("Country").fill("Iceland");
  await form.getByLabel("Website (optional)").fill("http://harbour.example");
  await form.getByLabel("Code (optional)").fill(`hr${id}`);
  await form.getByRole("button", { name: "Add PRO" }).click();
  await expect(form.getByText("Enter a full https address, like https://www.ascap.com.")).toBeVisible();
  await expect(form.getByLabel("Website (optional)")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);

  await form.getByLabel("Website (optional)").fill("https://harbour.example/about");
  await form.getByRole("button", { name: "Add PRO" }).click();
  await expect(flash(page)).toHaveText(`Added “${name}” to the PROs.`);

  // Found by its code (stored in capitals) as well as its name.
  await filters(page, "PROs").getByLabel("Search by name, code or country").fill(`HR${id.toUpperCase()}`);
  await filters(page, "PROs").getByRole("button", { name: "Search", exact: true }).click();
  await expect(table(page).getByRole("rowheader")).toHaveText([name]);
  await expect(row(page, name).getByRole("cell").nth(0)).toHaveText(`HR${id.toUpperCase()}`, { useInnerText: true });
  await expect(row(page, name).getByRole("cell").nth(1)).toHaveText("Iceland", { useInnerText: true });
  await expect(row(page, name).getByRole("link", { name: "harbour.example/about" })).toHaveAttribute("href", "https://harbour.example/about");

  await openEdit(page, name);
  const edit = editForm(page, name);
  await expect(edit.getByLabel("Country")).toHaveValue("Iceland");
  await edit.getByLabel("Website (optional)").fill("ftp://harbour.example");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Enter a full https address, like https://www.ascap.com.")).toBeVisible();
  await edit.getByLabel("Website (optional)").fill("");
  await edit.getByLabel("Country").fill("Faroe Islands");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(flash(page)).toHaveText(`Saved “${name}”.`);
  await expect(row(page, name).getByRole("cell").nth(1)).toHaveText("Faroe Islands", { useInnerText: true });
  await expect(row(page, name).getByRole("cell").nth(2)).toHaveText("—", { useInnerText: true });
});

test("the DJ skill cannot be renamed (the admin DJs list finds its profiles by it)", async ({ page, app, browserErrors }) => {
  await asAdmin(app);
  browserErrors.allowStatus(400);
  await app.goto("/admin/skills?q=dj");
  await openEdit(page, "DJ");
  const edit = editForm(page, "DJ");
  await expect(edit.getByText("The admin DJs list finds its profiles by this name, so it cannot be renamed.")).toBeVisible();
  await edit.getByLabel("Name", { exact: true }).fill("Disc Jockey");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("The “DJ” skill cannot be renamed: the admin DJs list finds its profiles by this name.")).toBeVisible();
  await app.goto("/admin/skills?q=dj");
  await expect(row(page, "DJ")).toBeVisible();
});

test("a page past the end links to the last page; a value of another kind is not found", async ({ page, app, browserErrors }) => {
  await asAdmin(app);
  await app.goto("/admin/instruments?page=40");
  await expect(page.getByText("There is nothing on this page.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the last page" }).click();
  await expect(page).toHaveURL("/admin/instruments?page=1");
  await expect(row(page, "Banjo")).toBeVisible();

  // Retiring a genre's id through the instruments page: 404, and the genre is untouched.
  browserErrors.allowStatus(404);
  await app.goto("/admin/genres?q=Reggae");
  const retire = row(page, "Reggae").getByRole("button", { name: "Retire Reggae" });
  const genreId = await row(page, "Reggae").locator('input[name="id"]').first().inputValue();
  const response = await page.request.post("/admin/instruments", { form: { intent: "retire", id: genreId }, maxRedirects: 0 });
  expect(response.status()).toBe(404);
  await app.goto("/admin/genres?q=Reggae");
  await expect(retire).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add, a duplicate rename kept open with its error, and retire work as plain forms", async ({ page, app, browserErrors }) => {
    await asAdmin(app);
    browserErrors.allowStatus(400);
    const id = suffix();
    const name = `Kazoo ${id}`;
    await app.goto("/admin/instruments");
    await add(page, "instrument", name);
    await expect(flash(page)).toHaveText(`Added “${name}” to the instruments.`);

    await app.goto(`/admin/instruments?q=${id}`);
    await openEdit(page, name);
    await editForm(page, name).getByLabel("Name", { exact: true }).fill("BANJO");
    await editForm(page, name).getByRole("button", { name: "Save changes" }).click();
    // The server's reply: the details element is open, the error beside the field, the typed value kept.
    await expect(editForm(page, name)).toBeVisible();
    await expect(editForm(page, name).getByText("“Banjo” is already in the instruments list.")).toBeVisible();
    await expect(editForm(page, name).getByLabel("Name", { exact: true })).toHaveValue("BANJO");

    await app.goto(`/admin/instruments?q=${id}`);
    await row(page, name)
      .getByRole("button", { name: `Retire ${name}` })
      .click();
    await expect(flash(page)).toHaveText(`Retired “${name}”: profile forms no longer offer it.`);
    await expect(page).toHaveURL(new RegExp(`/admin/instruments\\?q=${id}&done=`));
    await expect(row(page, name).getByRole("cell").nth(1)).toHaveText("Retired", { useInnerText: true });
  });
});
