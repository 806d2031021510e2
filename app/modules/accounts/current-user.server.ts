import { redirect } from "react-router";
import type { User } from "~/db/schema";
import { findUserById } from "./accounts.server";
import { redirectTarget } from "~/modules/security/redirect-target";
import { getSession } from "./session.server";

const cache = new WeakMap<Request, Promise<User | null>>();

/** The logged-in user of this request, read once per request however many loaders ask. */
export function getOptionalUser(request: Request): Promise<User | null> {
  let pending = cache.get(request);
  if (!pending) {
    pending = (async () => {
      const session = await getSession(request);
      const userId = session.get("userId");
      if (!userId) return null;
      const user = await findUserById(userId);
      return user?.activatedAt && !user.suspendedAt ? user : null;
    })();
    cache.set(request, pending);
  }
  return pending;
}

/** Sends a visitor without a session to /login, remembering where they were going (spec section 5, rule 5). */
export async function requireUser(request: Request): Promise<User> {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(loginPathFor(request));
  return user;
}

/** `/login?redirect=<full path with query>`; the value is empty when the path already carries a redirect. */
export function loginPathFor(request: Request): string {
  const url = new URL(request.url);
  const target = url.searchParams.has("redirect") ? "" : `${url.pathname}${url.search}`;
  return `/login?${new URLSearchParams({ redirect: target }).toString()}`;
}

export function fullName(user: Pick<User, "name" | "lastName">): string {
  return `${user.name} ${user.lastName}`.trim();
}

export function dashboardPath(user: Pick<User, "id" | "acctType">): string {
  return user.acctType === 2 ? "/admin/dashboard" : `/member/${user.id}/dashboard`;
}

/** Where to go after login: a same-origin path (see redirectTarget), never back to /login or /logout. */
export function afterLoginTarget(value: unknown, fallback: string): string {
  const target = redirectTarget(value, fallback);
  const pathname = target.split(/[?#]/, 1)[0];
  return pathname === "/login" || pathname === "/logout" ? fallback : target;
}
