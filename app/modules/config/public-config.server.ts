import type { AnalyticsConfig } from "~/components/analytics";
import { env, type Env } from "~/env.server";
import pkg from "../../../package.json";

export const APP_VERSION: string = pkg.version;

export function analyticsConfig(settings: Env = env()): AnalyticsConfig | null {
  if (settings.ANALYTICS_PLAUSIBLE_DOMAIN) {
    return { provider: "plausible", id: settings.ANALYTICS_PLAUSIBLE_DOMAIN, endpoint: settings.ANALYTICS_ENDPOINT };
  }
  if (settings.ANALYTICS_GA4_ID) return { provider: "ga4", id: settings.ANALYTICS_GA4_ID, endpoint: "" };
  return null;
}

/** What the browser's laravel-echo / pusher-js client needs (never the secret). */
export interface RealtimeClientConfig {
  key: string;
  wsHost: string;
  wsPort: number;
  forceTLS: boolean;
}

export function realtimeClientConfig(settings: Env = env()): RealtimeClientConfig {
  if (settings.REALTIME_CLIENT_URL) {
    const url = new URL(settings.REALTIME_CLIENT_URL);
    const tls = url.protocol === "wss:" || url.protocol === "https:";
    return { key: settings.REALTIME_KEY, wsHost: url.hostname, wsPort: Number(url.port) || (tls ? 443 : 80), forceTLS: tls };
  }
  return {
    key: settings.REALTIME_KEY,
    wsHost: settings.REALTIME_HOST,
    wsPort: settings.REALTIME_PORT,
    forceTLS: settings.REALTIME_SCHEME === "https",
  };
}

/** Origins the browser may connect to besides the app itself (the CSP's connect-src). */
/**
 * Origins a form of ours may lead to (the CSP's form-action, beside 'self'): with Stripe configured, starting
 * Stripe onboarding posts to our own action, which redirects to Stripe's hosted onboarding, and browsers apply
 * form-action to that redirect. Stripe's is connect.stripe.com; a configured STRIPE_API_BASE (the tests'
 * stand-in) serves its onboarding pages itself.
 */
export function extraFormActionSources(settings: Env = env()): string[] {
  if (!settings.STRIPE_SECRET_KEY) return [];
  return [settings.STRIPE_API_BASE ? new URL(settings.STRIPE_API_BASE).origin : "https://connect.stripe.com"];
}

export function extraConnectSources(settings: Env = env()): string[] {
  const realtime = realtimeClientConfig(settings);
  const sources = [`${realtime.forceTLS ? "wss" : "ws"}://${realtime.wsHost}:${realtime.wsPort}`];
  const analytics = analyticsConfig(settings);
  if (analytics?.provider === "plausible") sources.push(new URL(analytics.endpoint).origin);
  if (analytics?.provider === "ga4") {
    sources.push("https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.googletagmanager.com");
  }
  return sources;
}
