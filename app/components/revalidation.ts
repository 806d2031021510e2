import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * The caching rules of the product specification, as shouldRevalidate: data is reused across navigations unless
 * something was submitted, the member id changed, or the same URL is explicitly reloaded
 * (a revalidation after a realtime event, or a navigation to the page already shown).
 */
export function reuseUnlessChanged(args: ShouldRevalidateFunctionArgs, param?: string): boolean {
  if (args.formMethod && args.formMethod.toUpperCase() !== "GET") return args.defaultShouldRevalidate;
  if (param && args.currentParams[param] !== args.nextParams[param]) return true;
  if (args.currentUrl.href === args.nextUrl.href) return args.defaultShouldRevalidate;
  return false;
}
