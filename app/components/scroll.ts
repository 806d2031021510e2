import type { Location, UIMatch } from "react-router";

/**
 * ScrollRestoration's key: by default every navigation has its own key, so a new path starts at the
 * top. Routes whose handle sets `keepScroll` share one key per group, so moving between them keeps
 * the scroll position (the spec's "routes flagged to keep scroll").
 */
export function scrollKey(location: Location, matches: UIMatch[]): string {
  const group = matches
    .map((m) => (m.handle as { keepScroll?: string } | undefined)?.keepScroll)
    .filter(Boolean)
    .pop();
  return group ? `keep-scroll:${group}` : location.key;
}
