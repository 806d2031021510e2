// @ts-check
// `npm start`: boots the app (settings, database, migrations, demo data) and serves it.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");
// React picks its production or development build from NODE_ENV at import time.
process.env.NODE_ENV ??= dev ? "development" : "production";
// Imported only now: react-router pulls in React, which must see NODE_ENV first.
const { createApp } = await import("./app.js");

/** @type {import("vite").ViteDevServer | undefined} */
let viteDevServer;
/** @type {any} */
let build;
if (dev) {
  const vite = await import("vite");
  viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  build = await viteDevServer.ssrLoadModule("virtual:react-router/server-build");
} else {
  build = await import(path.join(root, "build/server/index.js"));
}

/** @type {import("../app/boot.server").BootModule} */
const entry = build.entry.module;
const { env, demoLogins, connectSrc, formActionSrc, bodyLimitFor } = await entry.boot({ jobWorkers: true });

/**
 * The realtime server runs beside the app as its own process (as it would on its own machine), with
 * the app's realtime settings. Realtime is best effort: if it cannot start, the app still serves.
 * @type {import("node:child_process").ChildProcess | undefined}
 */
let realtime;
if (env.REALTIME_SERVER && !dev) {
  const { spawn } = await import("node:child_process");
  realtime = spawn(process.execPath, [path.join(root, "build/realtime/main.js")], {
    env: {
      ...process.env,
      APP_ENV: env.APP_ENV,
      REALTIME_APP_ID: env.REALTIME_APP_ID,
      REALTIME_KEY: env.REALTIME_KEY,
      REALTIME_SECRET: env.REALTIME_SECRET,
      REALTIME_HOST: env.REALTIME_HOST,
      REALTIME_PORT: String(env.REALTIME_PORT),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = (/** @type {Buffer} */ chunk) =>
    String(chunk)
      .trimEnd()
      .split("\n")
      .map((line) => `[realtime] ${line}`)
      .join("\n");
  realtime.stdout?.on("data", (chunk) => console.log(prefix(chunk)));
  realtime.stderr?.on("data", (chunk) => console.error(prefix(chunk)));
  realtime.on("exit", (code, signal) => {
    if (!stopping) console.error(`[realtime] stopped (${signal ?? `exit ${code}`}); live updates are off until it is restarted.`);
  });
}

const app = createApp({
  build: viteDevServer ? () => viteDevServer.ssrLoadModule("virtual:react-router/server-build") : build,
  clientDir: path.join(root, "build/client"),
  appUrl: env.APP_URL,
  trustProxy: env.TRUST_PROXY,
  secureCookies: env.isProduction && env.APP_URL.startsWith("https:"),
  viteDevServer,
  connectSrc,
  formActionSrc,
  bodyLimitFor,
  createLoadContext: entry.createLoadContext,
});

const server = app.listen(env.PORT, () => {
  console.log(`${env.APP_NAME} is running at ${env.APP_URL} (APP_ENV=${env.APP_ENV})`);
  console.log(`Database: ${entry.databaseDescription()}`);
  console.log(`Storage: ${entry.storageDescription()}`);
  if (demoLogins.length) {
    console.log("Demo logins (password: backline-demo):");
    for (const login of demoLogins) console.log(`  ${login}`);
  }
});
// Node closes an idle keep-alive socket after 5 s; a client (a proxy, a browser, a test's request
// context) that sends on it at that moment gets ECONNRESET. Idle sockets live longer than the usual
// proxy's 60 s, so it is always the client that closes first. headersTimeout must stay above it.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
/**
 * Stop taking connections, let requests in flight finish (at most 10 s), then close the database (and stop
 * the embedded PostgreSQL): closing it first would fail the requests still running.
 * @param {string} signal
 */
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(force);
  if (realtime && realtime.exitCode === null) {
    const exited = new Promise((resolve) => realtime?.once("exit", resolve));
    realtime.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
  await entry.shutdown().catch((error) => console.error(error));
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
