import crypto from "node:crypto";
import { env } from "~/env.server";

/** The answer to any tampered or expired signed link. */
export const INVALID_SIGNATURE = "Invalid signature.";

function signingKey() {
  return crypto.createHmac("sha256", env().SESSION_SECRET).update("signed-url").digest();
}

function canonical(pathname: string, params: URLSearchParams) {
  const rest = [...params.entries()].filter(([k]) => k !== "signature").sort(([a], [b]) => a.localeCompare(b));
  return `${pathname}?${new URLSearchParams(rest).toString()}`;
}

/** An absolute URL on APP_URL that expires after `ttlSeconds`, signed over its path and query. */
export function signedUrl(pathname: string, ttlSeconds: number, query: Record<string, string> = {}): string {
  const params = new URLSearchParams(query);
  params.set("expires", String(Math.floor(Date.now() / 1000) + ttlSeconds));
  const signature = crypto.createHmac("sha256", signingKey()).update(canonical(pathname, params)).digest("hex");
  params.set("signature", signature);
  return `${env().APP_URL}${pathname}?${params.toString()}`;
}

/** True when the request URL carries a valid, unexpired signature. */
export function hasValidSignature(url: string | URL): boolean {
  const parsed = typeof url === "string" ? new URL(url) : url;
  const signature = parsed.searchParams.get("signature") ?? "";
  const expires = Number(parsed.searchParams.get("expires"));
  if (!/^[0-9a-f]{64}$/.test(signature) || !Number.isInteger(expires)) return false;
  if (expires < Date.now() / 1000) return false;
  const expected = crypto.createHmac("sha256", signingKey()).update(canonical(parsed.pathname, parsed.searchParams)).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
