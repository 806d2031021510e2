import { describe, expect, it } from "vitest";
import http from "node:http";
import { closeWhenBodyUnread, contentSecurityPolicy, isCrossSiteWrite, isUnreadableUrl, refusedBody } from "./app.js";

/** @param {string} method @param {Record<string,string>} headers */
function req(method, headers) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return /** @type {any} */ ({ method, protocol: "http", get: (/** @type {string} */ name) => lower[name.toLowerCase()] ?? (name.toLowerCase() === "host" ? "localhost:3000" : undefined) });
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
  const request = (method, path, headers) =>
    /** @type {any} */ ({ method, path, get: (/** @type {string} */ name) => headers[name.toLowerCase()] });
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

describe("closeWhenBodyUnread", () => {
  it("closes the connection of a response sent before its body was read, and keeps it alive otherwise", async () => {
    const server = http.createServer((req, res) => {
      closeWhenBodyUnread(req, res);
      if (req.url === "/read") {
        req.resume();
        req.on("end", () => res.end("read"));
        return;
      }
      res.statusCode = req.method === "POST" ? 413 : 200;
      res.end("answered");
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
    const base = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (server.address()).port}`;
    try {
      const refused = await fetch(`${base}/refuse`, { method: "POST", body: Buffer.alloc(6 * 1024 * 1024) });
      expect(refused.status).toBe(413);
      expect(refused.headers.get("connection")).toBe("close");
      await refused.text();
      const read = await fetch(`${base}/read`, { method: "POST", body: Buffer.alloc(64 * 1024) });
      expect(await read.text()).toBe("read");
      expect(read.headers.get("connection")).toBe("keep-alive");
      const page = await fetch(`${base}/`);
      expect(page.headers.get("connection")).toBe("keep-alive");
      await page.text();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    }
  });
});
