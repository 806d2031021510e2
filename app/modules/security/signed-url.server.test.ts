import { afterEach, describe, expect, it, vi } from "vitest";
import { hasValidSignature, signedUrl } from "./signed-url.server";

describe("signed URLs", () => {
  afterEach(() => vi.useRealTimers());

  it("accepts its own URL and rejects any change to path, query or signature", () => {
    const url = signedUrl("/email-verify/7/abc", 60, { foo: "bar" });
    expect(url.startsWith("http://localhost:3999/email-verify/7/abc?")).toBe(true);
    expect(hasValidSignature(url)).toBe(true);
    expect(hasValidSignature(url.replace("/7/", "/8/"))).toBe(false);
    expect(hasValidSignature(url.replace("foo=bar", "foo=baz"))).toBe(false);
    const u = new URL(url);
    u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 1000));
    expect(hasValidSignature(u)).toBe(false);
    const sig = new URL(url);
    sig.searchParams.set("signature", "0".repeat(64));
    expect(hasValidSignature(sig)).toBe(false);
    sig.searchParams.set("signature", "not-hex");
    expect(hasValidSignature(sig)).toBe(false);
  });

  it("does not depend on the host the link is opened on", () => {
    const url = new URL(signedUrl("/activate-account", 60, { token: "t" }));
    url.host = "127.0.0.1:4000";
    expect(hasValidSignature(url)).toBe(true);
  });

  it("expires", () => {
    const url = signedUrl("/password-reset/t", 60);
    vi.useFakeTimers();
    vi.setSystemTime(Date.now() + 61_000);
    expect(hasValidSignature(url)).toBe(false);
  });
});
