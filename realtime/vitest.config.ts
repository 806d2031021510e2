import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The realtime server's own suite: `npx vitest run --config realtime/vitest.config.ts` from the repo root. */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    // Two cores: a couple of files at a time keeps timings honest.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
