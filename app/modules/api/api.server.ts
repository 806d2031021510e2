import type { User } from "~/db/schema";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { canAccessMember, parseId } from "~/modules/accounts/guards.server";
import { loadLoggedUser, type LoggedUser } from "~/modules/accounts/logged-user.server";
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

type ApiUserCheck = { user: User; loggedUser: LoggedUser } | { status: 401 | 403; message: string };
const apiUsers = new WeakMap<Request, Promise<ApiUserCheck>>();

/**
 * The API's guard (spec section 5 in the same order as the pages' requireAgreedUser): no signed-in user
 * answers 401 JSON (rule 5), a user who has not agreed to every required legal document 403 JSON (rule 2).
 * The user-load is the one the logged-user endpoint returns, so its `agreed_to_all_documents` is the check;
 * it runs once per request however many callers ask.
 */
export async function requireApiLoggedUser(request: Request): Promise<{ user: User; loggedUser: LoggedUser }> {
  let pending = apiUsers.get(request);
  if (!pending) {
    pending = checkApiUser(request);
    apiUsers.set(request, pending);
  }
  const result = await pending;
  // A Response body can be read once: each caller throws its own.
  if ("status" in result) throw apiError(result.status, result.message);
  return result;
}

async function checkApiUser(request: Request): Promise<ApiUserCheck> {
  const user = await getOptionalUser(request);
  if (!user) return { status: 401, message: UNAUTHENTICATED };
  const loggedUser = await loadLoggedUser(user);
  if (!loggedUser.agreed_to_all_documents) return { status: 403, message: LEGAL_AGREEMENT_REQUIRED };
  return { user, loggedUser };
}

/** Session-cookie auth for /api: 401 JSON instead of a redirect, 403 JSON until the legal documents are agreed. */
export async function requireApiUser(request: Request): Promise<User> {
  return (await requireApiLoggedUser(request)).user;
}

export async function requireApiAdmin(request: Request): Promise<User> {
  const user = await requireApiUser(request);
  if (!isAdminAccount(user)) throw apiError(403, "This action is unauthorized.");
  return user;
}

/** A member id from the path that the user may reach; someone else's answers 404, as if it did not exist. */
export async function requireApiMember(request: Request, idParam: string | undefined) {
  const { user, loggedUser } = await requireApiLoggedUser(request);
  const memberId = parseId(idParam);
  if (memberId === null || !canAccessMember(user, memberId)) throw apiError(404, "Not found.");
  return { user, loggedUser, memberId };
}
