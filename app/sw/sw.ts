// The service worker, built by sw.vite.config.ts into build/client/sw.js (served at /sw.js).
//
// - install: precaches the build's /assets/* and the offline page (rendered anonymously);
// - /assets/*: precache, then cache-first; /storage/images/*: cache-first (public, immutable);
// - navigations and single-fetch `.data` GETs: network only (pages may
//   hold a user's data, so they are never stored), the offline page when the network fails;
// - everything else (POSTs, /api, /broadcasting, other origins) is left to the browser;
// - activate: deletes the caches of other builds; never skips waiting on its own (the page asks, after
//   the user agreed); CLEAR_CACHES (sent at logout) deletes every runtime cache.
import { CacheFirst } from "@remix-pwa/sw/cache";
import { cacheNames, mayCache, OFFLINE_PATH, offlineUrl, pagePathFromDataUrl, requestKind, staleCaches } from "./cache-rules";
import { CACHES_CLEARED, CLEAR_CACHES, isWorkerMessage, SKIP_WAITING } from "./messages";
import type { FetchEvent, ServiceWorkerGlobal } from "./worker-types";

/** Injected at build time (sw.vite.config.ts) from build/client/assets. */
declare const __PRECACHE_MANIFEST__: { version: string; urls: string[] };

const sw = self as unknown as ServiceWorkerGlobal;
const precacheManifest = __PRECACHE_MANIFEST__;
const CACHES = cacheNames(precacheManifest.version);
const origin = sw.location.origin;

/** @remix-pwa's cache-first, writing only what `mayCache` admits. */
class GuardedCacheFirst extends CacheFirst {
  override async putInCache(request: Request, response: Response): Promise<void> {
    if (mayCache(request, response, origin)) await super.putInCache(request, response);
  }
}

const YEAR = 365 * 24 * 60 * 60;
const assetCache = new GuardedCacheFirst(CACHES.assets, {
  maxEntries: 200,
  maxAgeSeconds: YEAR,
  cacheableResponse: { statuses: [200] },
});
const imageCache = new GuardedCacheFirst(CACHES.images, {
  maxEntries: 300,
  maxAgeSeconds: YEAR,
  cacheableResponse: { statuses: [200] },
});

sw.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

async function precache() {
  const cache = await caches.open(CACHES.precache);
  await cache.addAll(precacheManifest.urls.filter((url) => url !== OFFLINE_PATH));
  // Without the visitor's cookies: the stored page must not carry anyone's name or data.
  const request = new Request(OFFLINE_PATH, { credentials: "omit", cache: "reload" });
  const response = await fetch(request);
  if (!mayCache(request, response, origin)) throw new Error(`The offline page answered ${response.status}.`);
  await cache.put(OFFLINE_PATH, response);
}

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const stale = staleCaches(await caches.keys(), Object.values(CACHES));
      await Promise.all(stale.map((name) => caches.delete(name)));
      // Navigations are network-first: start the request while the worker boots.
      await sw.registration.navigationPreload?.enable().catch(() => undefined);
    })(),
  );
});

sw.addEventListener("fetch", (event) => {
  const { request } = event;
  // requestKind admits same-origin http(s) GETs only.
  switch (requestKind(request, origin)) {
    case "navigate":
      event.respondWith(navigate(event));
      break;
    case "data":
      event.respondWith(singleFetch(request));
      break;
    case "asset":
      event.respondWith(asset(request));
      break;
    case "image":
      event.respondWith(imageCache.handleRequest(request));
      break;
    default:
    // Not ours: the browser fetches it as if there were no worker.
  }
});

async function navigate(event: FetchEvent): Promise<Response> {
  try {
    return (await event.preloadResponse) ?? (await fetch(event.request));
  } catch {
    const url = new URL(event.request.url);
    if (url.pathname !== OFFLINE_PATH) return Response.redirect(offlineUrl(url.pathname + url.search), 302);
    const page = await caches.match(OFFLINE_PATH, { cacheName: CACHES.precache });
    return page ?? Response.error();
  }
}

/**
 * A client-side navigation's data. When the network fails, answer what React Router's single fetch
 * understands as "reload the document at this URL", which lands on the offline page.
 */
async function singleFetch(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    return new Response(null, {
      status: 204,
      headers: {
        "X-Remix-Redirect": offlineUrl(pagePathFromDataUrl(request.url)),
        "X-Remix-Status": "302",
        "X-Remix-Reload-Document": "true",
      },
    });
  }
}

async function asset(request: Request): Promise<Response> {
  const precached = await caches.match(request, { cacheName: CACHES.precache, ignoreVary: true });
  return precached ?? assetCache.handleRequest(request);
}

sw.addEventListener("message", (event) => {
  const message = event.data;
  if (!isWorkerMessage(message)) return;
  if (message.type === SKIP_WAITING) {
    event.waitUntil(sw.skipWaiting());
  } else if (message.type === CLEAR_CACHES) {
    event.waitUntil(
      clearRuntimeCaches().then(() => {
        event.ports[0]?.postMessage({ type: CACHES_CLEARED });
      }),
    );
  }
});

/** Everything but this build's precache (built assets and the anonymous offline page). */
async function clearRuntimeCaches() {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name !== CACHES.precache).map((name) => caches.delete(name)));
}
