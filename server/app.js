// @ts-check
// The HTTP layer in front of React Router: request ids, CSP nonces, security headers, the
// cross-origin guard, body limits, static files and the load context. Everything app-specific lives in app/.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The session cookie's name (app/modules/accounts/session.server.ts). */
const SESSION_COOKIE = "backline_session";
/** Forms and JSON: the limit for every path unless the app says otherwise (app/modules/security/body-limits.ts). */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The entries of a folder (none when it does not exist). @param {string} dir */
function topLevelNames(dir) {
  try {
    return new Set(fs.readdirSync(dir));
  } catch {
    return new Set();
  }
}

/** "/icons/a.png" -> "icons", decoded as the static server decodes it. @param {string} urlPath */
function firstSegment(urlPath) {
  const segment = urlPath.split("/")[1] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The Content-Security-Policy for one response. Scripts need the per-request nonce
 * ('strict-dynamic' lets the nonce'd module loader pull in the route chunks it imports).
 * @param {string} nonce
 * @param {{ connectSrc?: string[], formActionSrc?: string[] }} [extra]
 */
export function contentSecurityPolicy(nonce, extra = {}) {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // blob: for previews of files chosen in a form (the avatar) before they are sent.
    `connect-src ${["'self'", "blob:", ...(extra.connectSrc ?? [])].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...(extra.formActionSrc ?? [])].join(" ")}`,
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join("; ");
}

/**
 * Whether a state-changing request must be refused as cross-site (decision 012). A request that carries
 * the session cookie has to prove it comes from our own pages: by its Origin, else its Referer, else
 * `Sec-Fetch-Site: same-origin`; with none of them it is refused. A request without the cookie acts for
 * nobody (login, a client holding a bearer token), so only a header that names another site refuses it.
 * @param {import("express").Request} req
 * @param {string[]} allowedOrigins
 * @param {string} sessionCookieName
 */
export function isCrossSiteWrite(req, allowedOrigins, sessionCookieName = SESSION_COOKIE) {
  if (SAFE_METHODS.has(req.method)) return false;
  const own = `${req.protocol}://${req.get("host")}`;
  const trusted = (/** @type {string} */ origin) => origin === own || allowedOrigins.includes(origin);
  const origin = req.get("origin");
  if (origin) return !trusted(origin);
  const referer = req.get("referer");
  if (referer) return !trusted(originOf(referer));
  const site = req.get("sec-fetch-site");
  if (site) return site !== "same-origin";
  return hasCookie(req, sessionCookieName);
}

/** @param {string} url */
function originOf(url) {
  try {
    return new URL(url).origin;
  } catch {
    return "null";
  }
}

/** @param {import("express").Request} req @param {string} name */
function hasCookie(req, name) {
  return (req.get("cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${name}=`));
}

/**
 * A path or query holding control characters (`%00`, raw or encoded) or a path whose percent-encoding
 * is broken is answered 400 here: nothing behind could use it, and PostgreSQL refuses NUL in text.
 * @param {string} originalUrl
 */
export function isUnreadableUrl(originalUrl) {
  if (/%(?:[01][0-9a-f]|7f)|[\u0000-\u001f\u007f]/i.test(originalUrl)) return true;
  const pathname = originalUrl.split("?", 1)[0] ?? "";
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * Why a request body is refused before any of it is read: 411 for a body of unknown length (chunked),
 * 413 above the path's limit; null when it may be read.
 * @param {import("express").Request} req
 * @param {(pathname: string) => number} bodyLimitFor
 * @returns {{ status: 411 | 413, message: string } | null}
 */
export function refusedBody(req, bodyLimitFor) {
  if (SAFE_METHODS.has(req.method)) return null;
  const length = req.get("content-length");
  if (length === undefined) {
    return req.get("transfer-encoding") ? { status: 411, message: "Send the request with a Content-Length." } : null;
  }
  const limit = bodyLimitFor(req.path);
  if (!/^\d+$/.test(length) || Number(length) > limit) {
    return { status: 413, message: `The request is too large (at most ${Math.floor(limit / 1024)} KB).` };
  }
  return null;
}

/**
 * The HTTP layer's refusals: JSON `{ message }` for the API and JSON clients, plain text otherwise. A body
 * refused from its headers is read and dropped after the answer, within bounds (drainUnreadBody), not cut off:
 * a connection closed under a client still sending is reset, and the answer lost with it.
 * @param {import("express").Request} req @param {import("express").Response} res
 * @param {number} status @param {string} message
 */
function refuse(req, res, status, message) {
  res.status(status);
  if ((req.get("accept") ?? "").includes("application/json") || req.path.startsWith("/api/")) {
    res.json({ message });
  } else {
    res.type("text/plain").send(message);
  }
}

/** How long a request's unread body may take to arrive after its response before the connection is dropped. */
const DRAIN_MS = 10_000;
/** The longest pause in an unread body after its response: a client that stopped sending is not waited for. */
const DRAIN_IDLE_MS = 1_000;
/** The most of an unread body read and dropped after its response; past it the connection is dropped. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A response can go out before its request's body was read: the HTTP layer's 413 and 411 (refused from the
 * headers) or an app's own refusal (an image form's 413). Nothing would read the rest: the client would go on
 * sending into a full window until the idle timeout, and closing the connection at once makes the kernel reset
 * it, which takes the answer with it while the client is still sending (Node's fetch got EPIPE instead of the
 * 413, 7 times in 8, for a 5 MB form post). So the rest is read and thrown away, as nginx's lingering close does,
 * within bounds: DRAIN_MAX_BYTES, DRAIN_MS in all, DRAIN_IDLE_MS between chunks; past any of them the connection
 * is dropped. A body read to its end leaves the connection usable.
 * @param {import("express").Request} req @param {import("express").Response} res
 */
export function drainUnreadBody(req, res) {
  res.on("finish", () => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody || req.readableEnded || req.destroyed) return;
    const drop = () => req.socket.destroy();
    const total = setTimeout(drop, DRAIN_MS);
    const idle = setTimeout(drop, DRAIN_IDLE_MS);
    total.unref();
    idle.unref();
    const stop = () => {
      clearTimeout(total);
      clearTimeout(idle);
    };
    req.once("end", stop);
    req.once("close", stop);
    // The app's reader (React Router's stream pump) pauses the request when nobody pulls: detach it.
    req.removeAllListeners("data");
    let drained = 0;
    req.on("data", (chunk) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) {
        stop();
        drop();
      } else idle.refresh();
    });
    req.resume();
  });
}

/**
 * compression() hands `res.on("drain")` to its zlib stream but not `res.off`/`removeListener`, so the
 * `once("drain")` that React Router's response writer adds at each backpressure stays on that stream:
 * a large streamed page collected one per pause (and Node's MaxListenersExceededWarning). Here one real
 * listener is registered per response and the `once` callers wait in a set they can leave again.
 * @param {import("express").Request} _req @param {import("express").Response} res @param {() => void} next
 */
export function oneDrainListener(_req, res, next) {
  /** @type {Set<(...args: any[]) => void>} */
  const waiting = new Set();
  let listening = false;
  const once = res.once;
  const removeListener = res.removeListener;
  res.once = function (type, listener) {
    if (type !== "drain") return once.call(this, type, listener);
    if (!listening) {
      listening = true;
      res.on("drain", (...args) => {
        const callers = [...waiting];
        waiting.clear();
        for (const caller of callers) caller(...args);
      });
    }
    waiting.add(listener);
    return this;
  };
  res.off = res.removeListener = function (type, listener) {
    if (type === "drain" && waiting.delete(listener)) return this;
    return removeListener.call(this, type, listener);
  };
  next();
}

/**
 * @param {{
 *   build: any | (() => Promise<any>),
 *   clientDir: string,
 *   appUrl: string,
 *   trustProxy?: boolean,
 *   secureCookies?: boolean,
 *   viteDevServer?: import("vite").ViteDevServer,
 *   connectSrc?: string[],
 *   formActionSrc?: string[],
 *   bodyLimitFor?: (pathname: string) => number,
 *   createLoadContext: (info: { ip: string, requestId: string, cspNonce: string }) => any,
 *   log?: (line: string) => void,
 * }} options
 */
export function createApp(options) {
  const app = express();
  const allowedOrigins = [new URL(options.appUrl).origin];
  const log = options.log ?? ((line) => console.log(line));
  const bodyLimitFor = options.bodyLimitFor ?? (() => DEFAULT_BODY_LIMIT);

  app.disable("x-powered-by");
  if (options.trustProxy) app.set("trust proxy", true);

  app.use((req, res, next) => {
    const requestId = crypto.randomUUID();
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.requestId = requestId;
    res.locals.cspNonce = nonce;
    res.set("X-Request-Id", requestId);
    res.set("Content-Security-Policy", contentSecurityPolicy(nonce, { connectSrc: options.connectSrc, formActionSrc: options.formActionSrc }));
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "strict-origin-when-cross-origin");
    res.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    res.set("Cross-Origin-Opener-Policy", "same-origin");
    if (options.secureCookies) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    drainUnreadBody(req, res);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.statusCode >= 500 || process.env.LOG_REQUESTS === "true") {
        log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms id=${requestId}`);
      }
    });
    next();
  });

  app.use((req, res, next) => {
    if (isUnreadableUrl(req.originalUrl)) return refuse(req, res, 400, "This address contains characters that are not allowed.");
    const body = refusedBody(req, bodyLimitFor);
    if (body) return refuse(req, res, body.status, body.message);
    if (isCrossSiteWrite(req, allowedOrigins)) return refuse(req, res, 403, "Cross-site request refused.");
    next();
  });

  app.use(compression());
  app.use(oneDrainListener);

  if (options.viteDevServer) {
    app.use(options.viteDevServer.middlewares);
  } else {
    app.use("/assets", express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    // The service worker script is revalidated on every check, so a deploy reaches browsers at once.
    const serviceWorker = path.join(options.clientDir, "sw.js");
    const publicFiles = express.static(options.clientDir, {
      maxAge: "1h",
      index: false,
      setHeaders: (res, filePath) => {
        if (filePath === serviceWorker) res.setHeader("Cache-Control", "no-cache");
      },
    });
    // The build's top-level names (sw.js, icons, the web manifest), read once: a page's request goes straight
    // to the app instead of asking the disk for a file first (a stat per request, 0.2 ms of a page's CPU).
    const publicNames = topLevelNames(options.clientDir);
    app.use((req, res, next) => (publicNames.has(firstSegment(req.path)) ? publicFiles(req, res, next) : next()));
  }

  app.all(
    "*",
    createRequestHandler({
      build: options.build,
      // React Router's request context (middleware on): the app makes it, so its keys are the app's own.
      getLoadContext: (req, res) =>
        options.createLoadContext({
          ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
          requestId: res.locals.requestId,
          cspNonce: res.locals.cspNonce,
        }),
    }),
  );

  return app;
}
