/**
 * The realtime node: a WebSocket endpoint speaking Pusher Channels protocol 7 at /app/{key} and the
 * Pusher HTTP API at /apps/{app_id}/..., on one HTTP server.
 */
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import type { RawData } from "ws";
import { MemoryAdapter } from "./adapter";
import type { Adapter, BusMessage, LocalPresenceEntry } from "./adapter";
import { defaultOptions, validateOptions } from "./config";
import type { RealtimeOptions } from "./config";
import { handleHttp } from "./http-api";
import type { ApiBackend } from "./http-api";
import {
  Codes,
  MAX_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  MAX_PRESENCE_MEMBERS,
  MAX_USER_INFO_BYTES,
  SERVER_TO_USER_PREFIX,
  byteLength,
  channelAuthString,
  channelKind,
  errorFrame,
  frame,
  isValidChannelName,
  isValidPublishChannel,
  newSocketId,
  subscriptionErrorFrame,
  verifyAuth,
} from "./protocol";
import { RedisAdapter } from "./redis-adapter";

export interface RealtimeServer {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  readonly host: string;
  /** http://host:port */
  readonly url: string;
  readonly nodeId: string;
  readonly options: Readonly<RealtimeOptions>;
  /** Open WebSocket connections on this node. */
  connectionCount(): number;
  /**
   * Graceful shutdown: stops accepting, closes every connection with 4100 (reconnect after >= 1 s),
   * spread over `spreadMs` (default: options.shutdownSpreadMs), removes this node's presence and leaves
   * the cluster.
   */
  close(opts?: { spreadMs?: number }): Promise<void>;
  /** Tests only: stops abruptly, leaving shared state behind as a crashed process would. */
  crash(): Promise<void>;
}

interface Buffered {
  data: Buffer;
  seq?: number;
}

interface Subscription {
  conn: Connection;
  channel: string;
  /** Until subscription_succeeded is sent, deliveries wait in `buffer`. */
  pending: boolean;
  buffer: Buffered[];
  /** Member events with a sequence at or below this are already in the snapshot the client got. */
  seq: number;
  presence?: { userId: string; userInfo: string };
}

class Connection {
  readonly subs = new Map<string, Subscription>();
  lastActivity = Date.now();
  pingSentAt = 0;
  userId: string | null = null;
  closed = false;
  /** Times of the last client events, a ring of `clientEventsPerSecond` entries (made on first use). */
  private eventTimes: number[] | null = null;
  private eventIdx = 0;

  constructor(
    readonly id: string,
    readonly ws: WebSocket,
    private readonly node: RealtimeNode,
    /** The client's address as the per-address limits count it (null when exempt). */
    readonly address: string | null = null,
  ) {}

  send(data: string | Buffer): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.node.options.maxBufferedBytes) {
      this.close(Codes.OVER_CAPACITY, "Slow consumer: too much unsent data");
      return;
    }
    this.ws.send(data, { binary: false });
  }

  /** Sliding window: at most N client events in any 1000 ms. */
  allowClientEvent(now: number): boolean {
    this.eventTimes ??= new Array<number>(this.node.options.clientEventsPerSecond).fill(-Infinity);
    if (this.eventTimes.length === 0) return false;
    if (now - this.eventTimes[this.eventIdx] < 1000) return false;
    this.eventTimes[this.eventIdx] = now;
    this.eventIdx = (this.eventIdx + 1) % this.eventTimes.length;
    return true;
  }

  /** Closes with a Pusher code; state is released at once, whatever the peer does. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(errorFrame(code, reason));
      this.ws.close(code, reason);
    }
    this.node.release(this);
  }
}

function parseData(raw: unknown): Record<string, unknown> | null {
  let v = raw;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

class RealtimeNode implements ApiBackend {
  readonly conns = new Set<Connection>();
  readonly channels = new Map<string, Set<Subscription>>();
  readonly wss: WebSocketServer;
  readonly http: http.Server;
  closing = false;
  private pruneTimer?: NodeJS.Timeout;
  private readonly pendingOps = new Set<Promise<unknown>>();
  private tokens: number;
  private tokensAt = Date.now();
  /** Per client address: open connections and the new-connection token bucket (decision 009). */
  private readonly addresses = new Map<string, { open: number; tokens: number; at: number }>();
  private readonly exempt: net.BlockList;

  constructor(
    readonly options: RealtimeOptions,
    readonly adapter: Adapter,
  ) {
    this.tokens = options.maxConnectsPerSecond;
    this.exempt = new net.BlockList();
    for (const entry of options.exemptAddresses) {
      const [address, bits] = entry.split("/");
      const family = net.isIPv6(address!) ? "ipv6" : "ipv4";
      if (bits === undefined) this.exempt.addAddress(address!, family);
      else this.exempt.addSubnet(address!, Number(bits), family);
    }
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.http = http.createServer((req, res) => {
      void handleHttp(this, req, res);
    });
    this.http.on("upgrade", (req, socket, head) => this.onUpgrade(req, socket, head));
    this.http.on("clientError", (_err, socket) => socket.destroy());
  }

  get log(): (line: string) => void {
    return this.options.log;
  }

  async start(): Promise<void> {
    await this.adapter.start({
      onMessage: (msg) => this.onBusMessage(msg),
      localState: () => this.localState(),
      log: this.log,
    });
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off("error", reject);
        resolve();
      });
    });
    this.pruneTimer = setInterval(() => this.prune(), this.options.pruneIntervalMs);
    this.pruneTimer.unref();
  }

  // ---------------------------------------------------------------- connections

  private onUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? "/", "http://localhost");
    const m = /^\/app\/([^/]+)$/.exec(url.pathname);
    if (!m || this.closing) {
      socket.end(`HTTP/1.1 ${this.closing ? "503 Service Unavailable" : "404 Not Found"}\r\nConnection: close\r\n\r\n`);
      return;
    }
    const address = this.limitedAddress(req);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, decodeURIComponent(m[1]), url, address));
  }

  /**
   * The key the per-address limits count under: the client's address (behind a trusted proxy, the last one it
   * added to X-Forwarded-For), an IPv6 client's /64 (one client holds a whole /64), or null when exempt.
   */
  private limitedAddress(req: http.IncomingMessage): string | null {
    let address = req.socket.remoteAddress ?? "";
    if (this.options.trustProxy) {
      const forwarded = String(req.headers["x-forwarded-for"] ?? "")
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1);
      if (forwarded && net.isIP(forwarded)) address = forwarded;
    }
    if (address.startsWith("::ffff:") && net.isIPv4(address.slice(7))) address = address.slice(7);
    const family = net.isIPv6(address) ? "ipv6" : net.isIPv4(address) ? "ipv4" : null;
    if (!family) return "unknown";
    if (this.exempt.check(address, family)) return null;
    return family === "ipv6" ? ipv6Prefix64(address) : address;
  }

  /** Whether `address` may open one more connection now; counts it when so. */
  private admitAddress(address: string | null): "ok" | "open" | "rate" {
    if (address === null) return "ok";
    const { maxConnectionsPerAddress: maxOpen, maxConnectsPerSecondPerAddress: rate } = this.options;
    const now = Date.now();
    let use = this.addresses.get(address);
    if (!use) {
      use = { open: 0, tokens: rate, at: now };
      this.addresses.set(address, use);
    }
    if (maxOpen > 0 && use.open >= maxOpen) return "open";
    if (rate > 0) {
      use.tokens = Math.min(rate, use.tokens + ((now - use.at) / 1000) * rate);
      use.at = now;
      if (use.tokens < 1) return "rate";
      use.tokens -= 1;
    }
    use.open += 1;
    return "ok";
  }

  private takeConnectToken(): boolean {
    const rate = this.options.maxConnectsPerSecond;
    if (rate <= 0) return true;
    const now = Date.now();
    this.tokens = Math.min(rate, this.tokens + ((now - this.tokensAt) / 1000) * rate);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private onConnection(ws: WebSocket, key: string, url: URL, address: string | null = null): void {
    const refuse = (code: number, message: string) => {
      ws.send(errorFrame(code, message));
      ws.close(code, message);
    };
    ws.on("error", () => {});
    if (key !== this.options.key) return refuse(Codes.APP_NOT_FOUND, "Application does not exist");
    const protocol = Number(url.searchParams.get("protocol"));
    if (!Number.isInteger(protocol) || protocol < 5 || protocol > 7) {
      return refuse(Codes.UNSUPPORTED_PROTOCOL, "Unsupported protocol version");
    }
    if (this.closing) return refuse(Codes.OVER_CAPACITY, "Server shutting down; reconnect after 1 s");
    if (this.options.maxConnections > 0 && this.conns.size >= this.options.maxConnections) {
      return refuse(Codes.OVER_CAPACITY, "Over capacity; reconnect after 1 s");
    }
    const admitted = this.admitAddress(address);
    if (admitted === "open") return refuse(Codes.OVER_QUOTA, `Over connection quota: at most ${this.options.maxConnectionsPerAddress} connections per address`);
    if (admitted === "rate")
      return refuse(Codes.OVER_QUOTA, `Over connection quota: at most ${this.options.maxConnectsPerSecondPerAddress} new connections a second per address`);
    if (!this.takeConnectToken()) {
      this.leaveAddress(address);
      return refuse(Codes.OVER_CAPACITY, "Too many new connections; reconnect after 1 s");
    }

    const conn = new Connection(newSocketId(), ws, this, address);
    this.conns.add(conn);
    ws.on("message", (data) => this.onMessage(conn, data));
    ws.on("pong", () => this.touch(conn));
    ws.on("ping", () => this.touch(conn));
    ws.on("close", () => this.release(conn));
    conn.send(
      frame("pusher:connection_established", {
        socket_id: conn.id,
        activity_timeout: this.options.activityTimeout,
      }),
    );
  }

  private touch(conn: Connection): void {
    conn.lastActivity = Date.now();
    conn.pingSentAt = 0;
  }

  /** Releases a connection's subscriptions (presence leaves included). Idempotent. */
  release(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    this.conns.delete(conn);
    this.leaveAddress(conn.address);
    for (const sub of [...conn.subs.values()]) this.removeSubscription(sub);
  }

  private leaveAddress(address: string | null): void {
    if (address === null) return;
    const use = this.addresses.get(address);
    if (use) use.open = Math.max(0, use.open - 1);
  }

  /** Pings silent connections; closes with 4201 those that did not answer in time. */
  private prune(): void {
    const now = Date.now();
    // An address with nothing open and a full bucket again is forgotten (the map never grows with past clients).
    for (const [address, use] of this.addresses) if (use.open === 0 && now - use.at >= 1000) this.addresses.delete(address);
    for (const conn of this.conns) {
      if (conn.pingSentAt) {
        if (now - conn.pingSentAt > this.options.pongTimeoutMs) conn.close(Codes.PONG_NOT_RECEIVED, "Pong reply not received");
      } else if (now - conn.lastActivity > this.options.idleTimeoutMs) {
        conn.pingSentAt = now;
        conn.send(frame("pusher:ping", {}));
        if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
      }
    }
  }

  private onMessage(conn: Connection, raw: RawData): void {
    this.touch(conn);
    if (conn.closed) return;
    let msg: Record<string, unknown>;
    try {
      const text = Buffer.isBuffer(raw) ? raw.toString("utf8") : Array.isArray(raw) ? Buffer.concat(raw).toString("utf8") : Buffer.from(raw).toString("utf8");
      const v: unknown = JSON.parse(text);
      if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
      msg = v as Record<string, unknown>;
    } catch {
      conn.send(errorFrame(null, "Invalid message: expected a JSON object"));
      return;
    }
    const event = msg.event;
    if (typeof event !== "string") {
      conn.send(errorFrame(null, "Invalid message: missing event"));
      return;
    }
    switch (event) {
      case "pusher:ping":
        conn.send(frame("pusher:pong", {}));
        return;
      case "pusher:pong":
        return;
      case "pusher:subscribe":
        this.track(this.subscribe(conn, parseData(msg.data)));
        return;
      case "pusher:unsubscribe": {
        const channel = parseData(msg.data)?.channel;
        const sub = typeof channel === "string" ? conn.subs.get(channel) : undefined;
        if (sub) this.removeSubscription(sub);
        return;
      }
      case "pusher:signin":
        this.signin(conn, parseData(msg.data));
        return;
      default:
        if (event.startsWith("client-")) {
          this.clientEvent(conn, event, msg);
        } else {
          conn.send(errorFrame(null, `Unsupported event: ${event.slice(0, MAX_EVENT_NAME_LENGTH)}`));
        }
    }
  }

  private track(p: Promise<unknown>): void {
    const guarded = p.catch((err: Error) => this.log(`error: ${err.stack ?? err.message}`));
    this.pendingOps.add(guarded);
    void guarded.finally(() => this.pendingOps.delete(guarded));
  }

  // ---------------------------------------------------------------- subscriptions

  private async subscribe(conn: Connection, data: Record<string, unknown> | null): Promise<void> {
    const channel = data?.channel;
    const fail = (status: number, type: string, error: string) =>
      conn.send(subscriptionErrorFrame(typeof channel === "string" ? channel : "", status, type, error));

    if (typeof channel === "string" && channel.startsWith("#")) {
      // The only reserved name a client may ask for is its own user channel, after pusher:signin.
      if (conn.userId !== null && channel === SERVER_TO_USER_PREFIX + conn.userId) {
        conn.send(frame("pusher_internal:subscription_succeeded", {}, channel));
      } else {
        fail(403, "ReservedChannel", "Channel names starting with # are reserved");
      }
      return;
    }
    if (!isValidChannelName(channel)) {
      return fail(400, "InvalidChannel", "Invalid channel name: use A-Z a-z 0-9 _ - = @ , . ; and at most 164 characters");
    }
    const existing = conn.subs.get(channel);
    if (existing && !existing.pending) {
      // Subscribing twice is harmless: confirm again.
      if (!existing.presence) conn.send(frame("pusher_internal:subscription_succeeded", {}, channel));
      else conn.send(frame("pusher_internal:subscription_succeeded", presenceData(await this.adapter.presenceMembers(channel)), channel));
      return;
    }
    if (existing) return; // already on its way

    const kind = channelKind(channel);
    let presence: Subscription["presence"];
    if (kind === "private" || kind === "private-encrypted") {
      if (!verifyAuth(data?.auth, this.options.key, this.options.secret, channelAuthString(conn.id, channel))) {
        return fail(401, "AuthError", "Invalid signature: the auth does not match this socket and channel");
      }
    } else if (kind === "presence") {
      const channelData = data?.channel_data;
      if (typeof channelData !== "string") return fail(400, "AuthError", "channel_data is required on presence channels");
      if (!verifyAuth(data?.auth, this.options.key, this.options.secret, channelAuthString(conn.id, channel, channelData))) {
        return fail(401, "AuthError", "Invalid signature: the auth does not match this socket, channel and channel_data");
      }
      const parsed = parseData(channelData);
      const rawId = parsed?.user_id;
      const userId = typeof rawId === "number" && Number.isFinite(rawId) ? String(rawId) : rawId;
      if (typeof userId !== "string" || userId === "") return fail(400, "AuthError", "channel_data.user_id is required");
      const userInfo = JSON.stringify(parsed?.user_info ?? {});
      if (byteLength(userInfo) > MAX_USER_INFO_BYTES) {
        return fail(413, "LimitReached", `user_info larger than ${MAX_USER_INFO_BYTES} bytes`);
      }
      presence = { userId, userInfo };
    }

    const sub: Subscription = { conn, channel, pending: true, buffer: [], seq: 0, presence };
    this.addSubscription(sub);
    let succeeded: unknown = {};
    try {
      const counted = this.adapter.setLocalCount(channel, this.channels.get(channel)?.size ?? 0);
      if (presence) {
        const joined = await this.adapter.presenceJoin(channel, conn.id, presence.userId, presence.userInfo, MAX_PRESENCE_MEMBERS);
        if (conn.subs.get(channel) !== sub) return; // unsubscribed or disconnected meanwhile (its leave is queued)
        if (!joined.ok) {
          this.removeSubscription(sub);
          return fail(403, "LimitReached", `Presence channel is full (${MAX_PRESENCE_MEMBERS} members)`);
        }
        sub.seq = joined.seq;
        succeeded = presenceData(joined.members);
      }
      await counted;
    } catch (err) {
      this.log(`subscribe ${channel} failed: ${(err as Error).message}`);
      if (conn.subs.get(channel) === sub) this.removeSubscription(sub);
      return fail(503, "ServiceUnavailable", "Subscription could not be recorded; try again");
    }
    if (conn.subs.get(channel) !== sub) return;
    conn.send(frame("pusher_internal:subscription_succeeded", succeeded, channel));
    sub.pending = false;
    const buffered = sub.buffer;
    sub.buffer = [];
    for (const b of buffered) {
      if (b.seq !== undefined && b.seq <= sub.seq) continue;
      conn.send(b.data);
    }
  }

  private addSubscription(sub: Subscription): void {
    sub.conn.subs.set(sub.channel, sub);
    let set = this.channels.get(sub.channel);
    if (!set) {
      set = new Set();
      this.channels.set(sub.channel, set);
    }
    set.add(sub);
  }

  private removeSubscription(sub: Subscription): void {
    if (sub.conn.subs.get(sub.channel) === sub) sub.conn.subs.delete(sub.channel);
    const set = this.channels.get(sub.channel);
    if (!set?.delete(sub)) return;
    if (set.size === 0) this.channels.delete(sub.channel);
    this.track(this.adapter.setLocalCount(sub.channel, set.size));
    if (sub.presence) this.track(this.adapter.presenceLeave(sub.channel, sub.conn.id));
  }

  private localState(): { counts: Map<string, number>; presence: LocalPresenceEntry[] } {
    const counts = new Map<string, number>();
    const presence: LocalPresenceEntry[] = [];
    for (const [channel, set] of this.channels) {
      counts.set(channel, set.size);
      for (const sub of set) {
        if (sub.presence) presence.push({ channel, socketId: sub.conn.id, ...sub.presence });
      }
    }
    return { counts, presence };
  }

  // ---------------------------------------------------------------- user sign-in

  private signin(conn: Connection, data: Record<string, unknown> | null): void {
    const userData = data?.user_data;
    const refuse = (why: string) => conn.close(Codes.UNAUTHORIZED, `Sign-in refused: ${why}`);
    if (typeof userData !== "string") return refuse("user_data is required");
    if (!verifyAuth(data?.auth, this.options.key, this.options.secret, `${conn.id}::user::${userData}`)) {
      return refuse("invalid signature");
    }
    const id = parseData(userData)?.id;
    if (typeof id !== "string" || !isValidPublishChannel(SERVER_TO_USER_PREFIX + id)) {
      return refuse("user_data.id must be a non-empty string of channel-name characters");
    }
    if (conn.userId !== null && conn.userId !== id) {
      const old = conn.subs.get(SERVER_TO_USER_PREFIX + conn.userId);
      if (old) this.removeSubscription(old);
    }
    conn.userId = id;
    const channel = SERVER_TO_USER_PREFIX + id;
    if (!conn.subs.has(channel)) {
      const sub: Subscription = { conn, channel, pending: false, buffer: [], seq: 0 };
      this.addSubscription(sub);
      this.track(this.adapter.setLocalCount(channel, this.channels.get(channel)?.size ?? 0));
    }
    conn.send(frame("pusher:signin_success", { user_data: userData }));
  }

  // ---------------------------------------------------------------- client events

  private clientEvent(conn: Connection, event: string, msg: Record<string, unknown>): void {
    const channel = msg.channel;
    const reject = (code: number | null, message: string) => conn.send(errorFrame(code, message));
    if (!conn.allowClientEvent(Date.now())) {
      return reject(Codes.CLIENT_EVENT_RATE_LIMITED, `Client event rejected: more than ${this.options.clientEventsPerSecond} per second`);
    }
    if (typeof channel !== "string") return reject(null, "Client event rejected: channel is required");
    const kind = channelKind(channel);
    if (kind !== "private" && kind !== "presence") {
      return reject(null, "Client event rejected: only private and presence channels accept client events");
    }
    const sub = conn.subs.get(channel);
    if (!sub || sub.pending) return reject(null, `Client event rejected: not subscribed to ${channel}`);
    if (event.length > MAX_EVENT_NAME_LENGTH) return reject(null, "Client event rejected: event name too long");
    const data = msg.data === undefined ? "{}" : typeof msg.data === "string" ? msg.data : JSON.stringify(msg.data);
    if (byteLength(data) > MAX_DATA_BYTES) return reject(null, `Client event rejected: data larger than ${MAX_DATA_BYTES} bytes`);
    this.track(this.publishWith([channel], event, data, conn.id, sub.presence?.userId));
  }

  // ---------------------------------------------------------------- delivery

  /** Delivers locally and sends to the other nodes. */
  private async publishWith(channels: string[], event: string, data: string, except?: string, userId?: string): Promise<void> {
    this.deliverEvent(channels, event, data, except, userId);
    if (this.adapter.clustered) {
      await this.adapter.broadcast({ t: "e", o: this.adapter.nodeId, cs: channels, e: event, d: data, x: except, u: userId });
    }
  }

  private deliverEvent(channels: string[], event: string, data: string, except?: string, userId?: string): void {
    for (const channel of channels) {
      if (!this.channels.has(channel)) continue;
      this.deliver(channel, Buffer.from(frame(event, data, channel, userId)), except);
    }
  }

  private deliver(channel: string, payload: Buffer, except?: string, seq?: number): void {
    const set = this.channels.get(channel);
    if (!set) return;
    for (const sub of set) {
      if (except !== undefined && sub.conn.id === except) continue;
      if (sub.pending) {
        sub.buffer.push({ data: payload, seq });
        continue;
      }
      if (seq !== undefined && seq <= sub.seq) continue;
      sub.conn.send(payload);
    }
  }

  private onBusMessage(msg: BusMessage): void {
    switch (msg.t) {
      case "e":
        this.deliverEvent(msg.cs, msg.e, msg.d, msg.x, msg.u);
        return;
      case "ma":
        this.deliver(msg.c, Buffer.from(frame("pusher_internal:member_added", { user_id: msg.u, user_info: msg.i }, msg.c)), msg.x, msg.s);
        return;
      case "mr":
        this.deliver(msg.c, Buffer.from(frame("pusher_internal:member_removed", { user_id: msg.u }, msg.c)), undefined, msg.s);
        return;
      case "term":
        this.terminateLocal(msg.u);
        return;
    }
  }

  private terminateLocal(userId: string): void {
    for (const conn of [...this.conns]) {
      let match = conn.userId === userId;
      if (!match) {
        for (const sub of conn.subs.values()) {
          if (sub.presence?.userId === userId) {
            match = true;
            break;
          }
        }
      }
      if (match) conn.close(Codes.UNAUTHORIZED, "Connections of this user were terminated");
    }
  }

  // ---------------------------------------------------------------- ApiBackend

  publish(channels: string[], event: string, data: string, exceptSocketId?: string): Promise<void> {
    return this.publishWith(channels, event, data, exceptSocketId);
  }

  subscriptionCount(channel: string): Promise<number> {
    return this.adapter.subscriptionCount(channel);
  }

  occupiedChannels(): Promise<Map<string, number>> {
    return this.adapter.occupiedChannels();
  }

  presenceUserCount(channel: string): Promise<number> {
    return this.adapter.presenceUserCount(channel);
  }

  presenceMembers(channel: string): Promise<Map<string, string>> {
    return this.adapter.presenceMembers(channel);
  }

  async terminateUser(userId: string): Promise<void> {
    this.terminateLocal(userId);
    if (this.adapter.clustered) await this.adapter.broadcast({ t: "term", o: this.adapter.nodeId, u: userId });
  }

  health(): Record<string, unknown> {
    return { status: this.closing ? "closing" : "ok", node: this.adapter.nodeId, connections: this.conns.size };
  }

  // ---------------------------------------------------------------- shutdown

  async close(spreadMs: number): Promise<void> {
    this.closing = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    const listening = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeIdleConnections();
    const conns = [...this.conns];
    const ticks = Math.max(1, Math.min(conns.length, Math.floor(spreadMs / 50)));
    const perTick = Math.ceil(conns.length / ticks);
    for (let i = 0; i < conns.length; i += perTick) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      for (const conn of conns.slice(i, i + perTick)) {
        conn.close(Codes.OVER_CAPACITY, "Server shutting down; reconnect after 1 s");
      }
    }
    // Presence leaves and count updates must reach the shared store before the node leaves the cluster.
    while (this.pendingOps.size) await Promise.allSettled([...this.pendingOps]);
    await this.adapter.stop();
    await waitForClose(
      conns.map((c) => c.ws),
      1000,
    );
    this.http.closeAllConnections();
    await listening;
  }

  async crash(): Promise<void> {
    this.closing = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.adapter instanceof RedisAdapter) this.adapter.crash();
    for (const conn of this.conns) {
      conn.closed = true;
      conn.ws.terminate();
    }
    this.conns.clear();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

function presenceData(members: Map<string, string>): unknown {
  const hash: Record<string, unknown> = {};
  for (const [id, info] of members) hash[id] = JSON.parse(info);
  return { presence: { ids: [...members.keys()], hash, count: members.size } };
}

/** Waits for sockets to finish their close handshake; terminates those still open after `ms`. */
async function waitForClose(sockets: WebSocket[], ms: number): Promise<void> {
  const open = sockets.filter((ws) => ws.readyState !== WebSocket.CLOSED);
  if (!open.length) return;
  await Promise.race([
    Promise.all(open.map((ws) => new Promise<void>((r) => (ws.readyState === WebSocket.CLOSED ? r() : ws.once("close", () => r()))))),
    new Promise((r) => setTimeout(r, ms).unref()),
  ]);
  for (const ws of open) if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
}

export function newNodeId(): string {
  return `${
    os
      .hostname()
      .replace(/[^A-Za-z0-9_-]/g, "")
      .slice(0, 20) || "node"
  }-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
}

/** Starts one realtime node. Options not given take their defaults (see config.ts), not the environment. */
export async function createRealtimeServer(overrides: Partial<RealtimeOptions> = {}): Promise<RealtimeServer> {
  const options: RealtimeOptions = { ...defaultOptions(), ...overrides };
  validateOptions(options);
  const nodeId = newNodeId();
  const adapter: Adapter = options.redisUrl
    ? new RedisAdapter({
        url: options.redisUrl,
        prefix: options.redisPrefix,
        appId: options.appId,
        nodeId,
        nodeTtlMs: options.nodeTtlMs,
        heartbeatIntervalMs: options.heartbeatIntervalMs,
      })
    : new MemoryAdapter(nodeId);
  const node = new RealtimeNode(options, adapter);
  await node.start();
  const address = node.http.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    port: address.port,
    host: options.host,
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${address.port}`,
    nodeId,
    options,
    connectionCount: () => node.conns.size,
    close: (opts) => (closing ??= node.close(opts?.spreadMs ?? options.shutdownSpreadMs)),
    crash: () => (closing ??= node.crash()),
  };
}

/** The first 64 bits of an IPv6 address, written out ("2001:db8:0:1::/64"): one client's usual allocation. */
function ipv6Prefix64(address: string): string {
  const [head = "", tail = ""] = address.split("%")[0]!.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}
