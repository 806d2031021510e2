// @ts-check
// The HTTP layer in front of React Router: request ids, CSP nonces, security headers, the
// cross-origin guard, static files and the load context. Everything app-specific lives in app/.
import crypto from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The Content-Security-Policy for one response. Scripts need the per-request nonce
 * ('strict-dynamic' lets the nonce'd module loader pull in the route chunks it imports).
 * @param {string} nonce
 * @param {{ connectSrc?: string[] }} [extra]
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
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join("; ");
}

/**
 * A state-changing request is refused when its Origin (or, lacking one, Sec-Fetch-Site) says it
 * came from another site. Requests with neither header are not from a browser, so no CSRF risk.
 * @param {import("express").Request} req
 * @param {string[]} allowedOrigins
 */
export function isCrossSiteWrite(req, allowedOrigins) {
  if (SAFE_METHODS.has(req.method)) return false;
  const origin = req.get("origin");
  if (origin) {
    const own = `${req.protocol}://${req.get("host")}`;
    return origin !== own && !allowedOrigins.includes(origin);
  }
  const site = req.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
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
 *   log?: (line: string) => void,
 * }} options
 */
export function createApp(options) {
  const app = express();
  const allowedOrigins = [new URL(options.appUrl).origin];
  const log = options.log ?? ((line) => console.log(line));

  app.disable("x-powered-by");
  if (options.trustProxy) app.set("trust proxy", true);

  app.use((req, res, next) => {
    const requestId = crypto.randomUUID();
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.requestId = requestId;
    res.locals.cspNonce = nonce;
    res.set("X-Request-Id", requestId);
    res.set("Content-Security-Policy", contentSecurityPolicy(nonce, { connectSrc: options.connectSrc }));
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "strict-origin-when-cross-origin");
    res.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    res.set("Cross-Origin-Opener-Policy", "same-origin");
    if (options.secureCookies) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
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
    if (!isCrossSiteWrite(req, allowedOrigins)) return next();
    res.status(403);
    if ((req.get("accept") ?? "").includes("application/json") || req.path.startsWith("/api/")) {
      res.json({ message: "Cross-site request refused." });
    } else {
      res.type("text/plain").send("Cross-site request refused.");
    }
  });

  app.use(compression());
  app.use(oneDrainListener);

  if (options.viteDevServer) {
    app.use(options.viteDevServer.middlewares);
  } else {
    app.use(
      "/assets",
      express.static(path.join(options.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    // The service worker script is revalidated on every check, so a deploy reaches browsers at once.
    const serviceWorker = path.join(options.clientDir, "sw.js");
    app.use(
      express.static(options.clientDir, {
        maxAge: "1h",
        index: false,
        setHeaders: (res, filePath) => {
          if (filePath === serviceWorker) res.setHeader("Cache-Control", "no-cache");
        },
      }),
    );
  }

  app.all(
    "*",
    createRequestHandler({
      build: options.build,
      getLoadContext: (req, res) => ({
        ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
        requestId: res.locals.requestId,
        cspNonce: res.locals.cspNonce,
      }),
    }),
  );

  return app;
}
