import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const shared = {
  include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.{ts,js}", "tests/integration/**/*.test.ts"],
  setupFiles: ["tests/setup/settings.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/** Every service test runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set. */
const projects: Array<{ extends: true; test: typeof shared & { name: string; env: Record<string, string> } }> = [
  { extends: true, test: { ...shared, name: "pglite", env: { TEST_DB: "pglite" } } },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({ extends: true, test: { ...shared, name: "postgres", env: { TEST_DB: "postgres" } } });
}

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
    projects,
    pool: "forks",
  },
});
