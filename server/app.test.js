import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSiteWrite } from "./app.js";

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
});

describe("the content security policy", () => {
  it("allows scripts only with the request's nonce", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
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
