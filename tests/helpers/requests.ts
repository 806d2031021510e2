import type { RouterContextProvider } from "react-router";
import { readSessionUser, sessionUserContext } from "~/modules/accounts/session-user.server";
import { startUserSession } from "~/modules/accounts/session.server";
import { recordConfirmation } from "~/modules/accounts/step-up.server";
import { createLoadContext } from "~/request-context";

/** A session cookie for the user, made the way login makes one. */
export async function sessionCookieFor(userId: number): Promise<string> {
  const response = await startUserSession(new Request("http://localhost:3999/login"), {
    userId,
    ip: "127.0.0.1",
    redirectTo: "/",
  });
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

export function requestAs(cookie: string | null, path: string): Request {
  return new Request(`http://localhost:3999${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

/**
 * The request context React Router hands a loader or action of this request, as the server and the root
 * middleware fill it (request info, then the session's user), for tests that call loaders directly.
 */
export async function contextFor(request: Request): Promise<RouterContextProvider> {
  const context = createLoadContext({ ip: "127.0.0.1", requestId: "test", cspNonce: "" });
  context.set(sessionUserContext, await readSessionUser(request.headers.get("Cookie")));
  return context;
}

/** `{ request, params, context }` for calling a loader or action directly. */
export async function routeArgs(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: await contextFor(request) };
}

/**
 * A session cookie whose user confirmed it was them just now (the 10-minute fresh confirmation that payout
 * changes and requests need, step-up.server.ts), for tests about something else.
 */
export async function confirmedSessionCookieFor(userId: number): Promise<string> {
  const cookie = await sessionCookieFor(userId);
  await recordConfirmation(new Request("http://localhost:3999/", { headers: { Cookie: cookie } }));
  return cookie;
}
