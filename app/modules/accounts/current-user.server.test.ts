import { describe, expect, it } from "vitest";
import { afterLoginTarget, loginPathFor } from "./current-user.server";

describe("afterLoginTarget", () => {
  it.each([
    ["/member/3/dashboard?tab=1", "/member/3/dashboard?tab=1"],
    ["/legal-terms/privacy-policy#top", "/legal-terms/privacy-policy#top"],
  ])("follows the same-origin path %s", (input, expected) => {
    expect(afterLoginTarget(input, "/fallback")).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/x",
    "javascript:alert(1)",
    "",
    "/login",
    "/logout",
    "/login?redirect=%2Fx",
    "/a/../logout",
    "/.//evil.example",
    null,
  ])("ignores %s", (input) => {
    expect(afterLoginTarget(input, "/fallback")).toBe("/fallback");
  });
});

describe("loginPathFor", () => {
  it("carries the full path with its query", () => {
    expect(loginPathFor(new Request("http://x/member/1/songs?page=2"))).toBe("/login?redirect=%2Fmember%2F1%2Fsongs%3Fpage%3D2");
  });
  it("leaves the value empty when the path already carries a redirect", () => {
    expect(loginPathFor(new Request("http://x/admin/members?redirect=%2Fx"))).toBe("/login?redirect=");
  });
});
