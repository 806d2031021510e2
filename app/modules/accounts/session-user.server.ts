import { and, eq, getTableColumns, gt, sql } from "drizzle-orm";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { db } from "~/db/client.server";
import { sessions, users, type User } from "~/db/schema";
import { agreedToAllDocumentsSql } from "~/modules/legal/legal.server";
import { postProductionJobsCountSql } from "~/modules/post-production/jobs-count.server";
import { sha256 } from "~/modules/security/hash.server";
import { sessionCookie } from "./session.server";

/**
 * Who is making this request, read once per request by `sessionMiddleware` (root route) and kept in
 * React Router's request context, where every guard, loader and action reads it.
 */
export interface SessionUser {
  /** The active, non-suspended user of the session; null for a visitor. */
  user: User | null;
  /** Whether that user has agreed to every required legal document. */
  agreedToAllDocuments: boolean;
  /** The user's post-production jobs, as owner or engineer, whatever their status (the menu's entry shows above 0). */
  postProductionJobsCount?: number;
}

const NO_ONE: SessionUser = { user: null, agreedToAllDocuments: false };

export const sessionUserContext = createContext<SessionUser>(NO_ONE);

/**
 * One statement: the session row, its user, the agreement rule and the post-production jobs count together. A request without the
 * session cookie (a visitor, /healthz, the API with a bearer token) runs none.
 */
export async function readSessionUser(cookieHeader: string | null): Promise<SessionUser> {
  if (!cookieHeader?.includes("backline_session=")) return NO_ONE;
  const sessionId = (await sessionCookie().parse(cookieHeader)) as unknown;
  if (typeof sessionId !== "string" || !sessionId) return NO_ONE;
  const [row] = await db()
    .select({ user: getTableColumns(users), agreed: agreedToAllDocumentsSql(users.id), postProductionJobs: postProductionJobsCountSql(users.id) })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sha256(sessionId)), gt(sessions.expiresAt, sql`now()`)))
    .limit(1);
  if (!row || !row.user.activatedAt || row.user.suspendedAt) return NO_ONE;
  return { user: row.user, agreedToAllDocuments: row.agreed, postProductionJobsCount: Number(row.postProductionJobs) || 0 };
}

/** Root middleware: the request's user, read once, for every guard and loader of the request. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(sessionUserContext, await readSessionUser(request.headers.get("Cookie")));
  return next();
};

/** The request's user, as the middleware read it. */
export function sessionUserOf(context: Readonly<RouterContextProvider>): SessionUser {
  return context.get(sessionUserContext);
}
