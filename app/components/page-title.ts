import type { MetaDescriptor } from "react-router";

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

/** What an area layout's loader returns so every page title inside it follows the area's pattern. */
export interface AreaTitle {
  /** Member area: the member's full name comes first. */
  prefix?: string;
  /** Admin area: "Admin Area" before the product name. */
  suffix?: string;
}

/**
 * Page titles:
 *   public  `[page title | ]route title | Backline`
 *   admin   `[page title | ]route title | Admin Area | Backline`
 *   member  `Full Name | [page title | ]route title | Backline`
 * `parts` are the page title (optional) and the route title; the area comes from its layout's data.
 */
export function pageTitle(matches: ReadonlyArray<MatchLike | undefined>, ...parts: Array<string | undefined | null>) {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { appName?: string } | undefined;
  const area = matches.map((m) => (m?.loaderData as { areaTitle?: AreaTitle } | undefined)?.areaTitle).find(Boolean);
  const title = [area?.prefix, ...parts, area?.suffix, root?.appName ?? "Backline"].filter((p): p is string => Boolean(p)).join(" | ");
  return [{ title }] satisfies MetaDescriptor[];
}
