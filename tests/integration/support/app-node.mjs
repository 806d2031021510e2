// @ts-check
/**
 * One app node for the two-node test (tests/integration/two-nodes.test.ts), in a process of its own: Vite's module
 * runner loads the app's source as Vitest does (no build needed), and app-node-main.ts boots it on DATABASE_URL and
 * serves it. Vite's cache goes to a temporary folder of this node's, never into node_modules.
 *
 *   node tests/integration/support/app-node.mjs   (settings from the environment)
 */
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-node-vite-"));
// vitest.config.ts's "~" alias, without its react-router alias: here Node itself loads react-router for the app and
// for the Express adapter alike (one copy, as in the production build).
const vite = await createServer({
  root,
  configFile: false,
  resolve: { alias: [{ find: "~", replacement: path.join(root, "app") }] },
  cacheDir,
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const main = await vite.ssrLoadModule("/tests/integration/support/app-node-main.ts");
await main.run(async () => {
  await vite.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});
