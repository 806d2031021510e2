import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

export interface AnalyticsConfig {
  provider: "plausible" | "ga4";
  /** Plausible: the site domain; GA4: the measurement id. */
  id: string;
  /** Where Plausible events go (a self-hosted or local stand-in instance). */
  endpoint: string;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

/**
 * Page views, reported by hand: no automatic page views, one event per path change, and a repeated
 * same path skipped. Nothing loads or is sent when no analytics id is configured.
 */
export function Analytics({ config }: { config: AnalyticsConfig | null }) {
  const location = useLocation();
  const lastPath = useRef<string | null>(null);

  useEffect(() => {
    if (!config) return;
    if (lastPath.current === location.pathname) return;
    lastPath.current = location.pathname;
    sendPageView(config, location.pathname);
  }, [config, location.pathname]);

  return null;
}

let gtagLoaded = false;

function sendPageView(config: AnalyticsConfig, pathname: string) {
  const url = `${window.location.origin}${pathname}`;
  if (config.provider === "plausible") {
    void fetch(`${config.endpoint.replace(/\/+$/, "")}/api/event`, {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ name: "pageview", url, domain: config.id, referrer: document.referrer || null }),
    }).catch(() => {});
    return;
  }
  if (!gtagLoaded) {
    gtagLoaded = true;
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag("js", new Date());
    window.gtag("config", config.id, { send_page_view: false });
    const script = document.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(config.id)}`;
    document.head.appendChild(script);
  }
  window.gtag?.("event", "page_view", { page_location: url, page_path: pathname });
}
