import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";

/**
 * Uploads sent with progress (app/components/progress-upload.tsx): the page's script posts the same multipart
 * form with XMLHttpRequest, whose upload events a fetch does not give, and marks it with this header. The action
 * runs as for a plain form post; only its answer is translated to JSON the script reads: a redirect becomes
 * `{ location }` (its Set-Cookie, the flash message, kept), a form's reply `{ result }` with its status. Without
 * the header (no JavaScript) the answer is left as it is: the form works without JavaScript.
 */
export const PROGRESS_UPLOAD_HEADER = "X-Backline-Upload";

export type ProgressUploadAnswer = { location: string } | { result: unknown };

export function isProgressUpload(request: Request): boolean {
  return request.headers.get(PROGRESS_UPLOAD_HEADER) === "progress";
}

export function progressUploadAnswer<T extends { result: unknown }>(request: Request, outcome: Response | DataWithResponseInit<T>): Response | DataWithResponseInit<T> {
  if (!isProgressUpload(request)) return outcome;
  if (outcome instanceof Response) {
    const location = outcome.headers.get("Location");
    if (outcome.status < 300 || outcome.status >= 400 || !location) return outcome;
    const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
    for (const cookie of outcome.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return new Response(JSON.stringify({ location } satisfies ProgressUploadAnswer), { status: 200, headers });
  }
  const init = outcome.init ?? {};
  return new Response(JSON.stringify({ result: outcome.data.result } satisfies ProgressUploadAnswer), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
