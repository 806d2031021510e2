import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { stopAbandonedServer } from "./app/db/embedded-postgres.server";

/**
 * End-to-end tests against the production build (`npm run build` first), served by `node server/start.js`
 * on the embedded PostgreSQL (the default) in a fresh temporary DATA_DIR, or on E2E_DATABASE_URL's database
 * when it is set (it must be empty: the suite prepares its accounts in it). Workers inherit the E2E_*
 * variables set here.
 *
 * This file is evaluated by the runner and again in each worker. The runner (the process without
 * E2E_DATA_DIR_OWNER, which it then sets) creates the data folder; workers inherit its path.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
/** The local Plausible stand-in (tests/e2e/support/analytics-stand-in.mjs) the app reports page views to. */
const analyticsPort = Number(process.env.E2E_ANALYTICS_PORT ?? port + 1);
/** The realtime server that `node server/start.js` runs beside the app. */
const realtimePort = Number(process.env.E2E_REALTIME_PORT ?? port + 2);
const analyticsURL = `http://127.0.0.1:${analyticsPort}`;
/** The real SMTP listener the app sends every message to (tests/e2e/support/smtp-mailbox.mjs). */
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 3);
/** The local Stripe stand-in (tests/helpers/stripe-stand-in.ts) the app's Stripe SDK is pointed at. */
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 4);
const stripeWebhookSecret = "whsec_e2e_backline_stand_in";

if (!process.env.E2E_DATA_DIR_OWNER) {
  await removeStaleDataDirs();
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "backline-e2e-"));
  process.env.E2E_DATA_DIR_OWNER = String(process.pid);
}
const dataDir = process.env.E2E_DATA_DIR!;

// Fixed so tests can sign (expired) links themselves; never used outside tests.
process.env.E2E_SESSION_SECRET = "e2e-test-session-secret-0123456789abcdef";
process.env.E2E_BASE_URL = baseURL;
process.env.E2E_ANALYTICS_URL = analyticsURL;

/**
 * Data folders of earlier runs (older than 6 hours, so a run still going is never touched), after stopping
 * an embedded PostgreSQL a killed run left running in one (never one whose server process still runs).
 */
async function removeStaleDataDirs() {
  const cutoff = Date.now() - 6 * 60 * 60 * 1000;
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith("backline-e2e-")) continue;
    const dir = path.join(os.tmpdir(), name);
    try {
      if (fs.statSync(dir).mtimeMs < cutoff && (await stopAbandonedServer(dir))) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/** The browser every project uses. */
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

/**
 * Run last (after every other spec file, in their own project), one test at a time: publishing a version
 * opens "What's new" on every signed-in page (live in the member area), and an announcement to all
 * members lands in every member's bell, so these must not overlap with the other specs or each other.
 * To run only these: `npx playwright test --project=versions --no-deps`.
 */
// Specs that change what every other page shows (a new app version, an announcement, a required legal document
// published for a moment) run alone, after the rest.
const runLast = ["**/tests/e2e/versions/**/*.spec.ts", "**/tests/e2e/admin/announcements.spec.ts", "**/tests/e2e/legal-admin/publish.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // No retries: a retried test would meet the state its first attempt left (used links, signed documents).
  retries: 0,
  // Generous for a shared 2-core machine whose load comes and goes (CI has seen 30 s runs out on tests
  // that take 10 s on a quiet one); a wrong value still fails, only later.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: runLast,
      use: chromium,
    },
    {
      name: "versions",
      testMatch: runLast,
      dependencies: ["chromium"],
      workers: 1,
      use: chromium,
    },
  ],
  webServer: [
    {
      // Analytics is on for the whole suite (events are fire-and-forget); see tests/e2e/shell/analytics.spec.ts.
      command: "node tests/e2e/support/analytics-stand-in.mjs",
      url: `${analyticsURL}/events`,
      timeout: 15_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { ANALYTICS_STAND_IN_PORT: String(analyticsPort), ANALYTICS_STAND_IN_ORIGIN: baseURL },
    },
    {
      // Every message the app sends goes over SMTP to this listener, which files it where outbox.ts reads.
      command: "node tests/e2e/support/smtp-mailbox.mjs",
      port: smtpPort,
      timeout: 15_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { SMTP_MAILBOX_PORT: String(smtpPort), SMTP_MAILBOX_DIR: dataDir },
    },
    {
      // Stripe cannot be reached from here: the SDK talks to this stand-in, which plays hosted onboarding and
      // signs its webhooks to the app as Stripe does (decision 019).
      command: "node_modules/.bin/tsx tests/helpers/stripe-stand-in-server.ts",
      port: stripePort,
      timeout: 15_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { STRIPE_STAND_IN_PORT: String(stripePort), STRIPE_WEBHOOK_URL: `${baseURL}/api/stripe/webhooks`, STRIPE_WEBHOOK_SECRET: stripeWebhookSecret },
    },
    {
      // The preparation step starts the embedded PostgreSQL in DATA_DIR, prepares, and stops it; the server then
      // starts it again (and stops it when Playwright ends the run with SIGTERM).
      command: "node_modules/.bin/tsx tests/e2e/support/prepare.ts && node server/start.js",
      url: `${baseURL}/login`,
      gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
      // Preparing the suite's accounts takes ~20 s on a quiet machine; a loaded one has needed over 60 s.
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
      stderr: "pipe",
      env: {
        APP_ENV: "test",
        NODE_ENV: "production",
        PORT: String(port),
        APP_URL: baseURL,
        DATA_DIR: dataDir,
        SESSION_SECRET: process.env.E2E_SESSION_SECRET,
        SEED_DEMO_DATA: "true",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
        LOGIN_LIMIT_PER_IP: "10000",
        LOGIN_LIMIT_PER_ACCOUNT: "5",
        LOGIN_LIMIT_WINDOW_SECONDS: "900",
        ANALYTICS_PLAUSIBLE_DOMAIN: "backline.test",
        ANALYTICS_ENDPOINT: analyticsURL,
        ANALYTICS_GA4_ID: "",
        REALTIME_PORT: String(realtimePort),
        REALTIME_HOST: "127.0.0.1",
        REALTIME_SERVER: "true",
        STRIPE_SECRET_KEY: "sk_test_e2e_backline",
        STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
        STRIPE_API_BASE: `http://127.0.0.1:${stripePort}`,
      },
    },
  ],
});
