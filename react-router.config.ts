import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Middleware and the typed request context: the session is read once per request (root middleware).
    v8_middleware: true,
  },
} satisfies Config;
