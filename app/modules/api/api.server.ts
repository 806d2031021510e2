import type { User } from "~/db/schema";
import type { RouterContextProvider } from "react-router";
import { canAccessMember, parseId } from "~/modules/accounts/guards.server";
import { toLoggedUser, type LoggedUser } from "~/modules/accounts/logged-user.server";
import { sessionUserOf } from "~/modules/accounts/session-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { LEGAL_AGREEMENT_REQUIRED } from "~/modules/legal/legal-gate";

export { LEGAL_AGREEMENT_REQUIRED };

/**
 * The JSON API's one error pattern: `{ message }` with the status, thrown from loaders and actions.
 * (The browser's fetch interceptor reads `errors` for 'Invalid signature.', so both are set.)
 */
export function apiError(status: number, message: string): Response {
  return Response.json({ message, errors: message }, { status });
}

export const UNAUTHENTICATED = "Unauthenticated.";

type Context = Readonly<RouterContextProvider>;

/**
 * The API's guard (in the same order as the pages' requireAgreedUser): no signed-in user
 * answers 401 JSON (rule 5), a user who has not agreed to every required legal document 403 JSON (rule 2).
 * Both come from the request's session lookup (root middleware): no statement of its own.
 */
export function requireApiLoggedUser(context: Context): { user: User; loggedUser: LoggedUser } {
  const { user, agreedToAllDocuments, postProductionJobsCount } = sessionUserOf(context);
  if (!user) throw apiError(401, UNAUTHENTICATED);
  if (!agreedToAllDocuments) throw apiError(403, LEGAL_AGREEMENT_REQUIRED);
  return { user, loggedUser: toLoggedUser(user, agreedToAllDocuments, postProductionJobsCount) };
}

/** Session-cookie auth for /api: 401 JSON instead of a redirect, 403 JSON until the legal documents are agreed. */
export function requireApiUser(context: Context): User {
  return requireApiLoggedUser(context).user;
}

export function requireApiAdmin(context: Context): User {
  const user = requireApiUser(context);
  if (!isAdminAccount(user)) throw apiError(403, "This action is unauthorized.");
  return user;
}

/** A member id from the path that the user may reach; someone else's answers 404, as if it did not exist. */
export function requireApiMember(context: Context, idParam: string | undefined) {
  const { user, loggedUser } = requireApiLoggedUser(context);
  const memberId = parseId(idParam);
  if (memberId === null || !canAccessMember(user, memberId)) throw apiError(404, "Not found.");
  return { user, loggedUser, memberId };
}
