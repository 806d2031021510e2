import Pusher from "pusher";
import { env, type Env } from "~/env.server";

/**
 * Publishes events to the realtime server over the Pusher HTTP API (the `pusher` SDK), so any
 * Pusher-compatible service can replace ours by configuration. Channel names here are the wire
 * names (with the `private-` prefix that Echo adds on the client).
 */
export const MEMBER_EVENT = "member.notifications";
export const ADMIN_EVENT = "admin.notifications";
export const ADMIN_CHANNEL = "private-admin-notifications";
export const memberChannel = (userId: number) => `private-member-notifications.${userId}`;

let client: Pusher | undefined;

export function pusherClient(settings: Env = env()): Pusher {
  client ??= new Pusher({
    appId: settings.REALTIME_APP_ID,
    key: settings.REALTIME_KEY,
    secret: settings.REALTIME_SECRET,
    host: settings.REALTIME_HOST,
    port: String(settings.REALTIME_PORT),
    useTLS: settings.REALTIME_SCHEME === "https",
  });
  return client;
}

export function resetBroadcasterForTests() {
  client = undefined;
}

/** The socket id a request came from (Echo's X-Socket-Id), so the sender's own socket is skipped. */
export function socketIdOf(request: Request | undefined): string | undefined {
  const value = request?.headers.get("x-socket-id") ?? undefined;
  return value && /^\d+\.\d+$/.test(value) ? value : undefined;
}

/**
 * Sends one event to many channels (100 per call, the protocol's limit). Realtime is best effort:
 * a failure is logged and never fails the request that caused it; the data is already stored.
 */
export async function publish(channels: string[], event: string, data: Record<string, unknown>, options: { socketId?: string } = {}): Promise<void> {
  const pusher = pusherClient();
  for (let i = 0; i < channels.length; i += 100) {
    const batch = channels.slice(i, i + 100);
    try {
      await pusher.trigger(batch, event, data, options.socketId ? { socket_id: options.socketId } : undefined);
    } catch (error) {
      console.error(JSON.stringify({ level: "warn", message: "realtime publish failed", event, channels: batch.length, error: String(error) }));
    }
  }
}
