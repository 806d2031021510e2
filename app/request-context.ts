import { createContext, RouterContextProvider } from "react-router";

/**
 * What the HTTP layer (server/app.js) knows of a request, for loaders and actions:
 * `context.get(requestInfoContext)`.
 */
export interface RequestInfo {
  ip: string;
  requestId: string;
  cspNonce: string;
}

export const requestInfoContext = createContext<RequestInfo>();

/** Per-request memo of `oncePerRequest`. */
const requestMemoContext = createContext<Map<string, Promise<unknown>>>();

/** What a loader or action receives, for the domain modules that serve several route files. */
export interface RouteArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context: Readonly<RouterContextProvider>;
}

/**
 * The per-request context React Router hands to middleware, loaders and actions. The server build
 * exports it (entry.server) so that server/app.js creates it with the same context keys as the app.
 */
export function createLoadContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  context.set(requestMemoContext, new Map());
  return context;
}

/**
 * Runs `load` once per request for `key`, however many loaders of the request ask (a layout and its page
 * both showing the member's profiles, say). Lives and dies with the request: never shared between users.
 */
export function oncePerRequest<T>(context: Readonly<RouterContextProvider>, key: string, load: () => Promise<T>): Promise<T> {
  const memo = context.get(requestMemoContext);
  let pending = memo.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = Promise.resolve(load());
    memo.set(key, pending);
  }
  return pending;
}
