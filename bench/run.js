// @ts-check
// `npm run bench`: every benchmark, each against a baseline measured in the same run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runHttpBench } from "./http.js";

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
fs.mkdirSync(resultsDir, { recursive: true });

const http = await runHttpBench();
console.log(`\nHTTP (${http.connections} connections, ${http.durationSeconds} s each, ${http.cpus} cores)`);
for (const row of http.rows) {
  const { measured: m, baseline: b, ratio: r } = row;
  console.log(
    `${row.target.padEnd(28)} ${String(m.requestsPerSecond).padStart(6)} req/s (x${r.requestsPerSecond} of baseline ${b.requestsPerSecond})` +
      `  p50 ${m.latencyP50Ms} ms (x${r.latencyP50} of ${b.latencyP50Ms})  p99 ${m.latencyP99Ms} ms (x${r.latencyP99} of ${b.latencyP99Ms})`,
  );
}
const file = path.join(resultsDir, `http-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...http }, null, 2));
console.log(`\nWritten: ${path.relative(process.cwd(), file)}`);

// The realtime fan-out benchmark (its own processes, bare `ws` baseline in the same run; see
// realtime/bench/realtime-bench.ts). BENCH_REALTIME_SIZES overrides the connection counts.
const sizes = (process.env.BENCH_REALTIME_SIZES ?? "1000 5000 10000").split(/[\s,]+/).filter(Boolean);
if (sizes.length && process.env.BENCH_REALTIME !== "false") {
  console.log(`\nRealtime fan-out at ${sizes.join(", ")} subscribed connections`);
  const result = spawnSync(process.execPath, ["--import", "tsx", "realtime/bench/realtime-bench.ts", ...sizes], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}
