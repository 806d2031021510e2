// The service worker's decisions, kept pure so they are unit-tested without a browser:
// what a request is (and so how the worker handles it), what may be stored in a cache, and which
// caches are stale. Imported by the worker (app/sw/sw.ts) and by its tests only.

// Relative: the worker is built without the app's "~" alias.
import { redirectTarget } from "../modules/security/redirect-target";

/** Every cache this worker creates starts with this; others on the origin are never touched. */
export const CACHE_PREFIX = "backline-";

/** The page shown when a navigation fails; its HTML is precached at install. */
export const OFFLINE_PATH = "/offline";

/** The caches of one build. Precache and assets carry the build hash; images are immutable by URL. */
export function cacheNames(buildHash: string) {
  return {
    precache: `${CACHE_PREFIX}precache-${buildHash}`,
    assets: `${CACHE_PREFIX}assets-${buildHash}`,
    images: `${CACHE_PREFIX}images-v1`,
  };
}

/** Caches to delete on activate: ours (by prefix) that this build does not use. */
export function staleCaches(existing: readonly string[], keep: readonly string[]): string[] {
  return existing.filter((name) => name.startsWith(CACHE_PREFIX) && !keep.includes(name));
}

/**
 * How the worker handles a request:
 * - "navigate": network (never cached), the offline page when the network fails;
 * - "data": React Router single-fetch GET (`*.data`), network only, a reload into the offline page when it fails;
 * - "asset": `/assets/*` (hashed, immutable), precache then cache-first;
 * - "image": `/storage/images/*` (public, immutable), cache-first;
 * - null: not the worker's business: the browser fetches it as if there were no worker
 *   (every non-GET, other origins, /api/*, /broadcasting/*, everything else).
 */
export type RequestKind = "navigate" | "data" | "asset" | "image";

export interface RequestLike {
  method: string;
  url: string;
  mode?: string;
}

export interface ResponseLike {
  status: number;
  type: string;
  headers: { get(name: string): string | null };
}

function sameOriginUrl(url: string, origin: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  return parsed.origin === origin ? parsed : null;
}

/** Private by path whatever the response says: the JSON API, single-fetch data, realtime auth. */
export function isPrivatePath(pathname: string): boolean {
  return pathname.startsWith("/api/") || pathname === "/api" || pathname.endsWith(".data") || pathname.startsWith("/broadcasting") || pathname === "/logout";
}

export function requestKind(request: RequestLike, origin: string): RequestKind | null {
  if (request.method.toUpperCase() !== "GET") return null;
  const url = sameOriginUrl(request.url, origin);
  if (!url) return null;
  if (request.mode === "navigate") return "navigate";
  if (url.pathname.startsWith("/assets/")) return "asset";
  if (url.pathname.startsWith("/storage/images/")) return "image";
  if (url.pathname.endsWith(".data")) return "data";
  return null;
}

/** Paths whose responses may ever be stored: built assets, public images and the offline page. */
function isCacheablePath(pathname: string): boolean {
  if (isPrivatePath(pathname)) return false;
  return pathname.startsWith("/assets/") || pathname.startsWith("/storage/images/") || pathname === OFFLINE_PATH;
}

/**
 * May this response be written to a cache? Only a complete, same-origin 200 to a GET of a cacheable
 * path, not marked private or no-store, that sets no cookie. Everything else (POSTs, /api, `.data`,
 * /broadcasting, redirects, errors, opaque responses) is refused.
 */
export function mayCache(request: RequestLike, response: ResponseLike, origin: string): boolean {
  if (request.method.toUpperCase() !== "GET") return false;
  const url = sameOriginUrl(request.url, origin);
  if (!url || !isCacheablePath(url.pathname)) return false;
  if (response.status !== 200) return false;
  if (response.type !== "basic" && response.type !== "default") return false;
  if (response.headers.get("set-cookie")) return false;
  if (/\b(private|no-store)\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  if ((response.headers.get("vary") ?? "").trim() === "*") return false;
  return true;
}

/** The page a single-fetch URL loads data for: `/a/b.data?x=1&_routes=…` -> `/a/b?x=1`. */
export function pagePathFromDataUrl(dataUrl: string): string {
  const url = new URL(dataUrl);
  let pathname = url.pathname.replace(/\.data$/, "");
  if (pathname === "/_root") pathname = "/";
  else if (pathname.endsWith("/_")) pathname = pathname.slice(0, -1);
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return `${pathname}${search ? `?${search}` : ""}`;
}

/** Where a failed navigation goes: the offline page, remembering the page asked for. */
export function offlineUrl(from: string): string {
  const path = safeReturnPath(from);
  if (path === "/" || path.startsWith(OFFLINE_PATH)) return OFFLINE_PATH;
  return `${OFFLINE_PATH}?${new URLSearchParams({ from: path })}`;
}

/** A same-site path to go back to, else the start page (the app's one redirect check). */
export function safeReturnPath(from: string | null | undefined): string {
  return redirectTarget(from, "/");
}
