import { startUserSession } from "~/modules/accounts/session.server";

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

export const loadContext = { ip: "127.0.0.1", requestId: "test", cspNonce: "" };
