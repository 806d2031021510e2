import { builtinModules } from "node:module";
import { defineConfig } from "vite";

/** Builds the realtime server into build/realtime/main.js for `npm start`, `npm run realtime` and Docker. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: "realtime/src/main.ts",
    outDir: "build/realtime",
    emptyOutDir: true,
    target: "node20",
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), "ws", "ioredis", "zod"],
      output: { entryFileNames: "main.js" },
    },
  },
  logLevel: "warn",
});
