import { request as playwrightRequest } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { crawlArea, layoutProblems, notificationPanelProblems, settle, uploadChartStatement, WIDTHS, type LayoutProblem } from "./sweep";

/**
 * Every page of both areas, at 1280 px and on a 390 px phone, as the demo people see them: nothing scrolls
 * sideways, no text is cut off by its box (scrollWidth over clientWidth under overflow hidden), no chart
 * label is drawn over another, and the notifications panel stays on the screen. The pages are found by
 * following each area's own links from its dashboard (one page per route), so a new page is swept without
 * being listed here. A statement with many stores, tracks, countries and months in the tens of thousands of
 * dollars gives the charts real labels to place.
 */
test.describe.configure({ timeout: 900_000 });

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL, extraHTTPHeaders: { Origin: process.env.E2E_BASE_URL! } });
  const login = await api.post("/login", { form: { email: DEMO.admin, password: DEMO_PASSWORD, redirect: "" }, maxRedirects: 0 });
  expect(login.status()).toBe(302);
  await uploadChartStatement(api, `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`);
  await api.dispose();
});

/** Where each person's crawl starts: the dashboard, and pages no menu links to (the bell's and the jobs' lists). */
const member = (id: number) => ({
  start: `/member/${id}/dashboard`,
  prefix: `/member/${id}/`,
  more: [`/member/${id}/notifications`, `/member/${id}/post-production-jobs`],
});
const PEOPLE = [
  { who: "the administrator", email: DEMO.admin, start: "/admin/dashboard", prefix: "/admin/", more: ["/admin/notifications"] },
  { who: "Mia", email: DEMO.member, ...member(DEMO_IDS.member) },
  { who: "Paul", email: DEMO.producer, ...member(DEMO_IDS.producer) },
] as const;

for (const person of PEOPLE) {
  test(`every page ${person.who} opens lays out at 1280 and 390 px`, async ({ page, app }) => {
    await app.logInQuickly(person.email, DEMO_PASSWORD);
    await page.setViewportSize({ width: 1280, height: 900 });
    const pages = await crawlArea(page, [person.start, ...person.more], person.prefix);
    expect(pages.length, "pages found from the dashboard").toBeGreaterThan(10);
    const problems: Array<LayoutProblem & { where: string }> = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBeLessThan(400);
        await settle(page);
        let found = await layoutProblems(page);
        // Other specs' statements land meanwhile and a live update redraws a chart, its old ticks fading out
        // under the new ones: what counts is the drawing once that has settled.
        if (found.length) {
          await settle(page);
          found = await layoutProblems(page);
        }
        for (const problem of found) problems.push({ ...problem, where: `${path} at ${width} px` });
      }
      await page.goto(person.start);
      await settle(page);
      for (const problem of await notificationPanelProblems(page)) problems.push({ ...problem, where: `${person.start} at ${width} px` });
    }
    expect(problems.map((p) => `${p.where}: ${p.kind}: ${p.detail}`)).toEqual([]);
  });
}
