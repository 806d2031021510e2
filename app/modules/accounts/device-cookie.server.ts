import crypto from "node:crypto";
import { createCookie, type Cookie } from "react-router";
import { env } from "~/env.server";
import { describeWait, hitRateLimit, peekRateLimit, resetRateLimit } from "~/modules/security/rate-limit.server";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; decision 004): a successful login
 * gives the browser a signed cookie naming the accounts that logged in from it. Five wrong passwords from each of
 * ten addresses used to fill an account's window (50) and lock its owner out for 15 minutes; a browser that logged
 * in to the account before is now counted on its own (5 failures per window, per device and account) and never
 * refused by the account's windows. Unknown browsers meet the three windows as before. The same holds for the
 * login's second step and the confirmations (step-up.server.ts).
 */

const DEVICE_COOKIE_DAYS = 365;
/** Accounts remembered per browser (the most recent first). */
const MAX_ACCOUNTS = 10;

interface DeviceValue {
  /** A random id for this browser. */
  d: string;
  /** Users that logged in from it. */
  u: number[];
}

let cookie: Cookie | undefined;
function deviceCookie(): Cookie {
  cookie ??= createCookie("backline_device", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().isProduction,
    path: "/",
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
    secrets: [env().SESSION_SECRET],
  });
  return cookie;
}

export function resetDeviceCookieForTests() {
  cookie = undefined;
}

async function readDevice(request: Request): Promise<DeviceValue | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("backline_device=")) return null;
  const value = (await deviceCookie()
    .parse(header)
    .catch(() => null)) as DeviceValue | null;
  if (!value || typeof value.d !== "string" || !/^[\w-]{16,64}$/.test(value.d) || !Array.isArray(value.u)) return null;
  return { d: value.d, u: value.u.filter((id) => Number.isSafeInteger(id)).slice(0, MAX_ACCOUNTS) };
}

/** The id of this browser when `userId` has logged in from it before (its signed cookie says so), else null. */
export async function knownDevice(request: Request, userId: number): Promise<string | null> {
  const device = await readDevice(request);
  return device && device.u.includes(userId) ? device.d : null;
}

/** The Set-Cookie header that remembers this browser for `userId` (after a successful login). */
export async function rememberDevice(request: Request, userId: number): Promise<string> {
  const device = (await readDevice(request)) ?? { d: crypto.randomBytes(18).toString("base64url"), u: [] };
  return deviceCookie().serialize({ d: device.d, u: [userId, ...device.u.filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS) } satisfies DeviceValue);
}

export type AttemptOutcome = { ok: true } | { ok: false; status: 429; retryAfterSeconds: number; message: string } | { ok: false; status: 400 };

/**
 * One guarded attempt (a password, a code): refused before checking when a window is full; a failure counts in
 * every window that applies; a success clears the narrowest one. From a known device only that device's own
 * window applies; from elsewhere, per address, per account and address, and per account anywhere.
 */
export async function limitedAttempt(
  input: { prefix: string; account: string | number; ip: string; device: string | null; tooMany: (wait: string) => string },
  check: () => Promise<boolean>,
): Promise<AttemptOutcome> {
  const settings = env();
  const window = settings.LOGIN_LIMIT_WINDOW_SECONDS;
  const { prefix, account, ip, device } = input;
  const limits = device
    ? [{ key: `${prefix}:device:${device}:${account}`, limit: settings.LOGIN_LIMIT_PER_ACCOUNT }]
    : [
        { key: `${prefix}:ip:${ip}`, limit: settings.LOGIN_LIMIT_PER_IP },
        { key: `${prefix}:account-ip:${account}:${ip}`, limit: settings.LOGIN_LIMIT_PER_ACCOUNT },
        { key: `${prefix}:account:${account}`, limit: settings.LOGIN_LIMIT_PER_ACCOUNT_GLOBAL },
      ];
  const states = await Promise.all(limits.map(({ key, limit }) => peekRateLimit(key, limit, window)));
  const refused = states.filter((state) => !state.allowed);
  if (refused.length) {
    const wait = Math.max(...refused.map((state) => state.retryAfterSeconds));
    return { ok: false, status: 429, retryAfterSeconds: wait, message: input.tooMany(describeWait(wait)) };
  }
  if (!(await check())) {
    await Promise.all(limits.map(({ key, limit }) => hitRateLimit(key, limit, window)));
    return { ok: false, status: 400 };
  }
  await resetRateLimit(limits[device ? 0 : 1]!.key);
  return { ok: true };
}
