import { useSearchParams } from "react-router";
import { useHydrated } from "~/components/hydrated";
import { pageTitle } from "~/components/page-title";
import { safeReturnPath } from "~/sw/cache-rules";
import type { Route } from "./+types/offline";

/**
 * What the service worker shows when a page cannot be reached. It has no loader: its HTML is stored
 * by the worker at install (rendered without a session) and served from there when the network fails.
 */
export const handle = { routeName: "offline" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Offline");

export default function OfflineRoute() {
  const [params] = useSearchParams();
  // The stored HTML was rendered for /offline alone: read the page to go back to only in the browser.
  const hydrated = useHydrated();
  const back = hydrated ? safeReturnPath(params.get("from")) : "/";
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto size-12 fill-none stroke-brand-800 stroke-2">
        <path d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M12 19h.01M3 3l18 18" strokeLinecap="round" />
      </svg>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">You are offline</h1>
      <p className="mt-4 text-stone-600">This page cannot be loaded without a network connection. Check your connection, then try again.</p>
      {/* A full page load, not a client-side navigation: the page's data has to come from the server. */}
      <a href={back} className="mt-8 inline-block rounded-md bg-brand-900 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        Try again
      </a>
    </div>
  );
}
