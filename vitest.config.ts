import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: "~", replacement: fileURLToPath(new URL("./app", import.meta.url)) },
      // Node loads react-router's ESM build for the Express adapter (the "module-sync" condition), while
      // Vitest would hand the app its CommonJS build: two copies, and the request context would fail React
      // Router's instanceof check. Both get the ESM build.
      { find: /^react-router$/, replacement: fileURLToPath(new URL("./node_modules/react-router/dist/development/index.mjs", import.meta.url)) },
    ],
  },
  test: {
    // One engine, PostgreSQL (decision 003): the embedded server the product runs on, or TEST_DATABASE_URL's.
    name: "postgres",
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,js}", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/database-server.ts"],
    setupFiles: ["tests/setup/settings.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
