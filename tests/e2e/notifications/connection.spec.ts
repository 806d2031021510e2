import type { Page, WebSocketRoute } from "@playwright/test";
import { logInMember } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { NOTIFY, NOTIFY_PASSWORD } from "../support/notification-accounts";
import { expect, test } from "../support/test";
import {
  announce,
  deleteButton,
  ensureOpen,
  expectCount,
  expectSameDocument,
  item,
  items,
  markDocument,
  memberChannel,
  openBell,
  realtimeState,
  signedIn,
  uniqueMessage,
  waitForSubscription,
} from "./helpers";

/**
 * The header's connection indicator (app/components/realtime/realtime.tsx, [data-realtime-state]) and
 * the page without live updates. The realtime server itself keeps running (the whole suite shares it):
 * the browser's socket is routed instead (page.routeWebSocket), closed at once as if nothing answered,
 * or cut from the server side once connected.
 */
test.describe.configure({ timeout: 60_000 });

const REALTIME_SOCKET = /\/app\/[^/?]+\?protocol=/;

/**
 * Records each distinct value of [data-realtime-state], from the server-rendered one on. Attribute changes
 * carry their old value: two changes delivered in one observer callback (connecting, then connected at once
 * on a fast machine) are both recorded.
 */
async function recordStates(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __realtimeStates: string[] };
    w.__realtimeStates = [];
    const push = (state: string | null | undefined) => {
      if (state && w.__realtimeStates[w.__realtimeStates.length - 1] !== state) w.__realtimeStates.push(state);
    };
    new MutationObserver((mutations) => {
      for (const m of mutations) if (m.type === "attributes") push(m.oldValue);
      push(document.querySelector("[data-realtime-state]")?.getAttribute("data-realtime-state"));
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      attributeFilter: ["data-realtime-state"],
    });
  });
}
const states = (page: Page) => page.evaluate(() => (window as unknown as { __realtimeStates: string[] }).__realtimeStates);

test("the indicator goes from starting through connecting to connected", async ({ page, app }) => {
  await recordStates(page);
  const id = await logInMember(app, NOTIFY.states, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/dashboard`);
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "connected", { timeout: 15_000 });
  await expect(realtimeState(page)).toHaveAttribute("title", "Live updates: connected");
  await expect(realtimeState(page).getByText("Live updates: connected")).toBeAttached();
  await expect(realtimeState(page).locator(".bg-green-600")).toHaveCount(1);
  // "connecting" is drawn unless the socket opened before React rendered it (seen on a loaded machine);
  // nothing else may come between.
  expect([
    ["initialized", "connecting", "connected"],
    ["initialized", "connected"],
  ]).toContainEqual(await states(page));
});

test("with the realtime server unreachable the indicator says so, and the bell and pages still work", async ({ page, app }) => {
  const sockets: string[] = [];
  await page.routeWebSocket(REALTIME_SOCKET, (ws) => {
    sockets.push(ws.url());
    void ws.close();
  });
  await recordStates(page);
  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  const [keep, drop] = [uniqueMessage("Kept offline"), uniqueMessage("Dropped offline")];
  await announce(admin.api, NOTIFY.states, keep);
  await announce(admin.api, NOTIFY.states, drop);

  const id = await logInMember(app, NOTIFY.states, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/dashboard`);
  // pusher-js reports "unavailable" once it has tried for 10 seconds, and keeps retrying.
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "unavailable", { timeout: 20_000 });
  await expect(realtimeState(page)).toHaveAttribute("title", "Live updates: unavailable, retrying");
  await expect(realtimeState(page).locator(".bg-stone-400")).toHaveCount(1);
  expect(await states(page)).toEqual(["initialized", "connecting", "unavailable"]);
  // It did try (ws, then wss), and nothing answered.
  expect(sockets.length).toBeGreaterThan(0);

  // The bell works by its forms alone.
  await expectCount(page, 2);
  await openBell(page);
  await deleteButton(page, drop).click();
  await expectCount(page, 1);
  await ensureOpen(page);
  await expect(items(page)).toHaveCount(1);
  await expect(item(page, keep)).toBeVisible();
  // Navigation works; new notifications show on the next load instead of live.
  await page.getByRole("link", { name: "Contact Us" }).first().click();
  await expect(page).toHaveURL(`/member/${id}/contact-us`);
  await announce(admin.api, NOTIFY.states, uniqueMessage("Arrives on the next load"));
  await admin.api.dispose();
  await expectCount(page, 1);
  await app.goto(`/member/${id}/contact-us`);
  await expectCount(page, 2);
});

test("when the connection drops, the page reconnects by itself and live updates resume", async ({ page, app }) => {
  const servers: WebSocketRoute[] = [];
  await page.routeWebSocket(REALTIME_SOCKET, (ws) => {
    servers.push(ws.connectToServer());
  });
  await recordStates(page);
  const id = await logInMember(app, NOTIFY.reconnect, NOTIFY_PASSWORD);
  const firstSubscription = waitForSubscription(page, memberChannel(id));
  await app.goto(`/member/${id}/dashboard`);
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "connected", { timeout: 15_000 });
  await firstSubscription;
  await markDocument(page);
  expect(servers).toHaveLength(1);

  // The server side goes away: the page notices, and subscribes again on a new socket.
  const resubscribed = waitForSubscription(page, memberChannel(id));
  await servers[0]!.close({ code: 4200, reason: "e2e: server gone" });
  await expect.poll(() => servers.length, { timeout: 20_000 }).toBeGreaterThan(1);
  await expect(realtimeState(page)).toHaveAttribute("data-realtime-state", "connected", { timeout: 20_000 });
  await resubscribed;
  const seen = await states(page);
  expect(seen.slice(0, 3)).toEqual(["initialized", "connecting", "connected"]);
  expect(seen.length, `states ${seen.join(" → ")}`).toBeGreaterThan(3);
  expect(seen[seen.length - 1]).toBe("connected");

  const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
  const message = uniqueMessage("After the reconnect");
  await announce(admin.api, NOTIFY.reconnect, message);
  await admin.api.dispose();
  await expectCount(page, 1);
  await openBell(page);
  await expect(item(page, message)).toBeVisible();
  await expectSameDocument(page);
});

// The island listens for logout submits before its clients load, so a logout during loading opens no channel.
test("a logout while live updates are still loading asks for no channel afterwards", async ({ page, app }) => {
  // Slow network: the pusher-js chunk arrives late, and so does the login page's data after the logout.
  await page.route(/\/assets\/pusher-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.route(/\/login\.data/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await route.continue();
  });
  const authStatuses: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/broadcasting/auth") authStatuses.push(response.status());
  });
  const id = await logInMember(app, NOTIFY.states, NOTIFY_PASSWORD);
  await app.goto(`/member/${id}/dashboard`);
  await page.getByRole("navigation", { name: "Member menu" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login", { timeout: 15_000 });
  await page.waitForTimeout(1_000);
  expect(authStatuses).not.toContain(401);
});
