import { describe, expect, it } from "vitest";
import { cacheNames, mayCache, offlineUrl, pagePathFromDataUrl, requestKind, safeReturnPath, staleCaches, type ResponseLike } from "./cache-rules";

const ORIGIN = "https://backline.example";
const get = (path: string, mode = "cors") => ({ method: "GET", url: `${ORIGIN}${path}`, mode });

function response(status = 200, headers: Record<string, string> = {}, type = "basic"): ResponseLike {
  return { status, type, headers: new Headers(headers) };
}

describe("requestKind", () => {
  it("sends same-origin GET navigations to the network-first handler, whatever the path", () => {
    expect(requestKind(get("/member/3/dashboard", "navigate"), ORIGIN)).toBe("navigate");
    expect(requestKind(get("/", "navigate"), ORIGIN)).toBe("navigate");
  });

  it("recognises built assets, public images and single-fetch data", () => {
    expect(requestKind(get("/assets/root-abc123.js"), ORIGIN)).toBe("asset");
    expect(requestKind(get("/storage/images/avatars/0123/256x256.webp", "no-cors"), ORIGIN)).toBe("image");
    expect(requestKind(get("/member/3/dashboard.data?_routes=root"), ORIGIN)).toBe("data");
  });

  it("leaves everything else to the browser: other methods, origins, /api, /broadcasting", () => {
    expect(requestKind({ method: "POST", url: `${ORIGIN}/logout`, mode: "navigate" }, ORIGIN)).toBeNull();
    expect(requestKind({ method: "POST", url: `${ORIGIN}/assets/x.js` }, ORIGIN)).toBeNull();
    expect(requestKind({ method: "GET", url: "https://cdn.example/assets/x.js" }, ORIGIN)).toBeNull();
    expect(requestKind({ method: "GET", url: "http://backline.example/assets/x.js" }, ORIGIN)).toBeNull();
    expect(requestKind(get("/api/config"), ORIGIN)).toBeNull();
    expect(requestKind(get("/broadcasting/auth"), ORIGIN)).toBeNull();
    expect(requestKind(get("/favicon.svg"), ORIGIN)).toBeNull();
    expect(requestKind({ method: "GET", url: "chrome-extension://abc/x.js" }, ORIGIN)).toBeNull();
  });
});

describe("mayCache", () => {
  it("admits a plain 200 for an asset, a public image and the offline page", () => {
    expect(mayCache(get("/assets/root-abc.js"), response(200, { "cache-control": "public, max-age=31536000, immutable" }), ORIGIN)).toBe(true);
    expect(mayCache(get("/storage/images/avatars/0123/64x64.webp"), response(200, { "cache-control": "public, max-age=31536000, immutable" }), ORIGIN)).toBe(
      true,
    );
    expect(mayCache(get("/offline"), response(200, { "content-type": "text/html" }), ORIGIN)).toBe(true);
    expect(mayCache(get("/assets/x.css"), response(200, {}, "default"), ORIGIN)).toBe(true);
  });

  it("never stores private paths, whatever their headers say", () => {
    const ok = response(200, { "cache-control": "public, max-age=60" });
    for (const path of [
      "/api/config",
      "/api/members/3/dashboard/profiles",
      "/api/broadcasting/auth",
      "/member/3/dashboard.data",
      "/_root.data",
      "/assets/../api/config.data",
      "/broadcasting/auth",
      "/broadcasting/user-auth",
      "/logout",
      "/__manifest?paths=/x",
    ]) {
      expect(mayCache(get(path), ok, ORIGIN), path).toBe(false);
    }
  });

  it("never stores pages: they may show the signed-in user", () => {
    expect(mayCache(get("/", "navigate"), response(), ORIGIN)).toBe(false);
    expect(mayCache(get("/member/3/dashboard", "navigate"), response(), ORIGIN)).toBe(false);
    expect(mayCache(get("/login"), response(), ORIGIN)).toBe(false);
  });

  it("refuses responses that set a cookie or are private or no-store", () => {
    expect(mayCache(get("/assets/a.js"), response(200, { "set-cookie": "backline_session=x" }), ORIGIN)).toBe(false);
    expect(mayCache(get("/storage/images/a/b/c.webp"), response(200, { "cache-control": "private, max-age=60" }), ORIGIN)).toBe(false);
    expect(mayCache(get("/offline"), response(200, { "cache-control": "no-store" }), ORIGIN)).toBe(false);
    expect(mayCache(get("/offline"), response(200, { "Cache-Control": "max-age=0, No-Store" }), ORIGIN)).toBe(false);
    expect(mayCache(get("/assets/a.js"), response(200, { vary: "*" }), ORIGIN)).toBe(false);
  });

  it("refuses POSTs, other origins, errors, redirects and opaque responses", () => {
    expect(mayCache({ method: "POST", url: `${ORIGIN}/assets/a.js` }, response(), ORIGIN)).toBe(false);
    expect(mayCache({ method: "GET", url: "https://cdn.example/assets/a.js" }, response(), ORIGIN)).toBe(false);
    expect(mayCache(get("/assets/a.js"), response(404), ORIGIN)).toBe(false);
    expect(mayCache(get("/assets/a.js"), response(206), ORIGIN)).toBe(false);
    expect(mayCache(get("/offline"), response(302, { location: "/login" }), ORIGIN)).toBe(false);
    expect(mayCache(get("/storage/images/a/b/c.webp"), response(0, {}, "opaque"), ORIGIN)).toBe(false);
    expect(mayCache(get("/offline"), response(0, {}, "opaqueredirect"), ORIGIN)).toBe(false);
  });
});

describe("cache names and stale caches", () => {
  it("versions the precache and the assets by build, and deletes only our other caches", () => {
    const current = cacheNames("abc123");
    expect(current.precache).toBe("backline-precache-abc123");
    expect(current.assets).toBe("backline-assets-abc123");
    const existing = ["backline-precache-old999", "backline-assets-old999", current.precache, current.assets, current.images, "someone-elses-cache"];
    expect(staleCaches(existing, Object.values(current))).toEqual(["backline-precache-old999", "backline-assets-old999"]);
  });
});

describe("offline fallback URLs", () => {
  it("maps single-fetch URLs back to the page they load", () => {
    expect(pagePathFromDataUrl(`${ORIGIN}/member/3/dashboard.data?_routes=routes%2Fmember`)).toBe("/member/3/dashboard");
    expect(pagePathFromDataUrl(`${ORIGIN}/_root.data`)).toBe("/");
    expect(pagePathFromDataUrl(`${ORIGIN}/admin/members.data?q=ada&page=2&_routes=x`)).toBe("/admin/members?q=ada&page=2");
    expect(pagePathFromDataUrl(`${ORIGIN}/admin/_.data`)).toBe("/admin/");
  });

  it("remembers the page asked for, except the start page and the offline page itself", () => {
    expect(offlineUrl("/member/3/dashboard?tab=x")).toBe("/offline?from=%2Fmember%2F3%2Fdashboard%3Ftab%3Dx");
    expect(offlineUrl("/")).toBe("/offline");
    expect(offlineUrl("/offline?from=%2Fx")).toBe("/offline");
  });

  it("only goes back to a path on this site", () => {
    expect(safeReturnPath("/member/3/dashboard?tab=x#top")).toBe("/member/3/dashboard?tab=x#top");
    expect(safeReturnPath(null)).toBe("/");
    expect(safeReturnPath("")).toBe("/");
    expect(safeReturnPath("https://evil.example/")).toBe("/");
    expect(safeReturnPath("//evil.example/")).toBe("/");
    expect(safeReturnPath("/\\evil.example/")).toBe("/");
    expect(safeReturnPath("/\t/evil.example/")).toBe("/");
    expect(safeReturnPath("javascript:alert(1)")).toBe("/");
  });
});
