import type { User } from "~/db/schema";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { canAccessMember, parseId } from "~/modules/accounts/guards.server";
import { isAdminAccount } from "~/modules/accounts/roles";

/**
 * The JSON API's one error pattern: `{ message }` with the status, thrown from loaders and actions.
 * (The browser's fetch interceptor reads `errors` for 'Invalid signature.', so both are set.)
 */
export function apiError(status: number, message: string): Response {
  return Response.json({ message, errors: message }, { status });
}

/** Session-cookie auth for /api: 401 JSON instead of a redirect. */
export async function requireApiUser(request: Request): Promise<User> {
  const user = await getOptionalUser(request);
  if (!user) throw apiError(401, "Unauthenticated.");
  return user;
}

export async function requireApiAdmin(request: Request): Promise<User> {
  const user = await requireApiUser(request);
  if (!isAdminAccount(user)) throw apiError(403, "This action is unauthorized.");
  return user;
}

/** A member id from the path that the user may reach; someone else's answers 404, as if it did not exist. */
export async function requireApiMember(request: Request, idParam: string | undefined) {
  const user = await requireApiUser(request);
  const memberId = parseId(idParam);
  if (memberId === null || !canAccessMember(user, memberId)) throw apiError(404, "Not found.");
  return { user, memberId };
}
