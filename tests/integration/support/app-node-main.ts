/**
 * An app node (tests/integration/support/app-node.mjs loads this): boots the app as server/start.js does, on
 * DATABASE_URL with its job workers and cache bus, serves it on a free port, and prints JSON lines on stdout:
 *   {"event":"listening","origin":"http://127.0.0.1:n"}   {"event":"probe-run","node":"A","id":"…"}
 * It reads commands as JSON lines on stdin (what an admin or a request would do on this node):
 *   {"do":"set-config","key":"k","value":"v"}   {"do":"enqueue-probe"}   {"do":"stop"}
 * and answers each with {"event":"done","do":…}.
 */
import readline from "node:readline";
import { boot, shutdown } from "~/boot.server";
import { setConfigValue } from "~/modules/config/config.server";
import { enqueueJob, registerJobHandler } from "~/modules/jobs/queue.server";
import { startAppServer } from "../../helpers/app-server";

export const PROBE_JOB = "two-nodes.probe";
const node = process.env.NODE_NAME ?? "?";
const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...event, node, at: Date.now() })}\n`);

export async function run(onStopped: () => Promise<void>): Promise<void> {
  // A job of the test's own, registered on both nodes: each prints its runs.
  registerJobHandler(PROBE_JOB, async (_data, job) => {
    say({ event: "probe-run", id: job.id });
  });
  await boot({ jobWorkers: true });
  const server = await startAppServer();
  say({ event: "listening", origin: server.origin });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await shutdown();
    await onStopped();
    say({ event: "stopped" });
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { do: string; key?: string; value?: unknown };
    if (command.do === "set-config") await setConfigValue(command.key!, command.value);
    else if (command.do === "enqueue-probe") say({ event: "enqueued", id: await enqueueJob(PROBE_JOB, {}) });
    else if (command.do === "stop") await stop();
    say({ event: "done", do: command.do });
  }
}
