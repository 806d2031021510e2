import crypto from "node:crypto";

/**
 * Test-side copies of the app's signed-URL scheme (app/modules/security/signed-url.server.ts), so tests can
 * produce links that are correctly signed but expired. Uses the fixed test SESSION_SECRET from the config.
 */
function secret() {
  const value = process.env.E2E_SESSION_SECRET;
  if (!value) throw new Error("E2E_SESSION_SECRET is not set: run the suite through playwright.config.ts");
  return value;
}

function canonical(pathname: string, params: URLSearchParams) {
  const rest = [...params.entries()].filter(([k]) => k !== "signature").sort(([a], [b]) => a.localeCompare(b));
  return `${pathname}?${new URLSearchParams(rest).toString()}`;
}

function sign(url: URL): URL {
  const key = crypto.createHmac("sha256", secret()).update("signed-url").digest();
  const signature = crypto.createHmac("sha256", key).update(canonical(url.pathname, url.searchParams)).digest("hex");
  url.searchParams.set("signature", signature);
  return url;
}

/** The same link, validly re-signed, but with an expiry in the past. */
export function expiredLink(link: string, secondsAgo = 60): string {
  const url = new URL(link);
  url.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - secondsAgo));
  return sign(url).toString();
}

/** The same link with its path and query re-signed, e.g. to point a valid signature at a different token. */
export function resignedLink(link: string, edit: (url: URL) => void): string {
  const url = new URL(link);
  edit(url);
  return sign(url).toString();
}

/** The same link with one hex digit of its signature changed. */
export function tamperedSignature(link: string): string {
  const url = new URL(link);
  const signature = url.searchParams.get("signature") ?? "";
  const last = signature.slice(-1);
  url.searchParams.set("signature", signature.slice(0, -1) + (last === "0" ? "1" : "0"));
  return url.toString();
}

/** The same signature, but a later expiry: a signature that no longer matches what it signs. */
export function extendedExpiry(link: string): string {
  const url = new URL(link);
  url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
  return url.toString();
}

/** A path plus query relative to the app (signed links in mail are absolute on APP_URL). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
