import { describe, expect, it } from "vitest";
import http from "node:http";
import { contentSecurityPolicy, drainUnreadBody, isCrossSiteWrite, isUnreadableUrl, refusedBody } from "./app.js";

/** @param {string} method @param {Record<string,string>} headers */
function req(method, headers) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return /** @type {any} */ ({
    method,
    protocol: "http",
    get: (/** @type {string} */ name) => lower[name.toLowerCase()] ?? (name.toLowerCase() === "host" ? "localhost:3000" : undefined),
  });
}

describe("the cross-site write guard", () => {
  const allowed = ["https://backline.example"];
  it("lets reads through whatever their origin", () => {
    expect(isCrossSiteWrite(req("GET", { Origin: "https://evil.example" }), allowed)).toBe(false);
  });
  it("refuses a write from a foreign origin", () => {
    expect(isCrossSiteWrite(req("POST", { Origin: "https://evil.example" }), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", { Origin: "null" }), allowed)).toBe(true);
  });
  it("accepts a write from its own host or APP_URL", () => {
    expect(isCrossSiteWrite(req("POST", { Origin: "http://localhost:3000" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: "https://backline.example" }), allowed)).toBe(false);
  });
  it("falls back to Sec-Fetch-Site when there is no Origin", () => {
    expect(isCrossSiteWrite(req("POST", { "Sec-Fetch-Site": "cross-site" }), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "Sec-Fetch-Site": "same-origin" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", {}), allowed)).toBe(false);
  });
  it("makes a write that carries the session cookie prove its origin: Origin, else Referer, else Sec-Fetch-Site", () => {
    const cookie = { Cookie: "theme=dark; backline_session=abc.def" };
    expect(isCrossSiteWrite(req("POST", cookie), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", cookie), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { ...cookie, Origin: "http://localhost:3000" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { ...cookie, Referer: "http://localhost:3000/member/3/profile" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { ...cookie, Referer: "https://backline.example/x" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { ...cookie, Referer: "https://evil.example/localhost:3000" }), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { ...cookie, Referer: "not a url" }), allowed)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { ...cookie, "Sec-Fetch-Site": "same-origin" }), allowed)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { ...cookie, "Sec-Fetch-Site": "none" }), allowed)).toBe(true);
    // A cookie of another name is not a session.
    expect(isCrossSiteWrite(req("POST", { Cookie: "xbackline_session=1" }), allowed)).toBe(false);
  });
});

describe("what the HTTP layer refuses before reading a body", () => {
  /** @param {string} method @param {string} path @param {Record<string,string>} headers */
  const request = (method, path, headers) => /** @type {any} */ ({ method, path, get: (/** @type {string} */ name) => headers[name.toLowerCase()] });
  const limit = (/** @type {string} */ path) => (path.startsWith("/upload") ? 5000 : 1000);

  it("answers 413 above the path's limit, 411 for a body of unknown length", () => {
    expect(refusedBody(request("POST", "/login", { "content-length": "1000" }), limit)).toBeNull();
    expect(refusedBody(request("POST", "/login", { "content-length": "1001" }), limit)).toMatchObject({ status: 413 });
    expect(refusedBody(request("POST", "/upload", { "content-length": "4000" }), limit)).toBeNull();
    expect(refusedBody(request("POST", "/login", { "content-length": "12abc" }), limit)).toMatchObject({ status: 413 });
    expect(refusedBody(request("POST", "/login", { "transfer-encoding": "chunked" }), limit)).toMatchObject({ status: 411 });
    expect(refusedBody(request("POST", "/logout", {}), limit)).toBeNull();
    expect(refusedBody(request("GET", "/login", { "content-length": "99999" }), limit)).toBeNull();
  });

  it.each(["/artists/%00", "/member/3/artists?q=%00", "/x?q=a%1Fb", "/x?q=%7f", "/a%E0%A4%A", "/x\u0000"])("refuses the address %s", (url) => {
    expect(isUnreadableUrl(url)).toBe(true);
  });

  it.each(["/member/3/artists?q=rock%20band&genre=2", "/login?redirect=%2Fmember%2F3%2Fdashboard", "/artists/caf%C3%A9", "/x?q=%25"])(
    "reads the address %s",
    (url) => {
      expect(isUnreadableUrl(url)).toBe(false);
    },
  );
});

describe("the content security policy", () => {
  it("allows scripts only with the request's nonce", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("lets forms lead only to our own pages, and to the origins given (Stripe's hosted onboarding)", () => {
    expect(contentSecurityPolicy("n")).toContain("form-action 'self';");
    expect(contentSecurityPolicy("n", { formActionSrc: ["https://connect.stripe.com"] })).toContain("form-action 'self' https://connect.stripe.com;");
  });
});

describe("oneDrainListener", () => {
  it("serves every once('drain') caller from one real listener, and lets callers leave", async () => {
    const { EventEmitter } = await import("node:events");
    const { oneDrainListener } = await import("./app.js");
    const res = /** @type {any} */ (new EventEmitter());
    oneDrainListener(/** @type {any} */ ({}), res, () => {});
    const calls = /** @type {string[]} */ ([]);
    for (let round = 0; round < 20; round++) {
      const listener = () => calls.push(`round ${round}`);
      res.once("drain", listener);
      if (round % 2 === 1) res.off("drain", listener);
      res.emit("drain");
    }
    expect(res.listenerCount("drain")).toBe(1);
    expect(calls).toEqual(Array.from({ length: 10 }, (_, i) => `round ${i * 2}`));
    // Other events keep their usual behaviour.
    let closes = 0;
    res.once("close", () => closes++);
    res.emit("close");
    res.emit("close");
    expect(closes).toBe(1);
  });
});

describe("drainUnreadBody", () => {
  it("reads and drops the body of a response sent before it was read, so the answer arrives and the connection stays usable", async () => {
    /** @type {Array<{ path: string, port: number }>} */
    const seen = [];
    const server = http.createServer((req, res) => {
      drainUnreadBody(req, res);
      seen.push({ path: req.url ?? "", port: req.socket.remotePort ?? 0 });
      if (req.url === "/paused") {
        // As React Router's reader leaves it: a data listener, paused, nobody pulling.
        req.on("data", () => req.pause());
      }
      res.statusCode = req.method === "POST" ? 413 : 200;
      res.end("answered");
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
    const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
    // One kept-alive socket, as a browser's connection to the page's host; the whole body is sent whatever comes back.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    /** @param {string} path @param {Buffer | null} body @returns {Promise<{ status: number, text: string }>} */
    const send = (path, body) =>
      new Promise((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path, method: body ? "POST" : "GET", agent }, (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.setTimeout(5_000, () => req.destroy(new Error(`${path}: no answer`)));
        req.on("error", reject);
        req.end(body ?? undefined);
      });
    try {
      expect(await send("/refuse", Buffer.alloc(6 * 1024 * 1024))).toEqual({ status: 413, text: "answered" });
      expect(await send("/paused", Buffer.alloc(6 * 1024 * 1024))).toEqual({ status: 413, text: "answered" });
      // Answered on the same socket: each 6 MB body was read through, so the next request could be parsed.
      expect(await send("/", null)).toEqual({ status: 200, text: "answered" });
      expect(new Set(seen.map((s) => s.port)).size).toBe(1);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    }
  });
});
