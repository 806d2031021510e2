import type { Page } from "@playwright/test";

/** Resolves once the realtime server confirms the page's subscription to `channel` (read off its WebSocket). */
export function waitForSubscription(page: Page, channel: string, timeout = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no subscription to ${channel} within ${timeout} ms`)), timeout);
    page.on("websocket", (ws) => {
      ws.on("framereceived", ({ payload }) => {
        const text = typeof payload === "string" ? payload : payload.toString("utf8");
        if (text.includes("pusher_internal:subscription_succeeded") && text.includes(`"${channel}"`)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  });
}
