import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * Builds the app's worker threads into build/workers/ for `npm start` and Docker (the server bundle starts them
 * from there; under tsx they run from their source). Everything but Node's own modules is bundled in.
 */
export default defineConfig({
  publicDir: false,
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    ssr: "app/modules/ledger/imports/statement-reader.worker.ts",
    outDir: "build/workers",
    emptyOutDir: true,
    target: "node20",
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: { entryFileNames: "statement-reader.js" },
    },
  },
  ssr: { noExternal: true },
  logLevel: "warn",
});
