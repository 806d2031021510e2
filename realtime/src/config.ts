/**
 * Settings of the realtime server, read from the environment and validated once.
 * Every key has a safe local default except the secret in production.
 */
import net from "node:net";
import { z } from "zod";

/** "127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8". */
export function isAddressOrSubnet(entry: string): boolean {
  const [address, bits, extra] = entry.split("/");
  if (extra !== undefined || !address || !net.isIP(address)) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= (net.isIPv6(address) ? 128 : 32);
}

/** An unset or blank variable both mean "not set". */
const blankAsUnset = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), inner.optional());

const idChars = /^[A-Za-z0-9_\-.]+$/;

const schema = z.object({
  APP_ENV: blankAsUnset(z.enum(["production", "local", "test"])),
  REALTIME_APP_ID: blankAsUnset(z.string().trim().regex(idChars, "letters, digits, _ - . only")),
  REALTIME_KEY: blankAsUnset(z.string().trim().regex(idChars, "letters, digits, _ - . only")),
  REALTIME_SECRET: blankAsUnset(z.string().trim().min(8, "must be at least 8 characters")),
  REALTIME_HOST: blankAsUnset(z.string().trim().min(1)),
  REALTIME_PORT: blankAsUnset(z.coerce.number().int().min(0).max(65535)),
  REDIS_URL: blankAsUnset(
    z
      .string()
      .trim()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL"),
  ),
  REALTIME_REDIS_PREFIX: blankAsUnset(z.string().trim().min(1)),
  REALTIME_ENCRYPTION_MASTER_KEY: blankAsUnset(
    z
      .string()
      .trim()
      .refine((v) => Buffer.from(v, "base64").length === 32, "must be base64 of exactly 32 bytes"),
  ),
  REALTIME_MAX_CONNECTIONS: blankAsUnset(z.coerce.number().int().min(0)),
  REALTIME_MAX_CONNECTS_PER_SECOND: blankAsUnset(z.coerce.number().int().min(0)),
  REALTIME_MAX_CONNECTIONS_PER_ADDRESS: blankAsUnset(z.coerce.number().int().min(0)),
  REALTIME_MAX_CONNECTS_PER_SECOND_PER_ADDRESS: blankAsUnset(z.coerce.number().int().min(0)),
  REALTIME_LIMIT_EXEMPT_ADDRESSES: blankAsUnset(
    z
      .string()
      .trim()
      .transform((v) =>
        v
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((entries) => entries.every(isAddressOrSubnet), "must be addresses or subnets (127.0.0.1, 10.0.0.0/8, ::1), comma-separated"),
  ),
  REALTIME_TRUST_PROXY: blankAsUnset(z.enum(["true", "false"]).transform((v) => v === "true")),
  REALTIME_NODE_TTL_MS: blankAsUnset(z.coerce.number().int().min(200)),
  REALTIME_HEARTBEAT_MS: blankAsUnset(z.coerce.number().int().min(50)),
  REALTIME_SHUTDOWN_SPREAD_MS: blankAsUnset(z.coerce.number().int().min(0)),
});

export interface RealtimeOptions {
  appId: string;
  key: string;
  secret: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Enables scale-out through Redis pub/sub when set. */
  redisUrl?: string;
  /** Prefix of every Redis key and of the pub/sub channel; nodes of one cluster share it. */
  redisPrefix: string;
  /** Not used by the server (it only relays ciphertext); exposed for the app's auth endpoint. */
  encryptionMasterKey?: Buffer;
  /** activity_timeout announced in the handshake, in seconds. */
  activityTimeout: number;
  /** Silence after which the server pings a connection (ms). */
  idleTimeoutMs: number;
  /** Time a pinged connection has to answer before it is closed with 4201 (ms). */
  pongTimeoutMs: number;
  /** How often silent connections are looked for (ms). */
  pruneIntervalMs: number;
  /** 0 = unlimited. Over it new connections are closed with 4100 (over capacity, back off). */
  maxConnections: number;
  /** Token bucket for new connections per second (burst = the same number); 0 = unlimited. */
  maxConnectsPerSecond: number;
  /**
   * Open connections per client address (an IPv6 client's /64), on this node; 0 = unlimited. Over it, and over
   * `maxConnectsPerSecondPerAddress`, a new connection is closed with 4004 (over quota: pusher-js does not retry).
   */
  maxConnectionsPerAddress: number;
  /** Token bucket for one address's new connections per second (burst = the same number); 0 = unlimited. */
  maxConnectsPerSecondPerAddress: number;
  /** Addresses or subnets the per-address limits do not apply to (a load generator, a trusted gateway). */
  exemptAddresses: string[];
  /** Behind a proxy: the client's address is the last one the proxy added to X-Forwarded-For. */
  trustProxy: boolean;
  /** Client events allowed per connection per second (over it: error 4301). */
  clientEventsPerSecond: number;
  /** A connection whose unsent bytes exceed this is closed (slow consumer), in bytes. */
  maxBufferedBytes: number;
  /** Largest incoming WebSocket message, in bytes. */
  maxMessageBytes: number;
  /** Redis scale-out: a node whose heartbeat is older than this is dead and its members are removed. */
  nodeTtlMs: number;
  heartbeatIntervalMs: number;
  /** On close(), connections are closed in batches spread over this many ms. */
  shutdownSpreadMs: number;
  /** Log lines go here (default: console.log with a prefix). Pass () => {} to silence. */
  log: (line: string) => void;
}

export const DEV_DEFAULTS = {
  appId: "backline",
  key: "backline-key",
  secret: "backline-dev-secret-change-me",
} as const;

export function defaultOptions(): RealtimeOptions {
  return {
    appId: DEV_DEFAULTS.appId,
    key: DEV_DEFAULTS.key,
    secret: DEV_DEFAULTS.secret,
    host: "127.0.0.1",
    port: 6001,
    redisPrefix: "realtime:",
    activityTimeout: 120,
    idleTimeoutMs: 120_000,
    pongTimeoutMs: 30_000,
    pruneIntervalMs: 5_000,
    maxConnections: 0,
    maxConnectsPerSecond: 0,
    // On by default: one anonymous client used to open thousands (decision 009).
    maxConnectionsPerAddress: 100,
    maxConnectsPerSecondPerAddress: 20,
    exemptAddresses: [],
    trustProxy: false,
    clientEventsPerSecond: 10,
    maxBufferedBytes: 4 * 1024 * 1024,
    maxMessageBytes: 64 * 1024,
    nodeTtlMs: 15_000,
    heartbeatIntervalMs: 5_000,
    shutdownSpreadMs: 2_000,
    log: (line) => console.log(`[realtime] ${line}`),
  };
}

/** Reads the environment; throws one readable message listing every bad value. */
export function loadRealtimeConfig(source: NodeJS.ProcessEnv = process.env): RealtimeOptions {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid realtime settings:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  // Same rule as the app's settings: APP_ENV (unset means production) decides, not NODE_ENV.
  if ((env.APP_ENV ?? "production") === "production" && !env.REALTIME_SECRET) {
    throw new Error("Invalid realtime settings:\n  REALTIME_SECRET: required when APP_ENV=production (set APP_ENV=local for the dev default).");
  }
  const base = defaultOptions();
  const opts: RealtimeOptions = {
    ...base,
    appId: env.REALTIME_APP_ID ?? base.appId,
    key: env.REALTIME_KEY ?? base.key,
    secret: env.REALTIME_SECRET ?? base.secret,
    host: env.REALTIME_HOST ?? base.host,
    port: env.REALTIME_PORT ?? base.port,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REALTIME_REDIS_PREFIX ?? base.redisPrefix,
    encryptionMasterKey: env.REALTIME_ENCRYPTION_MASTER_KEY ? Buffer.from(env.REALTIME_ENCRYPTION_MASTER_KEY, "base64") : undefined,
    maxConnections: env.REALTIME_MAX_CONNECTIONS ?? base.maxConnections,
    maxConnectsPerSecond: env.REALTIME_MAX_CONNECTS_PER_SECOND ?? base.maxConnectsPerSecond,
    maxConnectionsPerAddress: env.REALTIME_MAX_CONNECTIONS_PER_ADDRESS ?? base.maxConnectionsPerAddress,
    maxConnectsPerSecondPerAddress: env.REALTIME_MAX_CONNECTS_PER_SECOND_PER_ADDRESS ?? base.maxConnectsPerSecondPerAddress,
    exemptAddresses: env.REALTIME_LIMIT_EXEMPT_ADDRESSES ?? base.exemptAddresses,
    trustProxy: env.REALTIME_TRUST_PROXY ?? base.trustProxy,
    nodeTtlMs: env.REALTIME_NODE_TTL_MS ?? base.nodeTtlMs,
    heartbeatIntervalMs: env.REALTIME_HEARTBEAT_MS ?? base.heartbeatIntervalMs,
    shutdownSpreadMs: env.REALTIME_SHUTDOWN_SPREAD_MS ?? base.shutdownSpreadMs,
  };
  validateOptions(opts);
  return opts;
}

/** Checks the combinations a schema cannot see. */
export function validateOptions(o: RealtimeOptions): void {
  const problems: string[] = [];
  if (o.heartbeatIntervalMs * 2 > o.nodeTtlMs) {
    problems.push("heartbeat interval must be at most half the node TTL (REALTIME_HEARTBEAT_MS, REALTIME_NODE_TTL_MS)");
  }
  if (o.activityTimeout <= 0) problems.push("activityTimeout must be positive");
  if (!o.secret) problems.push("secret must be set");
  const badExempt = o.exemptAddresses.filter((entry) => !isAddressOrSubnet(entry));
  if (badExempt.length) problems.push(`exempt addresses must be addresses or subnets: ${badExempt.join(", ")}`);
  if (problems.length) throw new Error(`Invalid realtime settings:\n  ${problems.join("\n  ")}`);
}
