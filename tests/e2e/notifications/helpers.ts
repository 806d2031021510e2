import crypto from "node:crypto";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { expect, sendAppOrigin } from "../support/test";

/**
 * Helpers for the notification bell (app/components/notification-bell.tsx) and live updates
 * (app/components/realtime/*). The bell is a <details data-notifications="{label}">; its badge is
 * [data-testid=notification-count]; the header's [data-realtime-state] says how the socket is.
 */

export const MEMBER_BELL = "Notifications";
export const ADMIN_BELL = "Admin notifications";
export const NOTIFICATION_ERROR = "Error processing your request";
export const ADMIN_CHANNEL = "private-admin-notifications";
export const memberChannel = (id: number) => `private-member-notifications.${id}`;

export const bell = (page: Page, label = MEMBER_BELL) => page.locator(`details[data-notifications="${label}"]`);
export const summary = (page: Page, label = MEMBER_BELL) => bell(page, label).locator("summary");
export const badge = (page: Page, label = MEMBER_BELL) => bell(page, label).getByTestId("notification-count");
export const items = (page: Page, label = MEMBER_BELL) => bell(page, label).getByRole("list", { name: label }).getByRole("listitem");
/** One notification's row, by its message. */
export const item = (page: Page, message: string, label = MEMBER_BELL) => items(page, label).filter({ hasText: message });
/** The row's main button: opens (deletes and follows) the notification. */
export const openButton = (page: Page, message: string, label = MEMBER_BELL) =>
  item(page, message, label).getByRole("button", { name: new RegExp(`^${escapeRegExp(message)}`) });
/** The row's cross. */
export const deleteButton = (page: Page, message: string, label = MEMBER_BELL) =>
  bell(page, label).getByRole("button", { name: `Delete notification: ${message}`, exact: true });
export const clearAll = (page: Page, label = MEMBER_BELL) => bell(page, label).getByRole("button", { name: "Clear all" });
export const realtimeState = (page: Page) => page.locator("[data-realtime-state]");
/** The flash message's live region (root.tsx). */
export const flash = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

export const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A message no other test uses. */
export const uniqueMessage = (label: string) => `${label} ${crypto.randomBytes(4).toString("hex")}`;

/** Opens the bell by clicking its summary (with or without JavaScript). */
export async function openBell(page: Page, label = MEMBER_BELL) {
  await summary(page, label).click();
  await expect(bell(page, label)).toHaveAttribute("open", "");
}

/** Opens the bell unless it is open already (a navigation closes it with JavaScript; a form post reloads without). */
export async function ensureOpen(page: Page, label = MEMBER_BELL) {
  if ((await bell(page, label).getAttribute("open")) === null) await openBell(page, label);
}

/** The badge says `count`, the summary's name agrees; no badge at all for 0. */
export async function expectCount(page: Page, count: number, label = MEMBER_BELL) {
  if (count === 0) await expect(badge(page, label)).toHaveCount(0);
  else await expect(badge(page, label)).toHaveText(String(count));
  await expect(summary(page, label)).toHaveAttribute("aria-label", `${label}: ${count} unread`);
}

import { waitForSubscription } from "../support/realtime";

export { waitForSubscription };

/** Opens `path` and waits until live updates are connected and the page listens on `channel`. */
export async function gotoLive(page: Page, path: string, channel: string, goto: (path: string, page: Page) => Promise<unknown>) {
  const subscribed = waitForSubscription(page, channel);
  await goto(path, page);
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "connected", { timeout: 15_000 });
  await subscribed;
}

/** Marks the page's window; `expectSameDocument` then proves no full page load replaced it. */
export async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __notificationMarker?: string }).__notificationMarker = "kept";
  });
}
export async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __notificationMarker?: string }).__notificationMarker)).toBe("kept");
}

/**
 * An API client of its own (its own cookie jar), signed in as `email`, and the member id the login
 * redirected to (null for an administrator). Dispose `api` at the end.
 */
export async function signedIn(email: string, password: string): Promise<{ api: APIRequestContext; id: number }> {
  const api = sendAppOrigin(await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL }));
  const response = await api.post("/login", { form: { email, password, redirect: "" }, maxRedirects: 0 });
  expect(response.status(), `log in ${email}`).toBe(302);
  const id = Number(/^\/member\/(\d+)\/dashboard$/.exec(response.headers()["location"] ?? "")?.[1] ?? NaN);
  return { api, id };
}

/** An announcement to one member, sent through the admin form's POST (as a browser without JavaScript would). */
export async function announce(admin: APIRequestContext, email: string, message: string, color = "blue") {
  const response = await admin.post("/admin/announcements", { form: { audience: "one", email, message, color }, maxRedirects: 0 });
  expect(response.status(), `announce to ${email}`).toBe(302);
  // A successful send comes back with a ?done= marker (the form then starts empty).
  expect(response.headers()["location"]).toMatch(/^\/admin\/announcements\?done=\d+$/);
}

export interface NotificationJson {
  id: string;
  type: { name: string };
  data: { message: string; color: string; route_name: string | null; resource_id: string | number | null; route_hash: string | null };
  created_at: string;
}

/** GET /api/members/{id}/notifications as that member. */
export async function memberList(member: APIRequestContext, memberId: number): Promise<{ data: NotificationJson[]; meta: { total: number } }> {
  const response = await member.get(`/api/members/${memberId}/notifications`);
  expect(response.status()).toBe(200);
  return response.json();
}

/** GET /api/notifications-admin as an administrator. */
export async function adminList(admin: APIRequestContext): Promise<{ data: NotificationJson[]; meta: { total: number } }> {
  const response = await admin.get("/api/notifications-admin");
  expect(response.status()).toBe(200);
  return response.json();
}

/** A Contact Us message through the form's POST, as that member; notifies the administrators' shared list. */
export async function contactUs(member: APIRequestContext, memberId: number, subject: string, message = "Hello from the e2e suite") {
  const response = await member.post(`/member/${memberId}/contact-us`, { form: { subject, message }, maxRedirects: 0 });
  expect(response.status(), "contact us").toBe(302);
}
