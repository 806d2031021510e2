import { and, eq, gt, ne, sql } from "drizzle-orm";
import { CLEANUP_BATCH, deleteInBatches } from "~/db/batched-delete.server";
import { createCookie, createSessionStorage, redirect, type Cookie, type Session, type SessionStorage } from "react-router";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { env } from "~/env.server";
import { randomToken, sha256 } from "~/modules/security/hash.server";

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface SessionData {
  userId: number;
  ip?: string;
  userAgent?: string;
  /** When the user last confirmed it was them (password or two-factor code), in ms since the epoch (step-up.server.ts). */
  confirmedAt?: number;
  /** When the user last confirmed with a current authenticator code (administrators' money decisions, step-up.server.ts). */
  codeConfirmedAt?: number;
}

let storage: SessionStorage<SessionData> | undefined;
let cookie: Cookie | undefined;

/** The signed cookie that carries the session id (read directly by the request's session lookup). */
export function sessionCookie(): Cookie {
  if (cookie) return cookie;
  const settings = env();
  cookie = createCookie("backline_session", {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.isProduction,
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
    secrets: [settings.SESSION_SECRET],
  });
  return cookie;
}

/**
 * Server-side sessions: the cookie carries only the signed session id, the row stores its SHA-256,
 * so a database leak hands out no usable session, and deleting the row revokes it.
 */
export function sessionStorage(): SessionStorage<SessionData> {
  if (storage) return storage;
  storage = createSessionStorage<SessionData>({
    cookie: sessionCookie(),
    async createData(data, expires) {
      const id = randomToken();
      await db()
        .insert(sessions)
        .values({
          idHash: sha256(id),
          userId: data.userId ?? null,
          data: data as Record<string, unknown>,
          ip: data.ip ?? null,
          userAgent: data.userAgent ?? null,
          expiresAt: expires ?? new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
        });
      return id;
    },
    async readData(id) {
      const [row] = await db()
        .select({ data: sessions.data })
        .from(sessions)
        .where(and(eq(sessions.idHash, sha256(id)), gt(sessions.expiresAt, new Date())));
      return (row?.data as unknown as SessionData | undefined) ?? null;
    },
    async updateData(id, data, expires) {
      await db()
        .update(sessions)
        .set({
          data: data as Record<string, unknown>,
          userId: data.userId ?? null,
          updatedAt: new Date(),
          ...(expires ? { expiresAt: expires } : {}),
        })
        .where(eq(sessions.idHash, sha256(id)));
    },
    async deleteData(id) {
      await db()
        .delete(sessions)
        .where(eq(sessions.idHash, sha256(id)));
    },
  });
  return storage;
}

export function resetSessionStorageForTests() {
  storage = undefined;
  cookie = undefined;
}

export function getSession(request: Request): Promise<Session<SessionData>> {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

/** Starts a fresh session (never reusing an earlier id) and redirects with its cookie. */
export async function startUserSession(request: Request, input: { userId: number; ip: string; redirectTo: string }): Promise<Response> {
  const previous = await getSession(request);
  if (previous.id) await sessionStorage().destroySession(previous);
  const session = await sessionStorage().getSession();
  session.set("userId", input.userId);
  session.set("ip", input.ip);
  session.set("userAgent", request.headers.get("user-agent")?.slice(0, 500) ?? "");
  return redirect(input.redirectTo, { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

/** Ends the request's session server-side and clears the cookie. */
export async function endSession(request: Request, redirectTo = "/login"): Promise<Response> {
  const session = await getSession(request);
  return redirect(redirectTo, {
    headers: {
      "Set-Cookie": await sessionStorage().destroySession(session),
      "Clear-Site-Data": '"cache", "storage"',
    },
  });
}

/** Ends every session of a user (password reset, suspension), optionally keeping the current one. */
export async function revokeUserSessions(userId: number, exceptSessionId?: string): Promise<void> {
  const condition = exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.idHash, sha256(exceptSessionId))) : eq(sessions.userId, userId);
  await db().delete(sessions).where(condition);
}

/** Deletes sessions past their expiry (the daily clean-up, app/modules/jobs/daily-cleanup.server.ts); returns how many. */
export async function deleteExpiredSessions(): Promise<number> {
  return deleteInBatches(sql`delete from sessions where id_hash in (select id_hash from sessions where expires_at < now() limit ${CLEANUP_BATCH})`);
}
