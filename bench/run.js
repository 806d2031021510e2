// @ts-check
// `npm run bench`: every benchmark, each against baselines measured in the same run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runHttpBench } from "./http.js";
import { runPageWeight } from "./page-weight.js";

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
fs.mkdirSync(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");

/**
 * The goals of issue 15, read from the figures (never asserted by a timed test): the member dashboard at
 * >= 0.5x the requests/s of GET /login with p99 under 100 ms, the directory over 10,000 profiles >= 0.4x.
 * @param {{ target: string, ratioToLogin: { requestsPerSecond: number }, measured: { latencyP99Ms: number } }} row
 */
function goalOf(row) {
  if (row.target.startsWith("GET /member/{id}/dashboard")) {
    const met = row.ratioToLogin.requestsPerSecond >= 0.5 && row.measured.latencyP99Ms < 100;
    return `${met ? "PASS" : "MISS"} (goal >= 0.5x /login, p99 < 100 ms)`;
  }
  if (row.target.startsWith("directory")) {
    return `${row.ratioToLogin.requestsPerSecond >= 0.4 ? "PASS" : "MISS"} (goal >= 0.4x /login)`;
  }
  return "";
}

const databases = [{ name: "PGlite", url: "" }];
if (process.env.BENCH_DATABASE_URL) databases.push({ name: "PostgreSQL", url: process.env.BENCH_DATABASE_URL });
const httpRuns = [];
for (const database of databases) {
  const http = await runHttpBench(database);
  httpRuns.push(http);
  console.log(`\nHTTP on ${http.database} (${http.connections} connections, ${http.durationSeconds} s each, ${http.cpus} cores)`);
  for (const row of http.rows) {
    const { measured: m, baseline: b, login: l, ratio: r, ratioToLogin: rl } = row;
    console.log(
      `${row.target.padEnd(30)} ${String(m.requestsPerSecond).padStart(5)} req/s` +
        ` = x${rl.requestsPerSecond} of /login ${l.requestsPerSecond}, x${r.requestsPerSecond} of /healthz ${b.requestsPerSecond}` +
        `  p50 ${m.latencyP50Ms} ms  p99 ${m.latencyP99Ms} ms (x${rl.latencyP99} of /login's ${l.latencyP99Ms})` +
        `  stmts ${row.statements ?? "n/a"}  ${goalOf(row)}`,
    );
  }
}
if (!process.env.BENCH_DATABASE_URL) {
  console.log("\nPostgreSQL skipped: set BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run every target there too.");
}
const httpFile = path.join(resultsDir, `http-${stamp}.json`);
fs.writeFileSync(httpFile, JSON.stringify({ at: new Date().toISOString(), runs: httpRuns }, null, 2));
console.log(`\nWritten: ${path.relative(process.cwd(), httpFile)}`);

// First-load JavaScript of the pages people open first (gzip), against the issue 15 targets.
const weight = await runPageWeight();
console.log("\nFirst-load JavaScript (gzip, level 9, every script and modulepreload of the HTML)");
for (const page of weight.pages) {
  const goal = page.goalKb ? `  ${page.gzipBytes / 1024 <= page.goalKb ? "PASS" : "MISS"} (goal <= ${page.goalKb} KB)` : "";
  console.log(`${page.name.padEnd(30)} ${(page.gzipBytes / 1024).toFixed(1).padStart(6)} KB in ${page.files} files (${(page.rawBytes / 1024).toFixed(0)} KB raw)${goal}`);
}
const weightFile = path.join(resultsDir, `page-weight-${stamp}.json`);
fs.writeFileSync(weightFile, JSON.stringify({ at: new Date().toISOString(), ...weight }, null, 2));
console.log(`Written: ${path.relative(process.cwd(), weightFile)}`);

// The realtime fan-out benchmark (its own processes, bare `ws` baseline in the same run; see
// realtime/bench/realtime-bench.ts). BENCH_REALTIME_SIZES overrides the connection counts.
const sizes = (process.env.BENCH_REALTIME_SIZES ?? "1000 5000 10000").split(/[\s,]+/).filter(Boolean);
if (sizes.length && process.env.BENCH_REALTIME !== "false") {
  console.log(`\nRealtime fan-out at ${sizes.join(", ")} subscribed connections`);
  const result = spawnSync(process.execPath, ["--import", "tsx", "realtime/bench/realtime-bench.ts", ...sizes], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}
