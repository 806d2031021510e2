/**
 * Every same-origin request the browser makes passes here (spec section 8): a 401 or 419 sends the
 * user to /login unless its `errors` field is 'Invalid signature.' (then the response goes on
 * unchanged); any failure tells the progress bar to finish in red.
 */
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
    if (response.status === 401 || response.status === 419) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { errors?: unknown } | null;
      if (body?.errors !== INVALID_SIGNATURE) {
        const here = `${window.location.pathname}${window.location.search}`;
        window.location.assign(`/login?${new URLSearchParams({ redirect: here })}`);
      }
    }
    return response;
  };
}
