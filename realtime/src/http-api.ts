/**
 * The Pusher HTTP API (what the `pusher` server SDK calls): signed requests under /apps/{app_id}/.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RealtimeOptions } from "./config";
import {
  MAX_BATCH_SIZE,
  MAX_CHANNELS_PER_PUBLISH,
  MAX_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  MAX_TIMESTAMP_SKEW_SECONDS,
  SERVER_TO_USER_PREFIX,
  byteLength,
  channelKind,
  hmacHex,
  isValidChannelName,
  isValidPublishChannel,
  isValidSocketId,
  md5Hex,
  safeEqual,
} from "./protocol";

/** Largest request body: a full batch (10 x 10 KB of data plus names) fits well below it. */
const MAX_BODY_BYTES = 256 * 1024;

export interface ApiBackend {
  readonly options: RealtimeOptions;
  publish(channels: string[], event: string, data: string, exceptSocketId?: string): Promise<void>;
  subscriptionCount(channel: string): Promise<number>;
  occupiedChannels(): Promise<Map<string, number>>;
  presenceUserCount(channel: string): Promise<number>;
  presenceMembers(channel: string): Promise<Map<string, string>>;
  terminateUser(userId: string): Promise<void>;
  health(): Record<string, unknown>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(new HttpError(413, "Request body too large"));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, "Request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw new HttpError(400, "Malformed query string");
  }
}

/** Query parameters with lower-cased keys and decoded values, in their order of appearance. */
export function parseQuery(raw: string): Map<string, string> {
  const params = new Map<string, string>();
  if (!raw) return params;
  for (const part of raw.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const k = decode(eq < 0 ? part : part.slice(0, eq)).toLowerCase();
    const v = eq < 0 ? "" : decode(part.slice(eq + 1));
    params.set(k, v);
  }
  return params;
}

/** The string a request signature covers: `METHOD\npath\nk=v&...` sorted by key, auth_signature left out. */
export function stringToSign(method: string, path: string, params: Map<string, string>): string {
  const query = [...params.entries()]
    .filter(([k]) => k !== "auth_signature")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  return `${method.toUpperCase()}\n${path}\n${query}`;
}

/** Throws 401 unless the request carries a valid, fresh signature for this app. */
export function verifyRequest(
  opts: Pick<RealtimeOptions, "key" | "secret">,
  method: string,
  path: string,
  params: Map<string, string>,
  body: string,
  nowSeconds = Date.now() / 1000,
): void {
  if (params.get("auth_key") !== opts.key) throw new HttpError(401, "Unknown auth_key");
  if (params.get("auth_version") !== "1.0") throw new HttpError(401, "auth_version must be 1.0");
  const ts = Number(params.get("auth_timestamp"));
  if (!params.get("auth_timestamp") || !Number.isFinite(ts)) throw new HttpError(401, "Missing auth_timestamp");
  if (Math.abs(nowSeconds - ts) > MAX_TIMESTAMP_SKEW_SECONDS) {
    throw new HttpError(401, `Timestamp expired: more than ${MAX_TIMESTAMP_SKEW_SECONDS} s from server time`);
  }
  if (body.length > 0) {
    const md5 = params.get("body_md5");
    if (!md5 || !safeEqual(md5.toLowerCase(), md5Hex(body))) throw new HttpError(401, "body_md5 does not match the body");
  }
  const signature = params.get("auth_signature") ?? "";
  const expected = hmacHex(opts.secret, stringToSign(method, path, params));
  if (!safeEqual(signature.toLowerCase(), expected)) throw new HttpError(401, "Invalid signature");
}

function parseJson(body: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(body);
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, "Body must be a JSON object");
}

function infoAttributes(raw: unknown): Set<string> {
  if (raw === undefined || raw === null || raw === "") return new Set();
  if (typeof raw !== "string") throw new HttpError(400, "info must be a comma-separated string");
  const attrs = new Set(
    raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const a of attrs) {
    if (a !== "user_count" && a !== "subscription_count") throw new HttpError(400, `Unknown info attribute: ${a}`);
  }
  return attrs;
}

interface EventInput {
  name: string;
  data: string;
  channels: string[];
  socketId?: string;
  info: Set<string>;
}

function validateEvent(e: Record<string, unknown>, single: boolean): EventInput {
  const name = e.name;
  if (typeof name !== "string" || name.length === 0) throw new HttpError(400, "name is required");
  if (name.length > MAX_EVENT_NAME_LENGTH) throw new HttpError(400, `name longer than ${MAX_EVENT_NAME_LENGTH} characters`);
  // Protocol events are the server's own: publishing them could fake members or subscriptions.
  if (name.startsWith("pusher:") || name.startsWith("pusher_internal:")) throw new HttpError(400, "Reserved event name");
  if (e.data === undefined) throw new HttpError(400, "data is required");
  const data = typeof e.data === "string" ? e.data : JSON.stringify(e.data);
  let channels: string[];
  if (single) {
    if (typeof e.channel !== "string") throw new HttpError(400, "channel is required");
    channels = [e.channel];
  } else if (Array.isArray(e.channels)) {
    channels = e.channels as string[];
  } else if (typeof e.channel === "string") {
    channels = [e.channel];
  } else {
    throw new HttpError(400, "channels is required");
  }
  if (channels.length === 0) throw new HttpError(400, "channels is empty");
  if (channels.length > MAX_CHANNELS_PER_PUBLISH) {
    throw new HttpError(400, `At most ${MAX_CHANNELS_PER_PUBLISH} channels per event`);
  }
  for (const c of channels) {
    if (!isValidPublishChannel(c)) throw new HttpError(400, `Invalid channel name: ${String(c).slice(0, 200)}`);
  }
  if (channels.length > 1 && channels.some((c) => channelKind(c) === "private-encrypted")) {
    throw new HttpError(400, "An encrypted channel cannot be published to together with other channels");
  }
  if (new Set(channels).size !== channels.length) channels = [...new Set(channels)];
  if (byteLength(data) > MAX_DATA_BYTES) throw new HttpError(413, `data larger than ${MAX_DATA_BYTES} bytes`);
  let socketId: string | undefined;
  if (e.socket_id !== undefined && e.socket_id !== null && e.socket_id !== "") {
    if (!isValidSocketId(e.socket_id)) throw new HttpError(400, "Invalid socket_id");
    socketId = e.socket_id;
  }
  // user_count is reported for presence channels only; other channels simply leave it out.
  const info = infoAttributes(e.info);
  return { name, data, channels, socketId, info };
}

async function channelAttributes(backend: ApiBackend, channel: string, info: Set<string>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (info.has("user_count") && channelKind(channel) === "presence") {
    out.user_count = await backend.presenceUserCount(channel);
  }
  if (info.has("subscription_count")) out.subscription_count = await backend.subscriptionCount(channel);
  return out;
}

function channelFromPath(segment: string): string {
  const name = decode(segment);
  if (!isValidChannelName(name)) throw new HttpError(400, "Invalid channel name");
  return name;
}

/** Handles one HTTP request; answers 404 for paths it does not know. */
export async function handleHttp(backend: ApiBackend, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const rawQuery = q < 0 ? "" : url.slice(q + 1);
  const method = (req.method ?? "GET").toUpperCase();
  try {
    if (path === "/" || path === "/up") {
      send(res, 200, backend.health());
      return;
    }
    const m = /^\/apps\/([^/]+)(\/.*)$/.exec(path);
    if (!m) throw new HttpError(404, "Not found");
    if (decode(m[1]) !== backend.options.appId) throw new HttpError(404, "Unknown app");
    const rest = m[2].split("/").slice(1);
    const body = method === "POST" || method === "PUT" ? await readBody(req) : "";
    const params = parseQuery(rawQuery);
    // Route first, so an unknown path is 404 whatever its signature.
    const route = matchRoute(method, rest);
    verifyRequest(backend.options, method, path, params, body);
    const result = await route(backend, params, body);
    send(res, 200, result);
  } catch (err) {
    if (err instanceof HttpError) {
      send(res, err.status, { error: err.message });
    } else {
      backend.options.log(`http ${method} ${path}: ${(err as Error).stack ?? String(err)}`);
      send(res, 500, { error: "Internal error" });
    }
  }
}

type Route = (backend: ApiBackend, params: Map<string, string>, body: string) => Promise<unknown>;

function matchRoute(method: string, seg: string[]): Route {
  const only = (m: string, r: Route): Route => {
    if (method !== m) throw new HttpError(405, "Method not allowed");
    return r;
  };
  if (seg.length === 1 && seg[0] === "events") return only("POST", postEvents);
  if (seg.length === 1 && seg[0] === "batch_events") return only("POST", postBatch);
  if (seg.length === 1 && seg[0] === "channels") return only("GET", getChannels);
  if (seg.length === 2 && seg[0] === "channels") {
    const name = channelFromPath(seg[1]);
    return only("GET", (b, p) => getChannel(b, p, name));
  }
  if (seg.length === 3 && seg[0] === "channels" && seg[2] === "users") {
    const name = channelFromPath(seg[1]);
    return only("GET", (b) => getUsers(b, name));
  }
  if (seg.length === 3 && seg[0] === "users" && seg[2] === "terminate_connections") {
    const userId = decode(seg[1]);
    if (!userId) throw new HttpError(400, "Invalid user id");
    return only("POST", async (b) => {
      await b.terminateUser(userId);
      return {};
    });
  }
  throw new HttpError(404, "Not found");
}

async function postEvents(backend: ApiBackend, _params: Map<string, string>, body: string): Promise<unknown> {
  const ev = validateEvent(parseJson(body), false);
  await backend.publish(ev.channels, ev.name, ev.data, ev.socketId);
  if (ev.info.size === 0) return {};
  const channels: Record<string, Record<string, number>> = {};
  for (const c of ev.channels) channels[c] = await channelAttributes(backend, c, ev.info);
  return { channels };
}

async function postBatch(backend: ApiBackend, _params: Map<string, string>, body: string): Promise<unknown> {
  const batch = parseJson(body).batch;
  if (!Array.isArray(batch) || batch.length === 0) throw new HttpError(400, "batch must be a non-empty array");
  if (batch.length > MAX_BATCH_SIZE) throw new HttpError(400, `At most ${MAX_BATCH_SIZE} events per batch`);
  const events = batch.map((e: unknown) => {
    if (!e || typeof e !== "object") throw new HttpError(400, "Each batch entry must be an object");
    return validateEvent(e as Record<string, unknown>, true);
  });
  for (const ev of events) await backend.publish(ev.channels, ev.name, ev.data, ev.socketId);
  if (events.every((ev) => ev.info.size === 0)) return {};
  const out: Record<string, number>[] = [];
  for (const ev of events) out.push(await channelAttributes(backend, ev.channels[0], ev.info));
  return { batch: out };
}

async function getChannels(backend: ApiBackend, params: Map<string, string>): Promise<unknown> {
  const prefix = params.get("filter_by_prefix") ?? "";
  const info = infoAttributes(params.get("info"));
  if (info.has("subscription_count")) throw new HttpError(400, "info=subscription_count is not allowed here");
  if (info.has("user_count") && !prefix.startsWith("presence-")) {
    throw new HttpError(400, "info=user_count requires filter_by_prefix=presence-");
  }
  const occupied = await backend.occupiedChannels();
  const channels: Record<string, Record<string, number>> = {};
  for (const name of occupied.keys()) {
    if (name.startsWith(SERVER_TO_USER_PREFIX) || !name.startsWith(prefix)) continue;
    channels[name] = info.has("user_count") ? { user_count: await backend.presenceUserCount(name) } : {};
  }
  return { channels };
}

async function getChannel(backend: ApiBackend, params: Map<string, string>, name: string): Promise<unknown> {
  const info = infoAttributes(params.get("info"));
  const presence = channelKind(name) === "presence";
  if (info.has("user_count") && !presence) throw new HttpError(400, "user_count is only available on presence channels");
  const subscriptions = await backend.subscriptionCount(name);
  const out: Record<string, unknown> = { occupied: subscriptions > 0 };
  if (info.has("user_count")) out.user_count = await backend.presenceUserCount(name);
  if (info.has("subscription_count")) out.subscription_count = subscriptions;
  return out;
}

async function getUsers(backend: ApiBackend, name: string): Promise<unknown> {
  if (channelKind(name) !== "presence") throw new HttpError(400, "Users are only available on presence channels");
  const members = await backend.presenceMembers(name);
  return { users: [...members.keys()].map((id) => ({ id })) };
}
