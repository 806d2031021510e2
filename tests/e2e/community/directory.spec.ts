import type { Page } from "@playwright/test";
import { logInMember } from "../support/account-admin-helpers";
import {
  DIRECTORY_ACCOUNTS,
  DIRECTORY_PASSWORD,
  DIRECTORY_TYPES,
  directoryProfile,
  directorySearch,
  DJ_TARGET,
  PAGED_COUNT,
  PAGED_SEARCH,
  SONGWRITER_TARGET,
  TARGET_HASHTAGS,
  TARGET_LOCATION,
  TARGET_X_HANDLE,
  type DirectoryType,
} from "../support/directory-accounts";
import { expect, test, type App } from "../support/test";

/**
 * The community directories, public profile pages and share buttons (app/modules/profiles/directory*,
 * public-page*, app/components/share), in the member area and the admin area. Data: prepare-directory.ts.
 */

const TYPES = Object.keys(DIRECTORY_TYPES) as DirectoryType[];
const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;

const searchForm = (page: Page) => page.getByRole("search");
const cardNames = (page: Page) => page.getByRole("main").getByRole("article").getByRole("heading", { level: 3 });
const card = (page: Page, name: string) => page.getByRole("main").getByRole("article", { name });
const resultCount = (page: Page) => page.getByRole("main").getByRole("status").first();

const logIn = (app: App, who: keyof typeof DIRECTORY_ACCOUNTS) => logInMember(app, DIRECTORY_ACCOUNTS[who].email, DIRECTORY_PASSWORD);

async function submitSearch(page: Page) {
  await searchForm(page).getByRole("button", { name: "Search", exact: true }).click();
}

for (const type of TYPES) {
  const info = DIRECTORY_TYPES[type];
  const target = directoryProfile(type, "target");
  const other = directoryProfile(type, "other");
  const draft = directoryProfile(type, "draft");
  const nouns = info.provider ? `${info.label.toLowerCase()}s` : "artist pages";

  test.describe(`${info.title}`, () => {
    test("search, filter, location, sort and the no-match state", async ({ page, app }) => {
      const viewerId = await logIn(app, "viewer");
      const directory = `/member/${viewerId}/${info.segment}`;
      await app.goto(directory);
      await expect(page.getByRole("heading", { level: 1, name: info.title })).toBeVisible();
      await expect(page).toHaveTitle(`Vera Viewer | ${info.title} | Backline`);

      // Search by name or username: both published profiles, A to Z; never the draft.
      await searchForm(page).getByLabel("Search by name or username").fill(directorySearch(type));
      await submitSearch(page);
      await expect(page).toHaveURL(new RegExp(`^[^?]*${directory}\\?q=${directorySearch(type)}&location=&sort=name&`));
      expect(new URL(page.url()).searchParams.has("index"), "no ?index in a search URL").toBe(false);
      await expect(cardNames(page)).toHaveText([other.name, target.name]);
      await expect(resultCount(page)).toHaveText(`2 ${nouns} match the search`);
      await expect(page.getByText(draft.name)).toHaveCount(0);

      // The cards: location, up to three genres and (providers) the cheapest rate.
      const targetCard = card(page, target.name);
      await expect(targetCard).toContainText(TARGET_LOCATION);
      await expect(targetCard.getByRole("list", { name: "Genres" }).getByRole("listitem")).toHaveText(["Hip-Hop/Rap", "Jazz"]);
      if (info.provider) await expect(targetCard).toContainText("from $40.00 per hour");
      // Decorative on the card (alt=""): the name beside it says it all.
      await expect(targetCard.locator("img")).toHaveAttribute("src", /\/storage\/images\/hero\/\d+-[0-9a-f]{32}\/364x205\.webp$/);

      // A filter narrows the list; the form keeps what the URL says.
      await searchForm(page).getByLabel(info.filter.label, { exact: true }).selectOption({ label: info.filter.target });
      await submitSearch(page);
      await expect(cardNames(page)).toHaveText([target.name]);
      await expect(searchForm(page).getByLabel(info.filter.label, { exact: true }).locator("option:checked")).toHaveText(info.filter.target);
      await expect(searchForm(page).getByLabel("Search by name or username")).toHaveValue(directorySearch(type));
      await searchForm(page).getByLabel(info.filter.label, { exact: true }).selectOption({ label: info.filter.other });
      await submitSearch(page);
      await expect(cardNames(page)).toHaveText([other.name]);

      // Location, case-insensitively, as a substring.
      const q = encodeURIComponent(directorySearch(type));
      await app.goto(`${directory}?q=${q}&location=REYKJA`);
      await expect(cardNames(page)).toHaveText([target.name]);

      // Sorting: newest first, lowest rate first (providers only), name.
      await app.goto(`${directory}?q=${q}&sort=newest`);
      await expect(cardNames(page)).toHaveText([target.name, other.name]);
      const sorts = searchForm(page).getByLabel("Sort by").locator("option");
      if (info.provider) {
        await expect(sorts).toHaveText(["Name (A–Z)", "Newest", "Lowest rate"]);
        await searchForm(page).getByLabel("Sort by").selectOption({ label: "Lowest rate" });
        await submitSearch(page);
        await expect(page).toHaveURL(/sort=rate/);
        await expect(cardNames(page)).toHaveText([target.name, other.name]);
      } else {
        await expect(sorts).toHaveText(["Name (A–Z)", "Newest"]);
      }

      // Nothing matches: say so and offer to clear the filters.
      await app.goto(`${directory}?q=${q}&location=Atlantis`);
      await expect(page.getByText(`No ${nouns} match this search.`)).toBeVisible();
      await page.getByRole("link", { name: "clear the filters" }).click();
      await expect(page).toHaveURL(directory);
      await expect(searchForm(page).getByLabel("Location")).toHaveValue("");
      await expect(cardNames(page).first()).toBeVisible();
    });

    test("the public page: hero, details, rates, share links; the draft is 404 for another member", async ({ page, app, browserErrors }) => {
      const viewerId = await logIn(app, "viewer");
      await app.goto(`/member/${viewerId}/${info.segment}?q=${directorySearch(type)}`);
      await card(page, target.name).getByRole("link", { name: target.name, exact: true }).click();
      const publicPath = `/member/${viewerId}/${info.segment}/${target.username}`;
      await expect(page).toHaveURL(publicPath);
      await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
      await expect(page).toHaveTitle(`Vera Viewer | ${target.name} | ${info.label} | Backline`);

      const hero = page.getByRole("img", { name: `Header image of ${target.name}` });
      await expect(hero).toHaveAttribute("src", /\/728x410\.webp$/);
      await expect(hero).toHaveAttribute("srcset", /364x205\.webp 364w, .*728x410\.webp 728w, .*1456x820\.webp 1456w/);
      await expect(hero).toHaveAttribute("width", "728");
      await expect(hero).toHaveAttribute("height", "410");
      // Loaded and decoded (it may still be arriving when its attributes are read).
      await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      const main = page.getByRole("main");
      await expect(main).toContainText(TARGET_LOCATION);
      await expect(main.getByText("Second line of the")).toBeVisible();
      await expect(main.getByRole("link", { name: /^X/ })).toHaveAttribute("rel", "noopener noreferrer nofollow");
      if (info.provider) {
        const rates = page.getByRole("region", { name: "Rates" }).getByRole("listitem");
        await expect(rates).toHaveText([/Full day\s*\$400\.00 per day/, /Hourly\s*\$40\.00 per hour/]);
      } else {
        await expect(page.getByRole("region", { name: "Rates" })).toHaveCount(0);
        // The band, by name only.
        await expect(page.getByRole("region", { name: "Band members" }).getByRole("listitem")).toHaveText(["Tara Target (owner)", "Oren Elsewhere"]);
      }
      await expect(main.getByRole("link", { name: /^Edit/ })).toHaveCount(0);

      // Share links, right without JavaScript.
      const shareUrl = `http://localhost:${new URL(page.url()).port}${publicPath}`;
      const twitter = new URL((await page.getByRole("link", { name: "Share on X (Twitter)" }).getAttribute("href"))!);
      expect(twitter.origin + twitter.pathname).toBe("https://x.com/intent/tweet");
      expect(twitter.searchParams.get("url")).toBe(shareUrl);
      expect(twitter.searchParams.get("hashtags")).toBe(TARGET_HASHTAGS.join(","));
      expect(twitter.searchParams.get("via")).toBe(TARGET_X_HANDLE);
      const facebook = (await page.getByRole("link", { name: "Share on Facebook" }).getAttribute("href"))!;
      expect(facebook).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(shareUrl)}&hashtag=%23${TARGET_HASHTAGS[0]}`);
      await expect(page.getByRole("link", { name: "Share on Facebook" })).toHaveAttribute("target", "_blank");
      const email = (await page.getByRole("link", { name: "Share by email" }).getAttribute("href"))!;
      expect(email).toMatch(/^mailto:\?subject=/);
      expect(decodeURIComponent(email)).toContain(`${target.name} on Backline`);
      expect(decodeURIComponent(email)).toContain(shareUrl);
      const sms = (await page.getByRole("link", { name: "Share by SMS" }).getAttribute("href"))!;
      expect(sms).toMatch(/^sms:\?body=/);
      expect(decodeURIComponent(sms)).toContain(shareUrl);
      // Seven up front, the rest behind "More ways to share" (28 in all).
      await expect(page.getByRole("link", { name: /^Share (on|by) / })).toHaveCount(7);
      await expect(page.locator("a[data-network]")).toHaveCount(28);
      await page.getByText("More ways to share").click();
      await expect(page.getByRole("link", { name: "Share on Telegram" })).toHaveAttribute("href", /^https:\/\/t\.me\/share\/url\?url=/);

      // The draft: not listed (above) and its page is Not Found for another member.
      browserErrors.allowStatus(404);
      const response = await page.goto(`/member/${viewerId}/${info.segment}/${draft.username}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
      await expect(page.getByText(draft.name)).toHaveCount(0);
    });
  });
}

test.describe("share popup", () => {
  test("a web network opens a 626x436 popup; mail stays a plain link", async ({ page, app, context }) => {
    // The popup's share page is answered locally: the test machine has no internet.
    await context.route("https://www.facebook.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Facebook share</title><p>Shared</p>" }),
    );
    const viewerId = await logIn(app, "viewer");
    const target = directoryProfile("musician", "target");
    const path = `/member/${viewerId}/musicians/${target.username}`;
    await app.goto(path);
    const link = page.getByRole("link", { name: "Share on Facebook" });
    const expected = (await link.getAttribute("href"))!;
    const popupEvent = page.waitForEvent("popup");
    await link.click();
    const popup = await popupEvent;
    await popup.waitForURL(expected);
    await expect(popup).toHaveTitle("Facebook share");
    const size = await popup.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight, opener: window.opener }));
    expect(size).toEqual({ width: 626, height: 436, opener: null });
    // The page itself stayed where it was.
    await expect(page).toHaveURL(path);
    await popup.close();

    // Keyboard: the links are reachable and Enter opens the popup too.
    const again = page.waitForEvent("popup");
    await link.focus();
    await page.keyboard.press("Enter");
    const second = await again;
    await second.waitForURL(expected);
    await second.close();

    await expect(page.getByRole("link", { name: "Share by email" })).not.toHaveAttribute("target", /.*/);
  });
});

test.describe("pagination and your profile", () => {
  test("more than 24 results page, keeping the search", async ({ page, app }) => {
    const viewerId = await logIn(app, "viewer");
    await app.goto(`/member/${viewerId}/musicians?q=${PAGED_SEARCH}`);
    await expect(resultCount(page)).toHaveText(`${PAGED_COUNT} musicians match the search`);
    await expect(cardNames(page)).toHaveCount(24);
    await expect(cardNames(page).first()).toHaveText("Dirpage Musician 01");
    const pager = page.getByRole("navigation", { name: "Musician Pages pages" });
    await pager.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`/member/${viewerId}/musicians?q=${PAGED_SEARCH}&page=2`);
    await expect(cardNames(page)).toHaveText(Array.from({ length: 6 }, (_, i) => `Dirpage Musician ${25 + i}`));
    await expect(pager.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    // A page past the end says so; a malformed page is page 1.
    await app.goto(`/member/${viewerId}/musicians?q=${PAGED_SEARCH}&page=9`);
    await expect(page.getByText("There is nothing on this page.")).toBeVisible();
    await app.goto(`/member/${viewerId}/musicians?q=${PAGED_SEARCH}&page=abc&sort=bogus&genre=xyz`);
    await expect(cardNames(page)).toHaveCount(24);
  });

  test("the Your profile box without a profile: the create forms", async ({ page, app }) => {
    const viewerId = await logIn(app, "viewer");
    await app.goto(`/member/${viewerId}/studios`);
    const box = page.getByRole("region", { name: "Your studio profile" });
    await expect(box.getByRole("form", { name: "Create studio profile" })).toBeVisible();
    await app.goto(`/member/${viewerId}/artists`);
    const artists = page.getByRole("region", { name: "Your artist pages" });
    await expect(artists).toContainText("You have no artist page yet.");
    await artists.getByText("Create an artist page").click();
    await expect(artists.getByRole("form", { name: "Create artist page" })).toBeVisible();
  });

  test("the Your profile box with a profile: a link to it with its status", async ({ page, app }) => {
    const ownerId = await logIn(app, "targetOwner");
    await app.goto(`/member/${ownerId}/studios`);
    const own = page.getByRole("region", { name: "Your studio profile" });
    await expect(own.getByRole("link", { name: directoryProfile("studio", "target").name })).toHaveAttribute("href", /\/member\/\d+\/studio-profile\/\d+$/);
    await expect(own).toContainText("Published");
    await expect(own.getByRole("form")).toHaveCount(0);
    await app.goto(`/member/${ownerId}/artists`);
    await expect(page.getByRole("region", { name: "Your artist pages" }).getByRole("link", { name: directoryProfile("artist", "target").name })).toBeVisible();
  });

  test("the owner sees their draft with a banner and an Edit link", async ({ page, app }) => {
    const ownerId = await logIn(app, "draftOwner");
    const draft = directoryProfile("audio_engineer", "draft");
    await app.goto(`/member/${ownerId}/audio-engineers/${draft.username}`);
    await expect(page.getByRole("heading", { level: 1, name: draft.name })).toBeVisible();
    await expect(page.getByRole("main").getByRole("status").first()).toContainText("This page is not public");
    await expect(page.getByRole("main").getByRole("status").first()).toContainText("Draft");
    await expect(page.getByRole("link", { name: `Edit ${draft.name}` })).toHaveAttribute("href", /^\/member\/\d+\/audio-engineer-profile\/\d+$/);
    await expect(page.getByRole("link", { name: "Share on Facebook" })).toHaveCount(0);
  });
});

test.describe("guards", () => {
  test("without a session: /login?redirect= for directories and public pages", async ({ page, app }) => {
    const viewerId = await logIn(app, "viewer");
    await page.context().clearCookies();
    for (const path of [`/member/${viewerId}/musicians?q=x`, `/member/${viewerId}/artists/${directoryProfile("artist", "target").username}`, "/admin/djs"]) {
      await page.goto(path);
      await expect(page).toHaveURL(loginFor(path));
    }
  });

  test("a shared link into another member's directory or page opens in the visitor's own area; other pages 404; admin lists send them home", async ({
    page,
    app,
    browserErrors,
  }) => {
    browserErrors.allowStatus(404);
    const otherId = await logIn(app, "other");
    await page.context().clearCookies();
    const viewerId = await logIn(app, "viewer");
    const username = directoryProfile("studio", "target").username;
    for (const [path, own] of [
      [`/member/${otherId}/studios?sort=newest`, `/member/${viewerId}/studios?sort=newest`],
      [`/member/${otherId}/studios/${username}`, `/member/${viewerId}/studios/${username}`],
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(own);
    }
    const response = await page.goto(`/member/${otherId}/profile`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
    for (const path of ["/admin/musicians", "/admin/songwriters", `/admin/musicians/${directoryProfile("musician", "target").username}`]) {
      await page.goto(path);
      await expect(page).toHaveURL(`/member/${viewerId}/dashboard`);
    }
    // Posting anything but "create-profile" is refused.
    const post = await page.request.post(`/member/${viewerId}/studios`, { form: { intent: "delete" }, maxRedirects: 0 });
    expect(post.status()).toBe(400);
  });
});

test.describe("admin community lists", () => {
  test("a type's list links to the admin public page and the admin single page; sub-navigation", async ({ page, app }) => {
    await app.logInQuickly(DIRECTORY_ACCOUNTS.admin.email, DIRECTORY_PASSWORD);
    const target = directoryProfile("musician", "target");
    await app.goto(`/admin/musicians?q=${directorySearch("musician")}`);
    await expect(page).toHaveTitle("Musician Pages | Admin Area | Backline");
    await expect(cardNames(page)).toHaveText([directoryProfile("musician", "other").name, target.name]);
    const nav = page.getByRole("navigation", { name: "Community lists" });
    await expect(nav.getByRole("link")).toHaveText([
      "Artist Pages",
      "Musician Pages",
      "Audio Engineer Pages",
      "Music Producer Pages",
      "Studio Pages",
      "DJs",
      "Songwriters",
      "Managers",
      "Venues",
    ]);
    await expect(nav.getByRole("link", { name: "Musician Pages" })).toHaveAttribute("aria-current", "page");
    await expect(card(page, target.name).getByRole("link", { name: `Manage ${target.name}` })).toHaveAttribute("href", /^\/admin\/musicians-profile\/\d+$/);
    await card(page, target.name).getByRole("link", { name: target.name, exact: true }).click();
    await expect(page).toHaveURL(`/admin/musicians/${target.username}`);
    await expect(page.getByRole("heading", { level: 1, name: target.name })).toBeVisible();
    await expect(page.getByRole("link", { name: `Edit ${target.name}` })).toHaveAttribute("href", /^\/admin\/musicians-profile\/\d+$/);

    // Admins see drafts, with the banner.
    const draft = directoryProfile("studio", "draft");
    await app.goto(`/admin/studios/${draft.username}`);
    await expect(page.getByRole("main").getByRole("status").first()).toContainText("This page is not public");
  });

  test("DJs and Songwriters list providers of any type carrying the skill", async ({ page, app }) => {
    await app.logInQuickly(DIRECTORY_ACCOUNTS.admin.email, DIRECTORY_PASSWORD);
    await app.goto("/admin/djs?q=dirtest");
    await expect(page.getByRole("heading", { level: 1, name: "DJs" })).toBeVisible();
    await expect(page).toHaveTitle("DJs | Admin Area | Backline");
    await expect(cardNames(page)).toHaveText([directoryProfile(DJ_TARGET, "target").name]);
    await expect(card(page, directoryProfile(DJ_TARGET, "target").name)).toContainText("Musician");
    await page.getByRole("navigation", { name: "Community lists" }).getByRole("link", { name: "Songwriters" }).click();
    await expect(page).toHaveURL("/admin/songwriters");
    await searchForm(page).getByLabel("Search by name or username").fill("dirtest");
    await submitSearch(page);
    await expect(cardNames(page)).toHaveText([directoryProfile(SONGWRITER_TARGET, "target").name]);
    const songwriter = directoryProfile(SONGWRITER_TARGET, "target");
    await card(page, songwriter.name).getByRole("link", { name: songwriter.name, exact: true }).click();
    await expect(page).toHaveURL(`/admin/studios/${directoryProfile(SONGWRITER_TARGET, "target").username}`);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form and share links work as plain HTML", async ({ page, app }) => {
    const id = await logIn(app, "noJs");
    await app.goto(`/member/${id}/audio-engineers`);
    await searchForm(page).getByLabel("Search by name or username").fill(directorySearch("audio_engineer"));
    await searchForm(page).getByLabel("Skill", { exact: true }).selectOption({ label: "Mastering" });
    await submitSearch(page);
    await expect(page).toHaveURL(/skill=\d+/);
    expect(new URL(page.url()).searchParams.has("index")).toBe(false);
    await expect(cardNames(page)).toHaveText([directoryProfile("audio_engineer", "target").name]);
    await card(page, directoryProfile("audio_engineer", "target").name)
      .getByRole("link", { name: directoryProfile("audio_engineer", "target").name })
      .click();
    await expect(page.getByRole("link", { name: "Share on LinkedIn" })).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  });
});
