import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import {
  PROJECT_FIXTURE_ADMIN,
  PROJECT_PASSWORD,
  PROJECT_POINTS_SONG,
  PROJECT_STRANGER,
  projectClient,
  projectProfileName,
  projectProvider,
  type ProjectScenario,
} from "../support/project-accounts";
import { expect, test, type App } from "../support/test";
import { confirmWithCode, flash, logInTwoFactorAdmin, twoFactorAdmin } from "../payouts/helpers";
import { tinyWav } from "../support/tiny-wav";
import { otherBrowser } from "../support/account-admin-helpers";
import { waitForSubscription } from "../support/realtime";

/**
 * The project pages: the member's list and project page, the admin's, and the deliverable
 * downloads. Each test owns a project prepared by tests/e2e/support/project-fixtures.ts ($200.00 of mixing,
 * one revision included, 10 % platform fee).
 */

/** Logs in (a form POST) and answers the member's id. */
async function logInMember(app: App, email: string): Promise<number> {
  const location = await app.logInQuickly(email, PROJECT_PASSWORD);
  const id = Number(/^\/member\/(\d+)\//.exec(location)?.[1]);
  expect(id, location).toBeGreaterThan(0);
  return id;
}

/** The member's only project (as client or provider), opened from their Projects list; answers its id. */
async function openOnlyProject(app: App, page: Page, memberId: number, as: "client" | "provider"): Promise<number> {
  await app.goto(`/member/${memberId}/projects${as === "provider" ? "?as=provider" : ""}`);
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  const link = page.getByRole("table").getByRole("link", { name: /^Project #\d+$/ });
  await expect(link).toHaveCount(1);
  const id = Number(/#(\d+)$/.exec((await link.textContent()) ?? "")?.[1]);
  await link.click();
  await expect(page).toHaveURL(`/member/${memberId}/project/${id}`);
  await app.hydrated();
  return id;
}

const summaryValue = (page: Page, label: string) =>
  page
    .locator("dl[aria-label='Project summary'] div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) })
    .locator("dd");

async function as(app: App, key: ProjectScenario, role: "client" | "provider", path: (id: number) => string) {
  await app.dropSession();
  const id = await logInMember(app, role === "client" ? projectClient(key) : projectProvider(key));
  await app.goto(path(id));
  return id;
}

test("the whole flow: funding, stages, delivery, a revision, approval, the provider's balance, a review on the profile", async ({
  page,
  app,
  browserErrors,
}) => {
  test.setTimeout(180_000);
  browserErrors.allowStatus(403); // the authenticator code asked before funding
  const admin = await twoFactorAdmin();

  // The client sees the project, unfunded, and how to pay for it.
  const clientId = await logInMember(app, projectClient("flow"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  await expect(page.getByRole("heading", { level: 1, name: `Project #${projectId}` })).toBeVisible();
  await expect(summaryValue(page, "Amount")).toHaveText("$200.00");
  await expect(summaryValue(page, "Platform fee \\(10%\\)")).toHaveText("$20.00");
  await expect(summaryValue(page, "The provider receives")).toHaveText("$180.00");
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");
  await expect(summaryValue(page, "Revisions")).toHaveText("0 of 1 used");
  await expect(page.getByRole("region", { name: "Fund the project" })).toContainText(`BACKLINE-PROJECT-${projectId}`);
  await expect(page.getByRole("region", { name: "Fund the project" })).toContainText("The platform confirms your payment");

  // An administrator with two-factor confirms the payment arrived.
  await app.dropSession();
  await logInTwoFactorAdmin(page, admin);
  await app.goto(`/admin/project/${projectId}`);
  await page.getByLabel("Payment reference").fill("BANK-E2E-FLOW");
  await page.getByRole("button", { name: "Confirm funding" }).click();
  await confirmWithCode(page, admin);
  await expect(flash(page)).toContainText(`Project #${projectId} is funded: $200.00 is held in escrow.`);
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");

  // The provider moves to the next stage and delivers.
  const providerId = await as(app, "flow", "provider", (id) => `/member/${id}/project/${projectId}`);
  await expect(summaryValue(page, "Stage")).toHaveText("In mixing");
  await page.getByRole("button", { name: "Move to Mixed" }).click();
  await expect(flash(page)).toContainText("The project is now mixed.");
  await expect(summaryValue(page, "Stage")).toHaveText("Mixed");
  await page.getByLabel("Deliverable file").setInputFiles({ name: "mix-v1.wav", mimeType: "audio/wav", buffer: tinyWav() });
  await page.getByRole("button", { name: "Upload deliverable" }).click();
  await expect(flash(page)).toContainText("mix-v1.wav is delivered.");
  await expect(page.getByRole("list", { name: "Deliverables" }).getByRole("link", { name: "mix-v1.wav" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Deliverables" }).locator("audio[aria-label='Listen to mix-v1.wav']")).toHaveAttribute("controls", "");

  // The client asks for a revision (the one included).
  await as(app, "flow", "client", (id) => `/member/${id}/project/${projectId}`);
  const download = await page.request.get(
    await page
      .getByRole("link", { name: "mix-v1.wav" })
      .getAttribute("href")
      .then((h) => h!),
  );
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toContain("attachment");
  expect((await download.body()).subarray(0, 4).toString("ascii")).toBe("RIFF");
  await page.getByLabel("What should change?").fill("More bass on the chorus, please.");
  await page.getByRole("button", { name: "Request a revision" }).click();
  await expect(flash(page)).toContainText("Revision 1 of 1 is requested.");
  await expect(summaryValue(page, "Revisions")).toHaveText("1 of 1 used");
  await expect(page.getByRole("list", { name: "Messages" })).toContainText("Revision requested: More bass on the chorus, please.");

  // The provider delivers again.
  await as(app, "flow", "provider", (id) => `/member/${id}/project/${projectId}`);
  await expect(summaryValue(page, "Status")).toHaveText("Revision requested");
  await page.getByLabel("Deliverable file").setInputFiles({ name: "mix-v2.wav", mimeType: "audio/wav", buffer: tinyWav() });
  await page.getByRole("button", { name: "Upload deliverable" }).click();
  await expect(flash(page)).toContainText("mix-v2.wav is delivered.");

  // The client approves (no revision left) and reviews.
  await as(app, "flow", "client", (id) => `/member/${id}/project/${projectId}`);
  await expect(page.getByText("All 1 revisions included are used.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Request a revision" })).toHaveCount(0);
  await page.getByRole("button", { name: "Approve delivery" }).click();
  await expect(flash(page)).toContainText("$180.00 is released to the provider.");
  await expect(summaryValue(page, "Status")).toHaveText("Completed");
  await expect(summaryValue(page, "Settled")).toHaveText("$180.00 released, $20.00 fee, $0.00 refunded");
  await page.getByLabel("Rating (1 to 5)").fill("5");
  await page.getByLabel("Your review").fill("Great mix, delivered on time.");
  await page.getByRole("button", { name: "Publish review" }).click();
  await expect(flash(page)).toContainText("your review is published");
  const review = page.getByRole("region", { name: "Review", exact: true });
  await expect(review).toContainText("5 of 5 · verified");
  await expect(review).toContainText("Great mix, delivered on time.");
  // The review is on the provider's profile page, verified.
  await app.goto(`/member/${clientId}/music-producers/pj-flow-producer`);
  const onProfile = page.getByRole("region", { name: "Reviews" });
  await expect(onProfile).toContainText("5.0 of 5 from 1 verified review");
  await expect(onProfile.getByRole("list", { name: "Reviews" })).toContainText("5 of 5 · Cleo C. · verified");
  await expect(onProfile).toContainText("Great mix, delivered on time.");

  // The provider's payout balance is the amount less the fee; the review shows on their project page too.
  await as(app, "flow", "provider", (id) => `/member/${id}/royalty-payment-requests`);
  await expect(page.getByText("Available to request:")).toContainText("$180.00");
  await app.goto(`/member/${providerId}/project/${projectId}`);
  await expect(page.getByRole("region", { name: "Review", exact: true })).toContainText("Great mix, delivered on time.");
  await expect(page.getByRole("button", { name: "Upload deliverable" })).toHaveCount(0);
});

test("a stranger gets 404 on a project and on its deliverable; the lists filter", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  const clientId = await logInMember(app, projectClient("done"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  const href = (await page.getByRole("list", { name: "Deliverables" }).getByRole("link").first().getAttribute("href"))!;
  expect(href).toMatch(/^\/storage\/deliverables\/\d+$/);
  expect((await page.request.get(href)).status()).toBe(200);

  // Filters: the completed project is listed under Completed, not under In progress.
  await app.goto(`/member/${clientId}/projects?status=in_progress`);
  await expect(page.getByText("No projects match these filters.")).toBeVisible();
  await app.goto(`/member/${clientId}/projects?status=completed&stage=completed`);
  await expect(page.getByRole("table").getByRole("link", { name: `Project #${projectId}` })).toBeVisible();
  await expect(page.getByRole("table")).toContainText(projectProfileName("done"));

  await app.dropSession();
  const strangerId = await logInMember(app, PROJECT_STRANGER);
  const response = await page.goto(`/member/${strangerId}/project/${projectId}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
  expect((await page.request.get(href)).status()).toBe(404);
  expect((await page.request.get(`/member/${clientId}/project/${projectId}`)).status()).toBe(404);
  expect((await page.request.post(`/member/${strangerId}/project/${projectId}`, { form: { intent: "approve" }, maxRedirects: 0 })).status()).toBe(404);
  // The stranger's own list is empty.
  await app.goto(`/member/${strangerId}/projects`);
  await expect(page.getByText("You have not hired anyone yet.")).toBeVisible();
});

test("bad input shows beside the field: a rating out of range, an empty upload, a file of the wrong type", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const clientId = await logInMember(app, projectClient("done"));
  await openOnlyProject(app, page, clientId, "client");
  await page.getByLabel("Rating (1 to 5)").fill("7");
  await page.getByLabel("Your review").fill("Kept after the error.");
  await page.getByRole("button", { name: "Publish review" }).click();
  await expect(page.getByLabel("Rating (1 to 5)")).toHaveAccessibleDescription("Choose a rating from 1 to 5.");
  await expect(page.getByLabel("Rating (1 to 5)")).toHaveValue("7");
  await expect(page.getByLabel("Your review")).toHaveValue("Kept after the error.");

  await app.dropSession();
  const providerId = await logInMember(app, projectProvider("upload"));
  await openOnlyProject(app, page, providerId, "provider");
  // After another form's success (its done=… in the URL), the upload form still shows its own errors.
  await page.getByRole("button", { name: /^Move to / }).click();
  await expect(page).toHaveURL(/\?done=advance-/);
  const file = page.getByLabel("Deliverable file");
  await page.getByRole("button", { name: "Upload deliverable" }).click();
  await expect(file).toHaveAccessibleDescription(/^Choose the file to deliver/);
  await file.setInputFiles({ name: "empty.wav", mimeType: "audio/wav", buffer: Buffer.alloc(0) });
  await page.getByRole("button", { name: "Upload deliverable" }).click();
  await expect(file).toHaveAccessibleDescription(/^The file is empty\./);
  await file.setInputFiles({ name: "notes.wav", mimeType: "audio/wav", buffer: Buffer.from("just some text, not audio") });
  await page.getByRole("button", { name: "Upload deliverable" }).click();
  await expect(file).toHaveAccessibleDescription(/^This file is not audio/);
  await expect(page.getByText("Nothing delivered yet.")).toBeVisible();
});

test("an administrator resolves a dispute with a split and a reason", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  browserErrors.allowStatus(403); // the authenticator code asked before releasing escrow
  const clientId = await logInMember(app, projectClient("split"));
  const projectId = await openOnlyProject(app, page, clientId, "client");

  // Without two-factor, an administrator is told to turn it on first.
  await app.dropSession();
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/admin/project/${projectId}`);
  await expect(page.getByTestId("two-factor-required")).toBeVisible();

  const admin = await twoFactorAdmin();
  await app.dropSession();
  await logInTwoFactorAdmin(page, admin);
  await app.goto(`/admin/projects?q=${encodeURIComponent("Client split")}`);
  await page
    .getByRole("table")
    .getByRole("link", { name: `Project #${projectId}` })
    .click();
  await expect(page).toHaveURL(`/admin/project/${projectId}`);
  await app.hydrated();
  await page.getByLabel("To the provider (USD, before the fee)").fill("250.00");
  await page.getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByLabel("Reason")).toHaveAccessibleDescription(/^Give a reason/);
  await page.getByLabel("Reason").fill("Half of the work was delivered.");
  await page.getByRole("button", { name: "Resolve" }).click();
  // Releasing escrow needs a current authenticator code (decision 020); then the split is checked.
  await confirmWithCode(page, admin);
  await expect(page.getByLabel("To the provider (USD, before the fee)")).toHaveAccessibleDescription(/less than \$200\.00/);
  await expect(page.getByLabel("Reason")).toHaveValue("Half of the work was delivered.");
  await page.getByLabel("To the provider (USD, before the fee)").fill("50.00");
  await page.getByRole("button", { name: "Resolve" }).click();
  await expect(flash(page)).toContainText(`Project #${projectId} is resolved (split): $45.00 to the provider's earnings, $150.00 refunded to the client.`);
  await expect(summaryValue(page, "Funding")).toHaveText("Split");
  await expect(summaryValue(page, "Resolution")).toHaveText("split: Half of the work was delivered.");
  await expect(page.getByRole("button", { name: "Resolve" })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the client approves a delivery and the project completes", async ({ page, app, browserErrors }) => {
    // The review with a rating out of range answers 400 (the page, with the error beside the field).
    browserErrors.allowStatus(400);
    const clientId = await logInMember(app, projectClient("nojs"));
    const projectId = await openOnlyProject(app, page, clientId, "client");
    await expect(summaryValue(page, "Status")).toHaveText("Awaiting approval");
    await page.getByRole("button", { name: "Approve delivery" }).click();
    await expect(page).toHaveURL(new RegExp(`/member/${clientId}/project/${projectId}\\?done=approve-`));
    await expect(flash(page)).toContainText("$180.00 is released to the provider.");
    await expect(summaryValue(page, "Status")).toHaveText("Completed");
    await page.getByLabel("Rating (1 to 5)").fill("0");
    await page.getByRole("button", { name: "Publish review" }).click();
    await expect(page.getByLabel("Rating (1 to 5)")).toHaveAccessibleDescription("Choose a rating from 1 to 5.");
    await page.getByLabel("Rating (1 to 5)").fill("4");
    await page.getByRole("button", { name: "Publish review" }).click();
    await expect(page.getByRole("region", { name: "Review", exact: true })).toContainText("4 of 5 · verified");
  });
});

test("the client funds a project by card on Stripe Checkout and comes back to it funded", async ({ page, app }) => {
  const clientId = await logInMember(app, projectClient("card"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  const funding = page.getByRole("region", { name: "Fund the project" });
  await expect(funding).toContainText(`BACKLINE-PROJECT-${projectId}`);

  // Cancelling on Stripe's page changes nothing.
  await funding.getByRole("button", { name: "Pay $200.00 by card" }).click();
  await expect(page.getByRole("heading", { name: "Pay 200.00 USD" })).toBeVisible();
  await page.getByRole("link", { name: "Back without paying" }).click();
  await expect(page).toHaveURL(`/member/${clientId}/project/${projectId}`);
  await expect(flash(page)).toContainText("The card payment was canceled: nothing was charged.");
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");

  // Paying: back on the project, funded (the webhook and the return race; whichever is first records it once).
  await app.hydrated();
  await page.getByRole("region", { name: "Fund the project" }).getByRole("button", { name: "Pay $200.00 by card" }).click();
  await page.getByRole("button", { name: "Pay 200.00 USD" }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${clientId}/project/${projectId}\\?done=checkout-`));
  await expect(flash(page)).toContainText("Your card payment is received");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  await expect(page.getByRole("region", { name: "Fund the project" })).toHaveCount(0);
});

test("the message thread is live: an administrator watching the project sees the client's message arrive without a reload", async ({
  page,
  app,
  browser,
  browserErrors,
}) => {
  const clientId = await logInMember(app, projectClient("live"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  const requestId = Number(/#(\d+)$/.exec((await summaryValue(page, "Work request").textContent()) ?? "")?.[1]);
  expect(requestId).toBeGreaterThan(0);

  // The administrator (no notification reaches them for a message) watches the admin project page.
  const admin = await otherBrowser(browser, browserErrors);
  await app.logInQuickly(PROJECT_FIXTURE_ADMIN, PROJECT_PASSWORD, { page: admin.page });
  const subscribed = waitForSubscription(admin.page, `private-marketplace-thread.${requestId}`);
  await app.goto(`/admin/project/${projectId}`, admin.page);
  await subscribed;
  await admin.page.evaluate(() => ((window as unknown as { __liveMarker?: string }).__liveMarker = "kept"));

  const text = `Live check <b>${Date.now().toString(36)}</b> https://example.com/ref`;
  await page.getByLabel("New message").fill(text);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(flash(page)).toContainText("Your message is sent.");

  const thread = admin.page.getByRole("list", { name: "Messages" });
  await expect(thread.getByRole("listitem").filter({ hasText: text.split(" https")[0]! })).toBeVisible();
  // Shown as text: the markup stays literal; the address is a safe link. And the page was not reloaded.
  await expect(thread.locator("b")).toHaveCount(0);
  await expect(thread.getByRole("link", { name: "https://example.com/ref" }).last()).toHaveAttribute("rel", "nofollow noopener noreferrer ugc");
  expect(await admin.page.evaluate(() => (window as unknown as { __liveMarker?: string }).__liveMarker)).toBe("kept");
  await admin.context.close();
});

test("before delivery the client cancels a funded project: a reason is required, then the escrow is refunded", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  const clientId = await logInMember(app, projectClient("cancel"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  await expect(summaryValue(page, "Funding")).toHaveText("Funded (in escrow)");
  const cancel = page.getByRole("region", { name: "Cancel the project" });
  await expect(cancel).toContainText("The $200.00 in escrow is refunded to the client.");
  await cancel.getByRole("button", { name: "Cancel the project" }).click();
  await expect(cancel.getByLabel("Why cancel?")).toHaveAccessibleDescription(/Give a reason/);
  await expect(summaryValue(page, "Status")).toHaveText("In progress");
  await cancel.getByLabel("Why cancel?").fill("The session was moved to next year.");
  await cancel.getByRole("button", { name: "Cancel the project" }).click();
  await expect(flash(page)).toContainText("The project is canceled; $200.00 is refunded.");
  await expect(summaryValue(page, "Status")).toHaveText("Canceled");
  await expect(summaryValue(page, "Funding")).toHaveText("Refunded");
  await expect(page.getByRole("region", { name: "Cancel the project" })).toHaveCount(0);
  expect(projectId).toBeGreaterThan(0);
});

test("an administrator without two-factor is refused when confirming funding, and nothing changes", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(403);
  const clientId = await logInMember(app, projectClient("refusal"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  await app.dropSession();
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(`/admin/project/${projectId}`);
  await app.hydrated();
  const confirm = page.getByRole("region", { name: "Confirm funding" });
  await confirm.getByLabel("Payment reference").fill("WIRE-REFUSED-1");
  await confirm.getByRole("button", { name: "Confirm funding" }).click();
  await expect(confirm.getByRole("alert")).toContainText("needs two-factor authentication");
  await expect(confirm.getByLabel("Payment reference")).toHaveValue("WIRE-REFUSED-1");
  await app.goto(`/admin/project/${projectId}`);
  await expect(summaryValue(page, "Funding")).toHaveText("Not funded");
});

test("approving a delivery with points proposes them on the client's song, and credits the provider there", async ({ page, app }) => {
  const clientId = await logInMember(app, projectClient("points"));
  const projectId = await openOnlyProject(app, page, clientId, "client");
  await expect(summaryValue(page, "Points")).toContainText("2.5% of the song's master royalties");
  await page.getByRole("button", { name: "Approve delivery" }).click();
  await expect(summaryValue(page, "Status")).toHaveText("Completed");

  // The song's page: a proposed split version naming the provider with their 2.50 %, and the verified credit.
  await app.goto(`/member/${clientId}/songs`);
  await page.getByRole("link", { name: PROJECT_POINTS_SONG }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: PROJECT_POINTS_SONG })).toBeVisible();
  const proposal = page.getByRole("table", { name: /^Parties of version \d+$/ }).last();
  const providerRow = proposal.getByRole("row").filter({ hasText: "Pete Provider points" });
  await expect(providerRow).toContainText("2.50%");
  await expect(proposal.getByRole("row").filter({ hasText: "Total" })).toContainText("100.00%");
  await expect(page.getByRole("list", { name: "Credits from completed projects" })).toContainText(`Verified: project #${projectId}`);
});
