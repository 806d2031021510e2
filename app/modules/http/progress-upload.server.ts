import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";

/**
 * Uploads sent with progress (app/components/progress-upload.tsx): the page's script posts the same multipart form
 * with XMLHttpRequest (a fetch reports no upload progress) to a resource route beside the page, which runs the
 * page's own action code and answers JSON the script reads: a redirect becomes `{ location }` (its Set-Cookie, the
 * flash message, kept), a form's reply `{ result }` with its status. Without JavaScript the form posts to the page
 * itself and works as any other.
 */
export type ProgressUploadAnswer = { location: string } | { result: unknown };

export function progressUploadAnswer<T extends { result: unknown }>(outcome: Response | DataWithResponseInit<T>): Response {
  const json = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (outcome instanceof Response) {
    const location = outcome.headers.get("Location");
    if (outcome.status < 300 || outcome.status >= 400 || !location) return outcome;
    const headers = new Headers(json);
    for (const cookie of outcome.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return new Response(JSON.stringify({ location } satisfies ProgressUploadAnswer), { status: 200, headers });
  }
  return new Response(JSON.stringify({ result: outcome.data.result } satisfies ProgressUploadAnswer), { status: outcome.init?.status ?? 200, headers: json });
}
