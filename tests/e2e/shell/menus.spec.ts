import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { AFF, AFF_PASSWORD } from "../affiliates/affiliate-accounts";

/**
 * The area menus as the sidebar renders them on a desktop viewport.
 * The demo member has an artist page and a musician profile (demo data), and no affiliate: the Affiliate
 * entry is checked with an affiliate's owner (tests/e2e/affiliates/affiliate-accounts.ts). Post-production
 * jobs do not exist in the app yet, so the variant that shows Post Production Jobs is unit-tested in
 * app/components/menus/menus.test.ts; tests/e2e/community covers menus changing as
 * profiles are created and bands joined.
 */

const MEMBER_MENU: Array<[string, string[]]> = [
  ["Menu", ["Dashboard", "Account", "Release Music"]],
  ["Community", ["Artist Pages", "Musician Pages", "Audio Engineer Pages", "Music Producer Pages", "Studio Pages"]],
  ["Financial", ["Income & Shares", "Payouts", "Royalty Payment Requests"]],
  ["Your Artists", ["Mia and the Midnight Owls"]],
  ["Your Provider Profiles", ["Musician Profile"]],
  ["Catalog", ["Releases", "Songs"]],
  ["Work", ["Projects", "Work Requests"]],
  ["Sales", ["Digital Sales", "License Royalties", "Pro Royalties"]],
  ["System", ["Legal Terms", "Contact Us", "Logout"]],
];

const ADMIN_MENU: Array<[string, string[]]> = [
  ["Menu", ["Dashboard", "Members", "Releases", "Songs", "Work Requests", "Projects", "Affiliates", "Post Production Jobs"]],
  ["Profiles", ["Artists", "Music Producers", "Musicians", "Audio Engineers", "Studios"]],
  ["Sales", ["Digital", "PRO Royalties", "License Royalties", "Upload Sales"]],
  ["Community", ["Artist Pages", "Music Producer Pages", "Musician Pages", "Audio Engineer Pages", "Studio Pages"]],
  ["Finance", ["Royalty Payment Requests", "Transactions", "Payment Accounts"]],
  ["Legal", ["Documents", "Signatures"]],
  ["Resources", ["Genres", "Instruments", "Skills", "PROs"]],
  ["Account", ["Logout"]],
];

test("the member menu of the demo member (an artist page and a musician profile, no affiliate): groups and items in order", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  const nav = page.getByRole("navigation", { name: "Member menu" });
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("heading", { level: 2 })).toHaveText(MEMBER_MENU.map(([heading]) => heading));
  for (const [heading, items] of MEMBER_MENU) {
    await expect(nav.getByRole("region", { name: heading, exact: true }).getByRole("listitem"), heading).toHaveText(items);
  }
  for (const absent of ["Affiliate", "Post Production Jobs"]) {
    await expect(nav.getByText(absent, { exact: true }), absent).toHaveCount(0);
  }

  // Where the links go (member-relative, Legal Terms is public) and which one is current.
  const links = await nav.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  expect(Object.fromEntries(links)).toMatchObject({
    Dashboard: "/member/2/dashboard",
    Account: "/member/2/profile",
    "Release Music": "/member/2/digital-distribution/start",
    "Income & Shares": "/member/2/member-income",
    Songs: "/member/2/songs",
    "Work Requests": "/member/2/work-requests",
    "Pro Royalties": "/member/2/sales/pro",
    "Legal Terms": "/legal-terms",
    "Contact Us": "/member/2/contact-us",
    "Mia and the Midnight Owls": expect.stringMatching(/^\/member\/2\/artist-profile\/\d+$/),
    "Musician Profile": expect.stringMatching(/^\/member\/2\/musician-profile\/\d+$/),
  });
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  // Logout is a button (a POST), not a link.
  await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
});

test("the admin menu: groups in order with their items", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  const nav = page.getByRole("navigation", { name: "Admin menu" });
  await expect(nav.getByRole("heading", { level: 2 })).toHaveText(ADMIN_MENU.map(([heading]) => heading));
  for (const [heading, items] of ADMIN_MENU) {
    await expect(nav.getByRole("region", { name: heading, exact: true }).getByRole("listitem"), heading).toHaveText(items);
  }
  await expect(nav.getByRole("link", { name: "Songs" })).toHaveAttribute("href", "/admin/songs");
  await expect(nav.getByRole("link", { name: "Artists", exact: true })).toHaveAttribute("href", "/admin/artists/profiles");
});

test("the Affiliate entry shows for an affiliate's owner; another member's affiliate page is the area's Not Found", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  const home = await app.logInQuickly(AFF.earner, AFF_PASSWORD);
  await app.goto(home);
  const entry = page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true });
  await expect(entry).toHaveAttribute("href", /^\/member\/\d+\/affiliate\/\d+$/);
  // The same affiliate page under the demo member's own area.
  const href = (await entry.getAttribute("href"))?.replace(/^\/member\/\d+\//, "/member/2/");
  await app.dropSession();
  // The demo member owns no affiliate: no entry, and someone else's affiliate page is Not Found.
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto("/member/2/dashboard");
  await expect(page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/member/2/dashboard");
  await expect(page.getByRole("navigation", { name: "Member menu" }).getByRole("link", { name: "Affiliate", exact: true })).toHaveCount(0);
  const response = await page.goto(href!);
  expect(response?.status()).toBe(404);
  await app.hydrated();
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  await expect(page).toHaveTitle("Mia Member | Not Found | Backline");
});

test("the admin menu's Affiliates link lands on the affiliates list; an unknown admin page is the admin Not Found", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto("/admin/dashboard");
  await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Affiliates" }).click();
  await expect(page).toHaveURL("/admin/affiliates");
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Affiliates" })).toBeVisible();
  await expect(page).toHaveTitle("Affiliates | Admin Area | Backline");
  await app.goto("/admin/nope");
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Back to the dashboard" })).toHaveAttribute("href", "/admin/dashboard");
});
