/**
 * Every same-origin request the browser makes passes here: a 401 or 419 sends the
 * user to /login unless its `errors` field is 'Invalid signature.' (then the response goes on
 * unchanged), and so does the API's 403 for a user who has not agreed to the legal documents (the
 * login page lists them); any failure tells the progress bar to finish in red.
 */
import { LEGAL_AGREEMENT_REQUIRED } from "~/modules/legal/legal-gate";

export const REQUEST_FAILED_EVENT = "backline:request-failed";
const INVALID_SIGNATURE = "Invalid signature.";

let installed = false;
let socketId: string | undefined;

/** The realtime socket of this page: sent as X-Socket-Id so a broadcast can skip its sender. */
export function setSocketId(id: string | undefined) {
  socketId = id;
}

export function installHttpInterceptor() {
  if (installed || typeof window === "undefined") return;
  installed = true;
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    const sameOrigin = url.origin === window.location.origin;
    if (sameOrigin && socketId) {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      headers.set("X-Socket-Id", socketId);
      init = { ...init, headers };
    }
    const response = await originalFetch(input, init);
    if (!sameOrigin) return response;
    if (response.status >= 400) {
      window.dispatchEvent(new CustomEvent(REQUEST_FAILED_EVENT, { detail: { status: response.status, url: url.pathname } }));
    }
    if (response.status === 401 || response.status === 419 || response.status === 403) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { errors?: unknown } | null;
      const toLogin = response.status === 403 ? body?.errors === LEGAL_AGREEMENT_REQUIRED : body?.errors !== INVALID_SIGNATURE;
      if (toLogin) {
        const here = `${window.location.pathname}${window.location.search}`;
        window.location.assign(`/login?${new URLSearchParams({ redirect: here })}`);
      }
    }
    return response;
  };
}
