import type { Page } from "@playwright/test";
import { PROJECT_PASSWORD, projectClient, projectProvider, type ProjectScenario } from "../support/project-accounts";
import { expect, test, type App } from "../support/test";
import { confirmWithPassword, flash } from "../payouts/helpers";

/**
 * Paying a project from one's Backline balance (decision 022): the client's earnings move into the project's
 * escrow after a fresh password confirmation, and a balance that does not cover the amount pays nothing. Each
 * test owns a project prepared by tests/e2e/support/project-fixtures.ts ($200.00, awaiting funding) whose client
 * has $300.00 (`balance`) or $50.00 (`short`) of earnings.
 */

const summaryValue = (page: Page, label: string) =>
  page
    .locator("dl[aria-label='Project summary'] div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");

async function openProjectAs(app: App, page: Page, key: ProjectScenario, role: "client" | "provider") {
  await app.dropSession();
  const location = await app.logInQuickly(role === "client" ? projectClient(key) : projectProvider(key), PROJECT_PASSWORD);
  const memberId = Number(/^\/member\/(\d+)\//.exec(location)?.[1]);
  await app.goto(`/member/${memberId}/projects${role === "provider" ? "?as=provider" : ""}`);
  const link = page.getByRole("table").getByRole("link", { name: /^Project #\d+$/ });
  await expect(link).toHaveCount(1);
  const projectId = Number(/#(\d+)$/.exec((await link.textContent()) ?? "")?.[1]);
  await link.click();
  await expect(page).toHaveURL(`/member/${memberId}/project/${projectId}`);
  await app.hydrated();
  return { memberId, projectId };
}

test("the client pays a project from their balance after confirming their password; the provider can start", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(403); // the "Confirm it is you" form
  browserErrors.allowStatus(400); // its wrong password
  const { memberId, projectId } = await openProjectAs(app, page, "balance", "client");
  // It waits for the money: not "in progress" at a stage nobody started.
  await expect(summaryValue(page, "Status")).toHaveText("Awaiting funding");
  await expect(summaryValue(page, "Stage")).toHaveText("Not started");
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");
  const funding = page.getByRole("region", { name: "Fund the project" });
  await expect(funding).toContainText("Available: $300.00.");
  await expect(funding).toContainText(`BACKLINE-PROJECT-${projectId}`);

  await funding.getByRole("button", { name: "Pay $200.00 from my balance" }).click();
  // Money leaving the balance needs the password within the last 10 minutes, as a payout request does.
  await expect(page.getByRole("heading", { level: 1, name: "Confirm it is you" })).toBeVisible();
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(page.getByText("That password is not right.")).toBeVisible();
  await confirmWithPassword(page, PROJECT_PASSWORD);

  await expect(page).toHaveURL(new RegExp(`/member/${memberId}/project/${projectId}\\?done=balance-`));
  await expect(flash(page)).toContainText("$200.00 from your Backline balance is held in escrow");
  await expect(summaryValue(page, "Status")).toHaveText("In progress");
  await expect(summaryValue(page, "Stage")).toHaveText("In mixing");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  await expect(summaryValue(page, "Paid by")).toHaveText("The client's Backline balance");
  await expect(page.getByRole("region", { name: "Fund the project" })).toHaveCount(0);

  // The balance is $100.00 less: what a payout can still take.
  await app.goto(`/member/${memberId}/royalty-payment-requests`);
  await expect(page.getByText("Available to request:")).toContainText("$100.00");

  // The provider sees it funded and can start.
  await openProjectAs(app, page, "balance", "provider");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  await expect(page.getByRole("button", { name: "Move to Mixed" })).toBeVisible();
});

test("a balance short of the amount offers no payment from it, and a forged payment is refused with nothing moved", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(403);
  browserErrors.allowStatus(400);
  const { memberId, projectId } = await openProjectAs(app, page, "short", "client");
  const funding = page.getByRole("region", { name: "Fund the project" });
  await expect(funding).toContainText("Available: $50.00. Not enough to pay $200.00");
  await expect(funding.getByRole("button", { name: /from my balance/ })).toHaveCount(0);

  // A hand-made POST (as an old tab would send) goes through the confirmation, then is refused above the form.
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    const intent = Object.assign(document.createElement("input"), { type: "hidden", name: "intent", value: "balance" });
    form.append(intent);
    document.body.append(form);
    form.submit();
  });
  await confirmWithPassword(page, PROJECT_PASSWORD);
  await expect(page.getByRole("region", { name: "Fund the project" }).getByRole("alert")).toContainText(
    "Your available balance is $50.00: not enough to pay $200.00. Pay another way, or when more income arrives.",
  );
  await app.goto(`/member/${memberId}/project/${projectId}`);
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");
  await expect(summaryValue(page, "Status")).toHaveText("Awaiting funding");
  await app.goto(`/member/${memberId}/royalty-payment-requests`);
  await expect(page.getByText("Available to request:")).toContainText("$50.00");

  // The provider is not offered to pay, and waits.
  await openProjectAs(app, page, "short", "provider");
  await expect(page.getByRole("region", { name: "Fund the project" })).toHaveCount(0);
  await expect(page.getByText("The client has not funded this project yet")).toBeVisible();
});
