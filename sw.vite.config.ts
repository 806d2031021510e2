import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { precacheManifest, readBuiltAssets } from "./app/sw/precache-manifest";

/**
 * Builds the service worker (app/sw/sw.ts) into build/client/sw.js, after `react-router build`:
 * the list of built assets to precache and the build hash are read from build/client/assets and
 * injected as `__PRECACHE_MANIFEST__`, so every deploy with new assets ships a new worker.
 */
const root = path.dirname(fileURLToPath(import.meta.url));
const clientDir = path.join(root, "build/client");

export default defineConfig({
  publicDir: false,
  define: { __PRECACHE_MANIFEST__: JSON.stringify(precacheManifest(readBuiltAssets(clientDir))) },
  build: {
    outDir: clientDir,
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      input: path.join(root, "app/sw/sw.ts"),
      // A classic script: registered without { type: "module" }, it runs in every browser.
      output: { format: "iife", entryFileNames: "sw.js" },
    },
  },
  logLevel: "warn",
});
