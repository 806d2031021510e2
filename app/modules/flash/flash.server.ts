import { createCookie, redirect, type Cookie } from "react-router";
import { env } from "~/env.server";

/** A one-shot message shown on the next page (a short-lived signed cookie: no session row needed). */
export interface FlashMessage {
  kind: "success" | "info" | "error";
  message: string;
}

let cookie: Cookie | undefined;
function flashCookie(): Cookie {
  cookie ??= createCookie("backline_flash", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().isProduction,
    path: "/",
    maxAge: 60,
    secrets: [env().SESSION_SECRET],
  });
  return cookie;
}

export async function flashHeader(flash: FlashMessage): Promise<string> {
  return flashCookie().serialize(flash);
}

export async function redirectWithFlash(url: string, flash: FlashMessage, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashHeader(flash));
  return redirect(url, { ...init, headers });
}

/** Reads the pending message, and the header that clears it once shown. */
export async function readFlash(request: Request): Promise<{ flash: FlashMessage | null; clearHeader?: string }> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("backline_flash=")) return { flash: null };
  const value = (await flashCookie().parse(header)) as FlashMessage | null;
  return { flash: value ?? null, clearHeader: await flashCookie().serialize("", { maxAge: 0 }) };
}

/**
 * After a form was handled successfully: back to `path` with a `?done=<id>` marker and the message.
 * Only a success carries the marker, so `useFormResetKey` empties the form then and never after an error.
 */
export function redirectAfterSuccess(path: string, doneId: string | number, message: string): Promise<Response> {
  return redirectWithFlash(`${path}?done=${encodeURIComponent(String(doneId))}`, { kind: "success", message });
}
