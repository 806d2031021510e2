/**
 * A server process that runs background jobs (tests/integration/job-failures.test.ts): boots the app the way
 * server/start.js does on DATABASE_URL, starts the job workers with the poison jobs registered, and answers
 * GET /healthz with a query, printing JSON lines on stdout:
 *   {"event":"listening","port":n}  {"event":"run","throws":...}
 *
 *   node --import tsx tests/integration/support/job-worker-child.ts [--retry-interrupted-runs]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { boot } from "../../../app/boot.server";
import { db } from "../../../app/db/client.server";
import { startJobWorkers } from "../../../app/modules/jobs/queue.server";
import { registerPoisonJobs } from "./poison-jobs";

process.env.SEED_DEMO_DATA = "false";
const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...event, at: Date.now() })}\n`);

registerPoisonJobs((data) => say({ event: "run", throws: data.throws }));
await boot();
// What boot({ jobWorkers: true }) does after starting the embedded PostgreSQL itself, asked for explicitly here.
await startJobWorkers({ retryInterruptedRuns: process.argv.includes("--retry-interrupted-runs"), pollingIntervalSeconds: 0.5 });

const server = http.createServer((req, res) => {
  db()
    .execute(sql`select 1`)
    .then(
      () => res.writeHead(200, { "Content-Type": "text/plain" }).end("ok"),
      () => res.writeHead(503).end("database"),
    );
});
server.listen(0, "127.0.0.1", () => say({ event: "listening", port: (server.address() as AddressInfo).port }));
