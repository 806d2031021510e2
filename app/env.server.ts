import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseStorageUrl, StorageUrlError } from "~/modules/storage/storage-url";

/**
 * Every setting the server reads, validated once at boot. `.env.example` lists them all.
 * APP_ENV, not NODE_ENV, decides what "production" means: the local `npm start` runs the production
 * build but must work on a fresh clone without secrets (see docs/decisions/002-settings.md).
 */
/** An unset or blank variable both mean "not set". */
const blankAsUnset = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), inner.optional());

const optionalUrl = blankAsUnset(z.string().trim().pipe(z.url()));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  APP_ENV: z.enum(["production", "local", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: optionalUrl,
  APP_NAME: z.string().trim().min(1).default("Backline"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  /** Where stored files live (docs/decisions/033-object-storage.md): file:<folder> or s3://bucket?…; default file:./storage. */
  STORAGE_URL: blankAsUnset(
    z.string().superRefine((value, ctx) => {
      try {
        parseStorageUrl(value);
      } catch (error) {
        if (!(error instanceof StorageUrlError)) throw error;
        ctx.addIssue({ code: "custom", message: error.message });
      }
    }),
  ),
  /** The earlier setting (a folder): read only when STORAGE_URL is unset, so existing installs keep their files. */
  STORAGE_DIR: blankAsUnset(z.string().trim().min(1)),
  DATABASE_URL: optionalUrl,
  SESSION_SECRET: blankAsUnset(z.string().trim().min(32, "must be at least 32 characters")),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().trim().min(3).default("Backline <no-reply@backline.localhost>"),
  SEED_DEMO_DATA: blankAsUnset(z.enum(["true", "false"]).transform((v) => v === "true")),
  TRUST_PROXY: blankAsUnset(z.enum(["true", "false"]).transform((v) => v === "true")),
  /** Benchmarks and tests: every response says how many SQL statements it ran (X-Statement-Count). */
  STATEMENT_COUNT_HEADER: blankAsUnset(z.enum(["true", "false"]).transform((v) => v === "true")),
  ANALYTICS_PLAUSIBLE_DOMAIN: blankAsUnset(z.string().trim()),
  ANALYTICS_GA4_ID: blankAsUnset(
    z
      .string()
      .trim()
      .regex(/^G-[A-Z0-9]+$/, "must look like G-XXXXXXX"),
  ),
  ANALYTICS_ENDPOINT: z.string().trim().pipe(z.url()).default("https://plausible.io"),
  // The realtime server (ours, or any Pusher-compatible service): where the app publishes and signs.
  REALTIME_APP_ID: z.string().trim().min(1).default("backline"),
  REALTIME_KEY: z.string().trim().min(1).default("backline-key"),
  REALTIME_SECRET: blankAsUnset(z.string().trim().min(8, "must be at least 8 characters")),
  REALTIME_HOST: z.string().trim().min(1).default("127.0.0.1"),
  REALTIME_PORT: z.coerce.number().int().min(1).max(65535).default(6001),
  REALTIME_SCHEME: z.enum(["http", "https"]).default("http"),
  /** Where browsers connect, when it differs (e.g. wss://ws.example.com behind a proxy). */
  REALTIME_CLIENT_URL: optionalUrl,
  /** `npm start` also runs the realtime server (off when a hosted service is used). */
  REALTIME_SERVER: blankAsUnset(z.enum(["true", "false"]).transform((v) => v === "true")),
  LOGIN_LIMIT_PER_IP: positiveInt(30),
  LOGIN_LIMIT_PER_ACCOUNT: positiveInt(5),
  /** Failures for one account from every address together: far above the per-address limit. */
  LOGIN_LIMIT_PER_ACCOUNT_GLOBAL: positiveInt(50),
  LOGIN_LIMIT_WINDOW_SECONDS: positiveInt(15 * 60),
  /** AES-256-GCM key for payout bank details (decision 018); generated in DATA_DIR outside production. */
  PAYOUT_ENCRYPTION_KEY: blankAsUnset(
    z
      .string()
      .trim()
      .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=?)$/, "must be 64 hex characters (32 bytes)"),
  ),
  /** Stripe Connect Express payouts: without the secret key the Stripe method is hidden. */
  STRIPE_SECRET_KEY: blankAsUnset(
    z
      .string()
      .trim()
      .regex(/^(?:sk|rk)_[A-Za-z0-9_]+$/, "must be a Stripe secret key (sk_... or rk_...)"),
  ),
  /** Signs the webhooks Stripe sends to POST /api/stripe/webhooks (whsec_...); without it they are refused. */
  STRIPE_WEBHOOK_SECRET: blankAsUnset(z.string().trim().min(8, "must be the endpoint's signing secret (whsec_...)")),
  /** Where the SDK sends its requests (protocol, host and port only); unset means api.stripe.com. Tests point it at a stand-in. */
  STRIPE_API_BASE: optionalUrl,
});

export type Env = Omit<z.infer<typeof schema>, "STORAGE_DIR" | "STORAGE_URL"> & {
  APP_URL: string;
  STORAGE_URL: string;
  /** Until every module reads files through app/modules/storage: the folder of a file: STORAGE_URL. */
  STORAGE_DIR: string;
  SESSION_SECRET: string;
  REALTIME_SECRET: string;
  REALTIME_SERVER: boolean;
  SEED_DEMO_DATA: boolean;
  isProduction: boolean;
};

let cached: Env | undefined;

/** Reads and validates the environment; throws one readable message listing every bad value. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings:\n${lines.join("\n")}\nSee .env.example.`);
  }
  const { STORAGE_DIR, ...raw } = parsed.data;
  const isProduction = raw.APP_ENV === "production";
  const missing = [
    !raw.SESSION_SECRET && "  SESSION_SECRET: required when APP_ENV=production (at least 32 characters).",
    !raw.REALTIME_SECRET && "  REALTIME_SECRET: required when APP_ENV=production (at least 8 characters).",
  ].filter(Boolean);
  if (isProduction && missing.length) {
    throw new Error(`Invalid settings:\n${missing.join("\n")}\nSee .env.example.`);
  }
  return {
    ...raw,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    STORAGE_URL: raw.STORAGE_URL ?? `file:${STORAGE_DIR ?? "./storage"}`,
    STORAGE_DIR: STORAGE_DIR ?? "./storage",
    SESSION_SECRET: raw.SESSION_SECRET ?? localSecret(raw.DATA_DIR),
    SEED_DEMO_DATA: raw.SEED_DEMO_DATA ?? !isProduction,
    // The realtime server's own development default (realtime/src/config.ts DEV_DEFAULTS).
    REALTIME_SECRET: raw.REALTIME_SECRET ?? "backline-dev-secret-change-me",
    REALTIME_SERVER: raw.REALTIME_SERVER ?? true,
    isProduction,
  };
}

/** Outside production a secret is generated once and kept in DATA_DIR so sessions survive restarts. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export function env(): Env {
  cached ??= loadEnv();
  return cached;
}

/** Tests swap settings between cases. */
export function resetEnvForTests(next?: Env) {
  cached = next;
}
