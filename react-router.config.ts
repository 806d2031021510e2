import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every route's manifest entry ships once, in the build's hashed manifest module (9 KB gzip, cached), instead
  // of each document inlining the routes its path could reach: React Router matched every ancestor path against
  // all routes to compute that, 1.0-1.8 ms of CPU per document (docs/decisions/013).
  routeDiscovery: { mode: "initial" },
  future: {
    // Middleware and the typed request context: the session is read once per request (root middleware).
    v8_middleware: true,
  },
} satisfies Config;
