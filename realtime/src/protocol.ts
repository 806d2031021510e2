/**
 * Pusher Channels protocol 7: names, signatures, close codes and frames.
 * Written from the public protocol description (see /work/shared/REALTIME.md); no code is taken
 * from other servers.
 */
import crypto from "node:crypto";

/** Close and error codes the clients act on (pusher-js maps the ranges to refuse / back off / retry). */
export const Codes = {
  /** 4000-4099: the client must not reconnect. */
  APP_NOT_FOUND: 4001,
  APP_DISABLED: 4003,
  OVER_QUOTA: 4004,
  PATH_NOT_FOUND: 4005,
  UNSUPPORTED_PROTOCOL: 4007,
  UNAUTHORIZED: 4009,
  /** 4100-4199: reconnect after at least 1 s. */
  OVER_CAPACITY: 4100,
  /** 4200-4299: reconnect at once. */
  GENERIC_RECONNECT: 4200,
  PONG_NOT_RECEIVED: 4201,
  INACTIVE: 4202,
  /** 4300-4399: other errors (the connection stays open). */
  CLIENT_EVENT_RATE_LIMITED: 4301,
} as const;

export const MAX_CHANNEL_NAME_LENGTH = 164;
export const MAX_EVENT_NAME_LENGTH = 200;
export const MAX_DATA_BYTES = 10 * 1024;
export const MAX_CHANNELS_PER_PUBLISH = 100;
export const MAX_BATCH_SIZE = 10;
export const MAX_PRESENCE_MEMBERS = 100;
export const MAX_USER_INFO_BYTES = 1024;
export const MAX_TIMESTAMP_SKEW_SECONDS = 600;

const NAME_CHARS = /^[A-Za-z0-9_\-=@,.;]+$/;
export const SERVER_TO_USER_PREFIX = "#server-to-user-";
const SOCKET_ID = /^\d+\.\d+$/;

export type ChannelKind = "public" | "private" | "private-encrypted" | "presence" | "server-to-user";

export function channelKind(name: string): ChannelKind {
  if (name.startsWith("private-encrypted-")) return "private-encrypted";
  if (name.startsWith("private-")) return "private";
  if (name.startsWith("presence-")) return "presence";
  if (name.startsWith(SERVER_TO_USER_PREFIX)) return "server-to-user";
  return "public";
}

/** A name a client may subscribe to (reserved `#` names are checked separately). */
export function isValidChannelName(name: unknown): name is string {
  return typeof name === "string" && name.length > 0 && name.length <= MAX_CHANNEL_NAME_LENGTH && NAME_CHARS.test(name);
}

/** A name the HTTP API may publish to: a client-subscribable name, or `#server-to-user-{id}`. */
export function isValidPublishChannel(name: unknown): name is string {
  if (typeof name !== "string" || name.length > MAX_CHANNEL_NAME_LENGTH) return false;
  if (name.startsWith(SERVER_TO_USER_PREFIX)) {
    return isValidChannelName(name.slice(SERVER_TO_USER_PREFIX.length));
  }
  return isValidChannelName(name);
}

export function isValidSocketId(id: unknown): id is string {
  return typeof id === "string" && SOCKET_ID.test(id);
}

/** `{digits}.{digits}`, unique across nodes with overwhelming probability (62 random bits). */
export function newSocketId(): string {
  return `${crypto.randomInt(1, 2 ** 31)}.${crypto.randomInt(1, 2 ** 31)}`;
}

export function hmacHex(secret: string, data: string): string {
  return crypto.createHmac("sha256", secret).update(data, "utf8").digest("hex");
}

export function md5Hex(data: string | Buffer): string {
  return crypto.createHash("md5").update(data).digest("hex");
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** The string a channel auth signs: `socket_id:channel[:channel_data]`. */
export function channelAuthString(socketId: string, channel: string, channelData?: string): string {
  return channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
}

/** `{key}:{hex hmac}` for a private, encrypted or presence channel (what an auth endpoint answers). */
export function signChannel(key: string, secret: string, socketId: string, channel: string, channelData?: string): string {
  return `${key}:${hmacHex(secret, channelAuthString(socketId, channel, channelData))}`;
}

/** `{key}:{hex hmac}` for user sign-in over `socket_id::user::user_data`. */
export function signUser(key: string, secret: string, socketId: string, userData: string): string {
  return `${key}:${hmacHex(secret, `${socketId}::user::${userData}`)}`;
}

/** Checks an `auth` field against the expected signature, in constant time. */
export function verifyAuth(auth: unknown, key: string, secret: string, signed: string): boolean {
  if (typeof auth !== "string") return false;
  const colon = auth.indexOf(":");
  if (colon < 0 || auth.slice(0, colon) !== key) return false;
  return safeEqual(auth.slice(colon + 1), hmacHex(secret, signed));
}

/** base64(SHA-256(channel name ‖ 32-byte master key)): the shared secret of a `private-encrypted-` channel. */
export function encryptedChannelSharedSecret(channel: string, masterKey: Buffer): string {
  return crypto
    .createHash("sha256")
    .update(Buffer.concat([Buffer.from(channel, "utf8"), masterKey]))
    .digest("base64");
}

/** One outgoing frame. `data` strings are sent as they are; objects are JSON-encoded into a string. */
export function frame(event: string, data?: unknown, channel?: string, userId?: string): string {
  const out: Record<string, unknown> = { event };
  if (channel !== undefined) out.channel = channel;
  if (data !== undefined) out.data = typeof data === "string" ? data : JSON.stringify(data);
  if (userId !== undefined) out.user_id = userId;
  return JSON.stringify(out);
}

/** `pusher:error` carries its data as an object, as the hosted service does. */
export function errorFrame(code: number | null, message: string): string {
  return JSON.stringify({ event: "pusher:error", data: { code, message } });
}

export function subscriptionErrorFrame(channel: string, status: number, type: string, error: string): string {
  return frame("pusher:subscription_error", { type, error, status }, channel);
}

export function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}
