import Pusher from "pusher-js";
import { createRealtimeServer, defaultOptions, type RealtimeServer } from "../../realtime/src/index";
import { resetBroadcasterForTests } from "~/modules/notifications/broadcaster.server";
import { useTestSettings } from "../setup/settings";

/**
 * A real realtime server in this process on a free port, with the app's settings pointed at it, and a
 * factory for real pusher-js clients whose channel auth goes through the app's own authorisation.
 */
export async function startRealtime(extraSettings: Record<string, string> = {}) {
  const server: RealtimeServer = await createRealtimeServer({ ...defaultOptions(), port: 0, shutdownSpreadMs: 0, log: () => {} });
  useTestSettings({ REALTIME_HOST: "127.0.0.1", REALTIME_PORT: String(server.port), ...extraSettings });
  resetBroadcasterForTests();
  const clients: Pusher[] = [];
  return {
    server,
    /** A pusher-js client; `authorize` decides channel auth (e.g. by calling the app's auth endpoint). */
    client(authorize: (socketId: string, channel: string) => Promise<{ status: number; body: unknown }>) {
      const pusher = new Pusher(defaultOptions().key, {
        wsHost: "127.0.0.1",
        wsPort: server.port,
        forceTLS: false,
        enabledTransports: ["ws"],
        cluster: "",
        channelAuthorization: {
          endpoint: "/unused",
          transport: "ajax",
          customHandler: ({ socketId, channelName }, callback) => {
            authorize(socketId, channelName).then(
              ({ status, body }) => (status === 200 ? callback(null, body as { auth: string }) : callback(new Error(`status ${status}`), null)),
              (error: Error) => callback(error, null),
            );
          },
        },
      });
      clients.push(pusher);
      return pusher;
    },
    async close() {
      for (const c of clients) c.disconnect();
      await server.close();
      resetBroadcasterForTests();
    },
  };
}

/** Resolves with the next `event` on `channel`, or rejects after `ms`. */
export function nextEvent(client: Pusher, channel: string, event: string, ms = 5000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const sub = client.channel(channel) ?? client.subscribe(channel);
    const timer = setTimeout(() => reject(new Error(`no ${event} on ${channel} within ${ms} ms`)), ms);
    sub.bind(event, (data: unknown) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/** Subscribes and waits until the server confirms (or refuses with the auth status). */
export function subscribed(client: Pusher, channel: string, ms = 5000): Promise<"ok" | { error: unknown }> {
  return new Promise((resolve, reject) => {
    const sub = client.subscribe(channel);
    const timer = setTimeout(() => reject(new Error(`no answer for ${channel}`)), ms);
    sub.bind("pusher:subscription_succeeded", () => {
      clearTimeout(timer);
      resolve("ok");
    });
    sub.bind("pusher:subscription_error", (error: unknown) => {
      clearTimeout(timer);
      resolve({ error });
    });
  });
}
