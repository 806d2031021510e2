import { request, type Browser, type BrowserContext, type Page } from "@playwright/test";
import sharp from "sharp";
import type { Mail } from "./outbox";
import { expect, sendAppOrigin, type App, type BrowserErrors } from "./test";

/** Helpers for tests/e2e/account and tests/e2e/admin. */

export const INVALID_CREDENTIALS = "These credentials do not match our records.";

/** The flash message's live region (root.tsx renders it on every page, empty when there is no message). */
export const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

/** The area header's avatar button. */
export const avatarButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Account menu for / });

/** Logs in without the form and returns the member id the app redirected to (/member/{id}/dashboard). */
export async function logInMember(app: App, email: string, password: string, page?: Page): Promise<number> {
  const location = await app.logInQuickly(email, password, { page });
  const id = /^\/member\/(\d+)\/dashboard$/.exec(location)?.[1];
  expect(id, `member dashboard in ${location}`).toBeTruthy();
  return Number(id);
}

/** A second browser (its own cookies), watched for browser errors like the test's own. */
export async function otherBrowser(browser: Browser, browserErrors: BrowserErrors): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  sendAppOrigin(context.request);
  browserErrors.watch(context);
  return { context, page: await context.newPage() };
}

/** The Reply-To header the app put on a message (kept in the outbox file beside the other fields). */
export const replyTo = (mail: Mail) => (mail as Mail & { replyTo?: string }).replyTo;

/** A real image, made in memory. */
export function solidImage(format: "png" | "jpeg", width: number, height: number, background = "#336699"): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background } });
  return (format === "png" ? image.png() : image.jpeg({ quality: 80 })).toBuffer();
}

/** A valid PNG larger than `bytes` (stored without compression). */
export async function largePng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3)) + 16;
  const buffer = await sharp({ create: { width: side, height: side, channels: 3, background: "#aa3366" } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(buffer.length).toBeGreaterThan(bytes);
  return buffer;
}

/**
 * A login attempt from a client with no cookies at all (a POST /login made while signed in is sent on to
 * the dashboard whatever the password, so each attempt gets its own, empty cookie jar).
 */
export async function tryLogin(email: string, password: string): Promise<{ status: number; location?: string; text: string }> {
  const context = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const response = await context.post("/login", { form: { email, password }, maxRedirects: 0 });
    return { status: response.status(), location: response.headers()["location"], text: response.status() === 302 ? "" : await response.text() };
  } finally {
    await context.dispose();
  }
}
