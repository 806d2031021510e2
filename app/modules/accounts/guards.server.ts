import { redirect, type RouterContextProvider } from "react-router";
import type { User } from "~/db/schema";
import { notFound } from "~/modules/http/route-errors.server";
import { loginPathFor } from "./current-user.server";
import { toLoggedUser, type LoggedUser } from "./logged-user.server";
import { sessionUserOf } from "./session-user.server";
import { PROFILE_TYPE_INFO, PROFILE_TYPES } from "~/modules/profiles/profile-types";
import { isAdminAccount } from "./roles";

export { notFound };

/**
 * The one guard pattern. Loaders and actions call these with their
 * request and context; they throw redirects or 404s, and return the user when the request may go on.
 * The user was read once for the whole request by the root middleware (session-user.server.ts), so any
 * number of loaders may guard at no cost.
 */
type Context = Readonly<RouterContextProvider>;

export function requireAgreedUser(request: Request, context: Context): { user: User; loggedUser: LoggedUser } {
  const { user, agreedToAllDocuments, postProductionJobsCount } = sessionUserOf(context);
  // Rule 5: no user -> /login with the full path (empty when the path already carries a redirect).
  if (!user) throw redirect(loginPathFor(request));
  // Rule 2: a user who has not agreed to every required document goes to /login, which lists them.
  if (!agreedToAllDocuments) throw redirect(loginPathFor(request));
  return { user, loggedUser: toLoggedUser(user, agreedToAllDocuments, postProductionJobsCount) };
}

/** Rule 3: admin routes need acct_type 2, otherwise /login (which sends a member to their own dashboard). */
export function requireAdminUser(request: Request, context: Context) {
  const result = requireAgreedUser(request, context);
  if (!isAdminAccount(result.user)) throw redirect("/login");
  return result;
}

/**
 * Rule 4 and rule 1: member routes need a user; the member id in the path is checked here, not by a
 * redirect. Admins may open any member's area; a member opening someone else's gets 404 and no data
 * (community directories and profile pages excepted: they open in the member's own area, see below).
 */
export function requireMemberAreaAccess(request: Request, context: Context, memberIdParam: string | undefined) {
  const result = requireAgreedUser(request, context);
  const memberId = parseId(memberIdParam);
  if (memberId === null || (memberId !== result.user.id && !isAdminAccount(result.user))) {
    const own = ownCommunityPath(request, result.user.id);
    if (own) throw redirect(own);
    throw notFound();
  }
  return { ...result, memberId };
}

const COMMUNITY_PAGE = new RegExp(`^/member/[^/]+(/(?:${PROFILE_TYPES.map((t) => PROFILE_TYPE_INFO[t].directory).join("|")})(?:/[^/]+)?/?)$`);

/**
 * Directories and public profile pages hold nothing private to the member in their path, and their links
 * get shared (share buttons, chat): opened from someone else's area, a page shows in the visitor's own.
 * The same path under the visitor's id, or null for any other page (those stay 404).
 */
function ownCommunityPath(request: Request, userId: number): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = new URL(request.url);
  const match = COMMUNITY_PAGE.exec(url.pathname);
  return match ? `/member/${userId}${match[1]}${url.search}` : null;
}

/** Whether this user may read or change that member's records (the same rule as the member area). */
export function canAccessMember(user: Pick<User, "id" | "acctType">, memberId: number): boolean {
  return user.id === memberId || isAdminAccount(user);
}

export function parseId(value: string | undefined | null): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
}

/** A path's id, or the area's Not Found (404) when it is not one: a malformed id is answered like a missing one. */
export function idOr404(value: string | undefined | null): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}
