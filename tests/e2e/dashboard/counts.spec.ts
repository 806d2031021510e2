import type { Page } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { PROJECT_PASSWORD, projectClient } from "../support/project-accounts";
import { expect, test } from "../support/test";

/**
 * The dashboards count what they list. A member's Projects and Work requests cards count every project and
 * request the dashboard and the list pages show (with the open ones beside), "Release your music" is done once
 * a release went out, and the admin dashboard's releases awaiting review is the filtered list's count.
 */

/** A stat card by its label (the card's first line). */
const card = (page: Page, label: string) => page.locator(`xpath=//main//div[p[1][normalize-space()='${label}']]`);

test("a member's project and work request cards count what the dashboard and the list pages show", async ({ page, app }) => {
  // The completed scenario's client: one project (completed) from one work request (accepted), neither open.
  const location = await app.logInQuickly(projectClient("done"), PROJECT_PASSWORD);
  const memberId = Number(/^\/member\/(\d+)\//.exec(location)![1]);
  await app.goto(`/member/${memberId}/dashboard`);
  const projects = card(page, "Projects");
  const requests = card(page, "Work requests");
  await expect(projects).toContainText("1");
  await expect(projects).toContainText("0 open");
  await expect(requests).toContainText("1");
  await expect(requests).toContainText("0 open");
  // The same project and request are listed below the cards.
  await expect(page.getByRole("region", { name: "Projects" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Work requests" }).getByRole("listitem")).toHaveCount(1);
  // And the card leads to the list, which shows that one project.
  await projects.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/projects$`));
  await expect(page.getByText(/Showing 1–1 of 1 project$/)).toBeVisible();
});

test("'Release your music' is done for a member whose releases are in distribution", async ({ page, app }) => {
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto(`/member/${DEMO_IDS.member}/dashboard`);
  const steps = page.getByRole("region", { name: "Getting started" });
  // Mia has no profile picture, so the list shows; her releases are out: that step is crossed off, not a link.
  await expect(steps).toContainText("Release your music (done)");
  await expect(steps.getByRole("link", { name: "Release your music" })).toHaveCount(0);
});

test("the admin dashboard shows the releases awaiting review, as many as the filtered list, and links In suspense to the imports", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  const figure = card(page, "Releases awaiting review");
  const listed = async () => {
    await app.goto("/admin/releases?status=pending_approval");
    const summary = (await page.getByText(/^(Showing .* of [\d,]+ releases?|No releases)$/).textContent()) ?? "";
    return summary.startsWith("No") ? 0 : Number(/of ([\d,]+)/.exec(summary)![1]!.replace(/,/g, ""));
  };
  // Other specs submit and approve releases meanwhile: the two are read together until they agree.
  await expect
    .poll(async () => {
      await app.goto("/admin/dashboard");
      const shown = Number(((await figure.locator("p").nth(1).textContent()) ?? "").replace(/,/g, ""));
      return shown === (await listed());
    })
    .toBe(true);
  await app.goto("/admin/dashboard");
  await expect(figure.getByRole("link")).toHaveAttribute("href", "/admin/releases?status=pending_approval");
  await expect(card(page, "In suspense").getByRole("link", { name: "Unmatched lines: match them on their import" })).toHaveAttribute(
    "href",
    "/admin/upload-sales",
  );
});
