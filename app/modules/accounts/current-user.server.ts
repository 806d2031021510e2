import type { RouterContextProvider } from "react-router";
import type { User } from "~/db/schema";
import { redirectTarget } from "~/modules/security/redirect-target";
import { sessionUserOf } from "./session-user.server";

/** The logged-in user of this request, as the root middleware read it (one statement per request). */
export function getOptionalUser(context: Readonly<RouterContextProvider>): User | null {
  return sessionUserOf(context).user;
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
