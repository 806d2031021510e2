/**
 * Test helpers: nodes on free ports, the real pusher-js client with custom auth handlers that sign with
 * the documented HMAC (written here independently of the server's code), the real `pusher` SDK, and a raw
 * WebSocket client for exact protocol checks. Everything waits on events, never on sleeps.
 */
import crypto from "node:crypto";
import Pusher from "pusher-js";
import type { Channel, Options } from "pusher-js";
import PusherServer from "pusher";
import WebSocket from "ws";
import { createRealtimeServer } from "../src/server";
import type { RealtimeServer } from "../src/server";
import type { RealtimeOptions } from "../src/config";

export const APP = { appId: "test-app", key: "test-key", secret: "test-secret-0123456789" } as const;
export const MASTER_KEY = crypto.randomBytes(32);

/** `{key}:hex(HMAC-SHA256(secret, string))`, as REALTIME.md documents it. */
export function sign(str: string, key: string = APP.key, secret: string = APP.secret): string {
  return `${key}:${crypto.createHmac("sha256", secret).update(str).digest("hex")}`;
}

export function sharedSecret(channel: string): string {
  return crypto
    .createHash("sha256")
    .update(Buffer.concat([Buffer.from(channel), MASTER_KEY]))
    .digest("base64");
}

const cleanups: Array<() => Promise<void> | void> = [];

/** Runs every registered cleanup, newest first (clients before the servers they talk to). */
export async function cleanup(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    await fn();
  }
}

export async function startNode(overrides: Partial<RealtimeOptions> = {}): Promise<RealtimeServer> {
  const server = await createRealtimeServer({
    ...APP,
    host: "127.0.0.1",
    port: 0,
    shutdownSpreadMs: 0,
    log: () => {},
    ...overrides,
  });
  cleanups.push(() => server.close());
  return server;
}

export function sdk(server: RealtimeServer, extra: Partial<{ secret: string; key: string }> = {}): PusherServer {
  return new PusherServer({
    appId: APP.appId,
    key: extra.key ?? APP.key,
    secret: extra.secret ?? APP.secret,
    host: "127.0.0.1",
    port: String(server.port),
    useTLS: false,
    encryptionMasterKeyBase64: MASTER_KEY.toString("base64"),
  });
}

export interface ClientIdentity {
  userId?: string;
  userInfo?: Record<string, unknown>;
  /** Makes the auth handler sign with a wrong secret. */
  badAuth?: boolean;
}

/** The pusher-js options our tests (and the Echo test) use to reach a node. */
export function pusherOptions(server: RealtimeServer, who: ClientIdentity = {}): Options {
  const secret = who.badAuth ? "not-the-secret" : APP.secret;
  return {
    cluster: "",
    wsHost: "127.0.0.1",
    wsPort: server.port,
    forceTLS: false,
    enabledTransports: ["ws"],
    disableStats: true,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }, callback) => {
        if (channelName.startsWith("presence-")) {
          const channelData = JSON.stringify({ user_id: who.userId ?? "anon", user_info: who.userInfo ?? {} });
          callback(null, { auth: sign(`${socketId}:${channelName}:${channelData}`, APP.key, secret), channel_data: channelData });
        } else if (channelName.startsWith("private-encrypted-")) {
          callback(null, { auth: sign(`${socketId}:${channelName}`, APP.key, secret), shared_secret: sharedSecret(channelName) });
        } else {
          callback(null, { auth: sign(`${socketId}:${channelName}`, APP.key, secret) });
        }
      },
    },
    userAuthentication: {
      customHandler: ({ socketId }, callback) => {
        const userData = JSON.stringify({ id: who.userId ?? "anon", user_info: who.userInfo ?? {} });
        callback(null, { auth: sign(`${socketId}::user::${userData}`, APP.key, secret), user_data: userData });
      },
    },
  };
}

export function client(server: RealtimeServer, who: ClientIdentity = {}): Pusher {
  const p = new Pusher(APP.key, pusherOptions(server, who));
  cleanups.push(() => p.disconnect());
  return p;
}

export function connected(p: Pusher): Promise<string> {
  return new Promise((resolve) => {
    if (p.connection.state === "connected") return resolve(p.connection.socket_id);
    p.connection.bind("connected", () => resolve(p.connection.socket_id));
  });
}

/** Resolves with the first `event` on the target (a channel, user facade or connection). */
export function once<T = unknown>(target: { bind(event: string, cb: (data: T) => void): unknown }, event: string): Promise<T> {
  return new Promise((resolve) => {
    let done = false;
    target.bind(event, (data: T) => {
      if (!done) {
        done = true;
        resolve(data);
      }
    });
  });
}

/** Collects every `event` on a channel, in order; `next()` waits for the next unread one. */
export function collect<T = unknown>(channel: Channel | { bind(e: string, cb: (d: T) => void): unknown }, event: string) {
  const seen: T[] = [];
  const waiters: Array<(v: T) => void> = [];
  let read = 0;
  channel.bind(event, (data: T) => {
    seen.push(data);
    const w = waiters.shift();
    if (w) {
      read++;
      w(data);
    }
  });
  return {
    seen,
    next(): Promise<T> {
      if (read < seen.length) return Promise.resolve(seen[read++]);
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

export async function subscribed(p: Pusher, name: string): Promise<Channel> {
  const ch = p.subscribe(name);
  await once(ch, "pusher:subscription_succeeded");
  return ch;
}

export interface Frame {
  event: string;
  channel?: string;
  data?: any;
  user_id?: string;
}

/** A bare protocol client: every frame is queued; `next(pred)` returns the first matching unread one. */
export class RawClient {
  readonly ws: WebSocket;
  socketId = "";
  private readonly frames: Frame[] = [];
  private readonly waiters: Array<{ pred: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(url: string, wsOptions: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(url, wsOptions);
    this.ws.on("error", () => {});
    this.ws.on("message", (raw) => {
      const msg = JSON.parse(raw.toString()) as Frame;
      if (typeof msg.data === "string") {
        try {
          msg.data = JSON.parse(msg.data);
        } catch {
          // plain string data stays as it is
        }
      }
      const i = this.waiters.findIndex((w) => w.pred(msg));
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(msg);
      else this.frames.push(msg);
    });
    this.closed = new Promise((resolve) => this.ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(server: RealtimeServer, opts: { key?: string; query?: string; ws?: WebSocket.ClientOptions } = {}): Promise<RawClient> {
    const url = `ws://127.0.0.1:${server.port}/app/${opts.key ?? APP.key}?${opts.query ?? "protocol=7&client=js&version=8.6.0&flash=false"}`;
    const c = new RawClient(url, opts.ws);
    cleanups.push(() => c.close());
    if (!opts.key && !opts.query) {
      const hello = await c.next((f) => f.event === "pusher:connection_established");
      c.socketId = hello.data.socket_id;
    }
    return c;
  }

  next(pred: (f: Frame) => boolean = () => true): Promise<Frame> {
    const i = this.frames.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  /** The next frame with this event (and channel, when given). */
  nextEvent(event: string, channel?: string): Promise<Frame> {
    return this.next((f) => f.event === event && (channel === undefined || f.channel === channel));
  }

  /** Frames received and not yet read. */
  unread(): Frame[] {
    return [...this.frames];
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  async subscribe(channel: string, extra: { auth?: string; channel_data?: string } = {}): Promise<Frame> {
    this.send({ event: "pusher:subscribe", data: { channel, ...extra } });
    return this.next((f) => f.channel === channel && (f.event === "pusher_internal:subscription_succeeded" || f.event === "pusher:subscription_error"));
  }

  subscribePrivate(channel: string): Promise<Frame> {
    return this.subscribe(channel, { auth: sign(`${this.socketId}:${channel}`) });
  }

  subscribePresence(channel: string, userId: string, userInfo: unknown = {}): Promise<Frame> {
    const channelData = JSON.stringify({ user_id: userId, user_info: userInfo });
    return this.subscribe(channel, { auth: sign(`${this.socketId}:${channel}:${channelData}`), channel_data: channelData });
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    this.ws.terminate();
    return this.closed.then(() => {});
  }
}
