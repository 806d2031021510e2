import { describe, expect, it } from "vitest";
import { redirectTarget } from "./redirect-target";

describe("redirectTarget", () => {
  it.each([
    ["/member/3/dashboard?tab=1", "/member/3/dashboard?tab=1"],
    ["/legal-terms/privacy-policy#top", "/legal-terms/privacy-policy#top"],
    ["/", "/"],
    // Dot-segments inside a path are fine as long as the result stays a single-slash path.
    ["/a/../member/3", "/member/3"],
  ])("follows the same-origin path %s", (input, expected) => {
    expect(redirectTarget(input, "/fallback")).toBe(expected);
  });

  // The probe's variants: each collapses, after the browser's own normalisation, into "//evil.example".
  it.each([
    "/.//evil.example",
    "/a/..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example",
    "/./\\evil.example",
    "/.\\/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "\\\\evil.example",
    "https://evil.example/x",
    "http:/evil.example",
    "javascript:alert(1)",
    "/x\u0000y",
    "",
    null,
    undefined,
    42,
  ])("refuses %j", (input) => {
    expect(redirectTarget(input, "/fallback")).toBe("/fallback");
  });

  it("never returns anything a browser would read as another origin", () => {
    const pieces = ["/", "\\", ".", "..", "%2e", "%2f", "%5c", "evil.example", "a"];
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const target = redirectTarget(`/${a}${b}${c}`, "/fallback");
          expect(new URL(target, "https://backline.example").origin, `/${a}${b}${c} -> ${target}`).toBe("https://backline.example");
          expect(target).toMatch(/^\/(?:$|[^/\\])/);
        }
  });
});
