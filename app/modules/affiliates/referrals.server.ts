import { and, eq, sql } from "drizzle-orm";
import { createCookie, type Cookie, type MiddlewareFunction } from "react-router";
import { db, type Db } from "~/db/client.server";
import { affiliateClicks, affiliates } from "~/db/schema";
import { env } from "~/env.server";

/**
 * Referral tracking (decision 025). A link with `?ref=CODE` (on /register or any public page)
 * records the first touch in a first-party cookie for 60 days; the click is counted per affiliate, day and
 * landing path (nothing else about the visitor is kept). The referral is bound when the visitor registers,
 * in the transaction that creates their account, and never afterwards nor to the affiliate's own owner.
 */

export const REF_COOKIE_DAYS = 60;
const REF_COOKIE_MAX_AGE = REF_COOKIE_DAYS * 24 * 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A ref code as affiliates are given them: 6 to 16 upper-case letters and digits (case ignored when read). */
export const REF_CODE_PATTERN = /^[A-Z0-9]{6,16}$/;

export function normaliseRefCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase() ?? "";
  return REF_CODE_PATTERN.test(code) ? code : null;
}

/** The cookie's content: the code and when the visitor first followed it. */
export interface RefTouch {
  code: string;
  /** ms since the epoch */
  at: number;
}

let cookie: Cookie | undefined;

/** Signed (so its first-touch time cannot be moved), HttpOnly, SameSite=Lax, for 60 days. */
export function refCookie(): Cookie {
  if (cookie) return cookie;
  const settings = env();
  cookie = createCookie("backline_ref", {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.isProduction,
    path: "/",
    maxAge: REF_COOKIE_MAX_AGE,
    secrets: [settings.SESSION_SECRET],
  });
  return cookie;
}

/** A touch still valid at `now`: well formed and at most 60 days old. */
export function validTouch(value: unknown, now = Date.now()): RefTouch | null {
  if (!value || typeof value !== "object") return null;
  const { code, at } = value as Partial<RefTouch>;
  const normalised = normaliseRefCode(typeof code === "string" ? code : null);
  if (!normalised || typeof at !== "number" || !Number.isFinite(at)) return null;
  if (at > now + 60_000 || now - at > REF_COOKIE_DAYS * DAY_MS) return null;
  return { code: normalised, at };
}

export async function readRefTouch(cookieHeader: string | null, now = Date.now()): Promise<RefTouch | null> {
  if (!cookieHeader?.includes("backline_ref=")) return null;
  return validTouch(await refCookie().parse(cookieHeader), now);
}

/** The approved affiliate with this code (unknown, pending, rejected or suspended codes are ignored). */
export async function approvedAffiliateByCode(code: string, executor: Db = db()): Promise<{ id: number; userId: number } | null> {
  const [row] = await executor
    .select({ id: affiliates.id, userId: affiliates.userId })
    .from(affiliates)
    .where(and(eq(affiliates.code, code), eq(affiliates.status, "approved")))
    .limit(1);
  return row ?? null;
}

/** Counts one click on the affiliate's link: the day and the landing path, nothing else. One statement. */
export async function countClick(affiliateId: number, path: string, now = new Date()): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await db()
    .insert(affiliateClicks)
    .values({ affiliateId, day, path: path.slice(0, 200) || "/", clicks: 1 })
    .onConflictDoUpdate({
      target: [affiliateClicks.affiliateId, affiliateClicks.day, affiliateClicks.path],
      set: { clicks: sql`${affiliateClicks.clicks} + 1` },
    });
}

/**
 * What a request with `?ref=` does: an approved affiliate's code counts a click; the cookie is set only when
 * the visitor carries no valid touch yet (the first touch wins). Answers the Set-Cookie value, or null.
 */
export async function trackReferral(input: { code: string | null; path: string; cookieHeader: string | null; now?: number }): Promise<string | null> {
  const code = normaliseRefCode(input.code);
  if (!code) return null;
  const affiliate = await approvedAffiliateByCode(code);
  if (!affiliate) return null;
  const now = input.now ?? Date.now();
  await countClick(affiliate.id, input.path, new Date(now));
  if (await readRefTouch(input.cookieHeader, now)) return null;
  return refCookie().serialize({ code, at: now } satisfies RefTouch);
}

/** Paths where a ref link never lands (the API, assets, the areas behind a login). */
const UNTRACKED = /^\/(api|assets|build|admin|member|sw|healthz|resources)(\/|$)|\.data$|\.[a-z0-9]+$/i;

/** Root middleware: a GET of a public page with `?ref=` counts the click and sets the first-touch cookie. */
export const referralMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method !== "GET") return next();
  const url = new URL(request.url);
  const ref = url.searchParams.get("ref");
  if (!ref || UNTRACKED.test(url.pathname)) return next();
  let setCookie: string | null = null;
  try {
    setCookie = await trackReferral({ code: ref, path: url.pathname, cookieHeader: request.headers.get("Cookie") });
  } catch (error) {
    // Counting a click never breaks the page.
    console.warn("referral tracking failed", error);
  }
  const response = await next();
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
};

/**
 * Binds the new member to the affiliate of their first touch (inside the transaction that creates the
 * account: the user's row must have been created by this very transaction, so a referral can never be bound
 * afterwards). Ignored when the touch is missing, expired or unknown, or names the member's own affiliate.
 * Returns the affiliate's id when bound.
 */
export async function bindReferral(tx: Db, userId: number, touch: RefTouch | null): Promise<number | null> {
  if (!touch) return null;
  const result = await tx.execute(sql`
    insert into affiliate_referrals (user_id, affiliate_id, first_touch_at)
    select u.id, f.id, to_timestamp(${touch.at / 1000})
    from users u join affiliates f on f.code = ${touch.code} and f.status = 'approved' and f.user_id <> u.id
    where u.id = ${userId} and u.created_at = now() and to_timestamp(${touch.at / 1000}) > now() - interval '${sql.raw(String(REF_COOKIE_DAYS))} days'
    on conflict (user_id) do nothing
    returning affiliate_id`);
  const row = (result as unknown as { rows: Array<{ affiliate_id: number }> }).rows[0];
  return row?.affiliate_id ?? null;
}
