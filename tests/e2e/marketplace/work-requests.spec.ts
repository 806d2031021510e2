import type { Page } from "@playwright/test";
import {
  WORK_REQUEST_PASSWORD,
  WORK_REQUEST_SCENARIOS,
  WR_ADMIN,
  WR_STRANGER,
  wrClient,
  wrProvider,
  type WorkRequestScenario,
} from "../support/marketplace-accounts";
import { expect, test, type App } from "../support/test";

/**
 * The work request pages: a client asks a provider profile for work, the provider estimates, the
 * client asks for a revision, the provider revises, the client accepts (the project opens). Bad input stays
 * beside its fields; strangers get 404; the admin list shows every request; and the same path works without
 * JavaScript. Accounts and profiles: tests/e2e/support/prepare-work-requests.ts.
 */

const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');
const isoIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function logIn(app: App, email: string): Promise<number> {
  await app.dropSession();
  const location = await app.logInQuickly(email, WORK_REQUEST_PASSWORD);
  const id = Number(/^\/(?:member\/(\d+)|admin)\//.exec(location)?.[1] ?? 0);
  return id;
}

/** From the provider's public page to a sent request; answers the request's id. */
async function askForWork(app: App, key: WorkRequestScenario, clientId: number, options: { budget: string; song?: string }) {
  const { page } = app;
  const s = WORK_REQUEST_SCENARIOS[key];
  await app.goto(`/member/${clientId}/${s.directory}/${s.username}`);
  await page.getByRole("link", { name: `Request work from ${s.profileName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${clientId}/${s.directory}/\\d+/create-work-request$`));
  await expect(
    page.getByRole("heading", {
      level: 1,
      name: `Request work from ${s.profileName}`,
    }),
  ).toBeVisible();
  await app.hydrated();
  await page.getByLabel("Service").selectOption({ label: "Mixing" });
  await page.getByLabel("Description", { exact: true }).fill("Mix my single: 24 stems, warm and wide, vocals up front.");
  await page.getByLabel("Reference links (optional)").fill("https://example.com/reference-mix");
  await page.getByLabel("Budget (USD)").fill(options.budget);
  await page.getByLabel("Deadline").fill(isoIn(30));
  if (options.song) await page.getByLabel("Song (optional)").selectOption({ label: options.song });
  await page.getByRole("button", { name: "Send work request" }).click();
  await expect(page).toHaveURL(new RegExp(`/member/${clientId}/work-request/\\d+$`));
  await expect(flash(page)).toContainText("was sent");
  return Number(/work-request\/(\d+)$/.exec(page.url())![1]);
}

async function sendEstimate(app: App, providerId: number, requestId: number, lines: Array<[string, string]>, extra: { points?: string } = {}) {
  const { page } = app;
  await app.goto(`/member/${providerId}/work-request/estimate/${requestId}`);
  for (const [i, [description, amount]] of lines.entries()) {
    await page.getByLabel(`Line ${i + 1} description`).fill(description);
    await page.getByLabel(`Line ${i + 1} amount`).fill(amount);
  }
  await page.getByLabel("Delivery (days)").fill("10");
  await page.getByLabel("Revisions included").fill("2");
  if (extra.points !== undefined) await page.getByLabel("Points (% of master royalties, optional)").fill(extra.points);
}

test.describe("work requests", () => {
  test("request, estimate, revision, revised estimate, acceptance; strangers get 404; the admin list shows it", async ({ app, page, browserErrors }) => {
    const s = WORK_REQUEST_SCENARIOS.flow;
    const clientId = await logIn(app, wrClient("flow"));
    const requestId = await askForWork(app, "flow", clientId, {
      budget: "450",
      song: `${s.song} (WR flow Artist)`,
    });
    await expect(page.getByText("$450.00")).toBeVisible();
    await expect(page.getByRole("link", { name: "https://example.com/reference-mix" })).toHaveAttribute("rel", /noopener/);

    // A hostile message is shown as text; its web address becomes a safe link.
    await app.hydrated();
    await page.getByLabel("New message").fill('<img src=x onerror="alert(1)"> stems here: https://example.com/stems.zip');
    await page.getByRole("button", { name: "Send message" }).click();
    const thread = page.getByRole("list", { name: "Messages" });
    await expect(thread).toContainText('<img src=x onerror="alert(1)"> stems here:');
    await expect(thread.getByRole("link", { name: "https://example.com/stems.zip" })).toHaveAttribute("rel", "nofollow noopener noreferrer ugc");
    await expect(page.locator("main img[src='x']")).toHaveCount(0);

    // The provider opens Work Requests: a request waits for them, so the list opens on Received.
    const providerId = await logIn(app, wrProvider("flow"));
    await app.goto(`/member/${providerId}/work-requests`);
    await expect(page.getByRole("link", { name: "Received" })).toHaveAttribute("aria-current", "page");
    await page
      .getByRole("table")
      .getByRole("link", { name: `#${requestId} Mixing` })
      .click();
    await expect(
      page.getByRole("heading", {
        level: 1,
        name: `Work request #${requestId}`,
      }),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Messages" })).toContainText("stems here");
    // The song is named by its title, not its number.
    await expect(page.getByRole("region", { name: "Request" })).toContainText(s.song);
    await expect(page.getByRole("region", { name: "Request" })).not.toContainText(/Song #\d/);
    await page.getByRole("link", { name: "Send an estimate" }).click();
    await expect(page).toHaveURL(`/member/${providerId}/work-request/estimate/${requestId}`);
    await app.hydrated();
    await sendEstimate(
      app,
      providerId,
      requestId,
      [
        ["Mixing", "400"],
        ["Stem preparation", "50.50"],
      ],
      { points: "2.5" },
    );
    await page.getByRole("button", { name: "Send estimate" }).click();
    await expect(flash(page)).toContainText("Estimate version 1 ($450.50) was sent");
    const v1 = page.getByRole("article", { name: "Estimate version 1" });
    await expect(v1).toContainText(`2.50% of the master royalties of “${s.song}”`);

    // The client asks for a revision, saying why.
    await logIn(app, wrClient("flow"));
    await app.goto(`/member/${clientId}/work-request/estimate/${requestId}`);
    await page.getByLabel("What should change?").fill("Could the stem preparation be included?");
    await page.getByRole("button", { name: "Ask for a revision" }).click();
    await expect(flash(page)).toContainText("You asked for a revised estimate");
    await expect(page.getByRole("article", { name: "Estimate version 1" }).locator("[data-status]")).toHaveText("Revision requested");

    // The provider revises (the form starts from version 1).
    await logIn(app, wrProvider("flow"));
    await app.goto(`/member/${providerId}/work-request/estimate/${requestId}`);
    await expect(page.getByText("The client asked: Could the stem preparation be included?")).toBeVisible();
    await expect(page.getByLabel("Line 1 amount")).toHaveValue("400.00");
    await page.getByLabel("Line 2 description").fill("");
    await page.getByLabel("Line 2 amount").fill("");
    await page.getByRole("button", { name: "Send revised estimate" }).click();
    await expect(flash(page)).toContainText("Estimate version 2 ($400.00) was sent");
    await expect(page.getByRole("article", { name: "Estimate version 2" })).toBeVisible();
    await expect(page.getByRole("article", { name: "Estimate version 1" })).toBeVisible();

    // The client accepts version 2: the project opens and the request links to it.
    await logIn(app, wrClient("flow"));
    await app.goto(`/member/${clientId}/work-request/estimate/${requestId}`);
    await page.getByRole("article", { name: "Estimate version 2" }).getByRole("button", { name: "Accept the estimate" }).click();
    await expect(page).toHaveURL(`/member/${clientId}/work-request/${requestId}`);
    await expect(flash(page)).toContainText("You accepted the estimate");
    const projectLink = page.getByRole("link", { name: /^Open project #\d+$/ });
    await expect(projectLink).toHaveAttribute("href", new RegExp(`^/member/${clientId}/project/\\d+$`));
    await expect(page.getByRole("button", { name: "Cancel the request" })).toHaveCount(0);

    // A third member: 404 on the request and its estimate, in their area and in the client's.
    browserErrors.allowStatus(404);
    const strangerId = await logIn(app, WR_STRANGER);
    for (const path of [
      `/member/${strangerId}/work-request/${requestId}`,
      `/member/${strangerId}/work-request/estimate/${requestId}`,
      `/member/${clientId}/work-request/${requestId}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
    }
    const post = await page.request.post(`/member/${strangerId}/work-request/${requestId}`, { form: { intent: "message", body: "hello" }, maxRedirects: 0 });
    expect(post.status()).toBe(404);

    // The administrator's list and read-only page.
    await logIn(app, WR_ADMIN);
    await app.goto(`/admin/work-requests?q=${requestId}`);
    const row = page
      .getByRole("table")
      .getByRole("row")
      .filter({
        has: page.getByRole("link", { name: `#${requestId} Mixing` }),
      });
    await expect(row).toContainText("Accepted");
    await expect(row).toContainText(s.profileName);
    await row.getByRole("link", { name: `#${requestId} Mixing` }).click();
    await expect(page).toHaveURL(`/admin/work-request/${requestId}`);
    await expect(page.getByRole("list", { name: "Messages" })).toContainText("stems here");
    await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
    await app.goto(`/admin/work-request/estimate/${requestId}`);
    await expect(page.getByRole("article", { name: "Estimate version 2" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Accept the estimate" })).toHaveCount(0);
  });

  test("bad input stays beside its fields, values kept, 400", async ({ app, page, browserErrors }) => {
    // Refused posts answer 400 (the browser logs the status of the refused .data request).
    browserErrors.allowStatus(400);
    const s = WORK_REQUEST_SCENARIOS.invalid;
    const clientId = await logIn(app, wrClient("invalid"));
    await app.goto(`/member/${clientId}/${s.directory}/${s.username}`);
    await page.getByRole("link", { name: `Request work from ${s.profileName}` }).click();
    await expect(page).toHaveURL(/\/create-work-request$/);
    await app.hydrated();
    const formPath = new URL(page.url()).pathname;
    await page.getByLabel("Description", { exact: true }).fill("Too short");
    await page.getByLabel("Budget (USD)").fill("lots");
    await page.getByLabel("Deadline").fill("2001-01-01");
    await page.getByRole("button", { name: "Send work request" }).click();
    await expect(page.getByLabel("Service")).toHaveAccessibleDescription("Choose a service.");
    await expect(page.getByLabel("Description", { exact: true })).toHaveAccessibleDescription(/Describe the work in 10 to 5000 characters\./);
    await expect(page.getByLabel("Budget (USD)")).toHaveAccessibleDescription("Enter a budget in dollars, such as 500 or 499.99.");
    await expect(page.getByLabel("Description", { exact: true })).toHaveValue("Too short");
    await expect(page.getByLabel("Budget (USD)")).toHaveValue("lots");

    // The service's own rule (a past deadline) comes back beside its field, with the others kept.
    await page.getByLabel("Service").selectOption({ label: "Mastering" });
    await page.getByLabel("Description", { exact: true }).fill("Master four tracks for vinyl and streaming.");
    await page.getByLabel("Budget (USD)").fill("300");
    await page.getByRole("button", { name: "Send work request" }).click();
    await expect(page.getByLabel("Deadline")).toHaveAccessibleDescription("The deadline cannot be in the past.");
    await expect(page.getByLabel("Service")).toHaveValue("mastering");

    const raw = await page.request.post(formPath, {
      form: {
        service: "mixing",
        description: "x",
        budget: "-1",
        deadline: "soon",
      },
      maxRedirects: 0,
    });
    expect(raw.status()).toBe(400);

    await page.getByLabel("Deadline").fill(isoIn(20));
    await page.getByRole("button", { name: "Send work request" }).click();
    await expect(page).toHaveURL(new RegExp(`/member/${clientId}/work-request/\\d+$`));
    const requestId = Number(/work-request\/(\d+)$/.exec(page.url())![1]);

    // The provider's estimate form: bad lines, days and points (no song on this request).
    const providerId = await logIn(app, wrProvider("invalid"));
    await sendEstimate(
      app,
      providerId,
      requestId,
      [
        ["Mastering", "-5"],
        ["", "20"],
      ],
      { points: "3" },
    );
    await page.getByLabel("Delivery (days)").fill("0");
    await page.getByRole("button", { name: "Send estimate" }).click();
    await expect(page.getByLabel("Line 1 amount")).toHaveAccessibleDescription("Enter an amount in dollars above $0.00.");
    await expect(page.getByLabel("Line 2 description")).toHaveAccessibleDescription("Describe this line.");
    await expect(page.getByLabel("Delivery (days)")).toHaveAccessibleDescription("Delivery takes 1 to 365 days.");
    await expect(page.getByLabel("Line 1 description")).toHaveValue("Mastering");
    await page.getByLabel("Line 1 amount").fill("250");
    await page.getByLabel("Line 2 amount").fill("");
    await page.getByLabel("Delivery (days)").fill("7");
    await page.getByRole("button", { name: "Send estimate" }).click();
    await expect(page.getByLabel("Points (% of master royalties, optional)")).toHaveAccessibleDescription(/Points need a song/);
    await page.getByLabel("Points (% of master royalties, optional)").fill("");
    await page.getByRole("button", { name: "Send estimate" }).click();
    await expect(flash(page)).toContainText("Estimate version 1 ($250.00) was sent");
  });
});

test.describe("work requests without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("request, estimate and acceptance as plain forms", async ({ app, page }) => {
    const clientId = await logIn(app, wrClient("nojs"));
    const requestId = await askForWork(app, "nojs", clientId, {
      budget: "1,200.00",
    });
    await expect(page.getByText("$1,200.00")).toBeVisible();

    const providerId = await logIn(app, wrProvider("nojs"));
    await sendEstimate(app, providerId, requestId, [["Two days of tracking", "1100"]]);
    await page.getByRole("button", { name: "Send estimate" }).click();
    await expect(flash(page)).toContainText("Estimate version 1 ($1,100.00) was sent");

    await logIn(app, wrClient("nojs"));
    await app.goto(`/member/${clientId}/work-request/estimate/${requestId}`);
    await page.getByRole("button", { name: "Accept the estimate" }).click();
    await expect(page).toHaveURL(`/member/${clientId}/work-request/${requestId}`);
    await expect(page.getByRole("link", { name: /^Open project #\d+$/ })).toBeVisible();
  });
});
