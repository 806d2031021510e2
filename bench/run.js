// @ts-check
// `npm run bench`: every benchmark, each against baselines measured in the same run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatHttpGoals, formatHttpRun, runHttpBench } from "./http.js";
import { runPageWeight } from "./page-weight.js";
import { formatResponsiveness, measureImportResponsiveness, measureResponsiveness } from "./responsiveness.js";

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
fs.mkdirSync(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, "-");

// HTTP: every target on the default engine (the embedded PostgreSQL), then on a fresh database on a PostgreSQL
// server when BENCH_DATABASE_URL is set. On the default engine, then, responsiveness under heavy work
// (bench/responsiveness.js; BENCH_RESPONSIVENESS=false skips it).
const databases = [{ name: "embedded PostgreSQL", url: "" }];
if (process.env.BENCH_DATABASE_URL) databases.push({ name: "PostgreSQL server", url: process.env.BENCH_DATABASE_URL });
// BENCH_HTTP_ON=embedded (or server): the HTTP targets on one of them only.
const only = process.env.BENCH_HTTP_ON?.toLowerCase();
if (only) databases.splice(0, databases.length, ...databases.filter((d) => d.name.toLowerCase().includes(only)));
/** @type {Array<import("./http.js").HttpRun | { kind: "http", database: string, error: string }>} */
const httpRuns = [];
for (const database of databases) {
  try {
    const responsiveness = !database.url && process.env.BENCH_RESPONSIVENESS !== "false";
    const http = await runHttpBench(database, { afterPages: responsiveness ? measureResponsiveness : undefined });
    httpRuns.push(http);
    console.log(`\n${formatHttpRun(http)}`);
    if (responsiveness) {
      const scenarios = [...(http.more ?? []), ...(await measureImportResponsiveness())];
      console.log(`\n${formatResponsiveness(scenarios)}`);
      fs.writeFileSync(path.join(resultsDir, `responsiveness-${stamp}.json`), JSON.stringify({ at: new Date().toISOString(), scenarios }, null, 2));
    }
  } catch (error) {
    // One database failing keeps the other's figures and the benchmarks after this one.
    console.error(`\nHTTP on ${database.name} failed: ${error instanceof Error ? error.stack : error}`);
    httpRuns.push({ kind: "http", database: database.name, error: String(error) });
    process.exitCode = 1;
  }
}
if (!process.env.BENCH_DATABASE_URL) {
  console.log(
    "\nA PostgreSQL server skipped: set BENCH_DATABASE_URL to a server the bench may create a database on (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run every target there too.",
  );
}
const measuredRuns = httpRuns.filter((run) => !("error" in run));
if (measuredRuns.length) console.log(`\n${formatHttpGoals(/** @type {import("./http.js").HttpRun[]} */ (measuredRuns))}`);
const httpFile = path.join(resultsDir, `http-${stamp}.json`);
fs.writeFileSync(httpFile, JSON.stringify({ at: new Date().toISOString(), runs: httpRuns }, null, 2));
console.log(`Written: ${path.relative(process.cwd(), httpFile)}`);

// First-load JavaScript of the pages people open first (gzip), against the page-weight targets.
const weight = await runPageWeight();
console.log("\nFirst-load JavaScript (gzip, level 9, every script and modulepreload of the HTML)");
for (const page of weight.pages) {
  const goal = page.goalKb ? `  ${page.gzipBytes / 1024 <= page.goalKb ? "PASS" : "MISS"} (goal <= ${page.goalKb} KB)` : "";
  console.log(
    `${page.name.padEnd(30)} ${(page.gzipBytes / 1024).toFixed(1).padStart(6)} KB in ${page.files} files (${(page.rawBytes / 1024).toFixed(0)} KB raw)${goal}`,
  );
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

// Sales import throughput: a 200,000-line digital statement on the embedded PostgreSQL and on a
// PostgreSQL server (BENCH_DATABASE_URL), beside a raw COPY of the same file and the parse alone, in the same run (see
// bench/import-bench.ts; BENCH_IMPORT_LINES overrides the size). Writes bench/results/import-*.json.
if (process.env.BENCH_IMPORT !== "false") {
  console.log("\nSales import throughput");
  const result = spawnSync(process.execPath, ["--import", "tsx", "bench/import-bench.ts"], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}
