/**
 * The one check for every redirect and return link built from request input (the login `redirect`,
 * the bell's `redirectTo`, the offline page's `from`). Runs on the server, in the page and in the
 * service worker, so it imports nothing.
 *
 * The value is parsed the way the browser will parse it (tabs and newlines dropped, backslashes read
 * as slashes, dot-segments collapsed), and only the *final* form is judged: it must be a single "/"
 * followed by a character that is neither "/" nor "\". Checking the raw input is not enough:
 * "/./\/evil.example", "/a/..//evil.example" and "/%2e%2e//evil.example" all collapse into
 * "//evil.example", which a browser follows to another site.
 */
const BASE = "http://redirect-target.invalid";
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function redirectTarget(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || CONTROL_CHARACTERS.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  if (!/^\/(?:$|[^/\\])/.test(target)) return fallback;
  return target;
}
