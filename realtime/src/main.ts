/**
 * Runs one realtime node from the environment:
 *   node --import tsx realtime/src/main.ts      (or: npx tsx realtime/src/main.ts)
 * Prints `realtime listening on http://host:port (node <id>)` once ready; SIGTERM/SIGINT close it
 * gracefully (a second signal exits at once).
 */
import { loadRealtimeConfig } from "./config";
import { createRealtimeServer } from "./server";

async function main(): Promise<void> {
  let options;
  try {
    options = loadRealtimeConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const server = await createRealtimeServer(options);
  const mode = options.redisUrl ? "scale-out via Redis" : "single node";
  console.log(`realtime listening on ${server.url} (node ${server.nodeId}, ${mode}, app ${options.appId})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.log(`realtime: ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.log(`realtime: ${signal}, closing ${server.connectionCount()} connection(s)`);
    server.close().then(
      () => process.exit(0),
      (err: Error) => {
        console.error(`realtime: close failed: ${err.message}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err: Error) => {
  console.error(`realtime: failed to start: ${err.stack ?? err.message}`);
  process.exit(1);
});
