// @ts-check
// Does heavy work hold up everyone else? On the running bench server (bench/http.js, over the seeded ledger):
// a member's dashboard polled every 200 ms while an administrator loads the heaviest report over and over
// (the admin's digital sales detail of the demo artist). On a server of its own with the demo data: GET /login
// polled every 200 ms while a 200,000-line statement is uploaded and imported by its job. Each poll's wait
// is recorded; the goal is that none waits more than 1 s. The same polls on the idle server, just before,
// are the baseline.
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { BASE, login, serverEnv, startServer, stopServer } from "./http.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const POLL_MS = 200;
const LIMIT_MS = 1000;
const IDLE_SECONDS = 5;
const IMPORT_LINES = Number(process.env.BENCH_RESPONSIVENESS_LINES ?? 200_000);
const REPORT_SECONDS = Number(process.env.BENCH_REPORT_SECONDS ?? 20);
const MATCH_LINES = Number(process.env.BENCH_MATCH_LINES ?? 40_000);
/** The one unknown ISRC of the suspense match's statement (bench/write-statement.ts never writes it). */
const MATCH_ISRC = "GBXXX2699999";

/** @typedef {{ polls: number, p50Ms: number, p99Ms: number, maxMs: number, failed: number }} Polled */
/**
 * @typedef {{ name: string, polled: string, idle: Polled, during: Polled, work: string, met: boolean } | { name: string, skipped: string }} Scenario
 */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {number[]} samples @param {number} failed @returns {Polled} */
function summary(samples, failed) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { polls: samples.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(sorted.at(-1) ?? 0), failed };
}

/** Requests `urlPath` every 200 ms (the next one when the last answered, if it took longer) until stopped. @param {string} urlPath @param {Record<string, string>} headers */
function poll(urlPath, headers) {
  /** @type {number[]} */
  const samples = [];
  let failed = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await fetch(`${BASE}${urlPath}`, { headers, redirect: "manual" });
        await response.arrayBuffer();
        if (!response.ok) failed += 1;
      } catch {
        failed += 1;
      }
      const took = performance.now() - started;
      samples.push(took);
      if (took < POLL_MS) await sleep(POLL_MS - took);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return summary(samples, failed);
    },
  };
}

/** @param {string} urlPath @param {Record<string, string>} headers */
async function idleBaseline(urlPath, headers) {
  const polling = poll(urlPath, headers);
  await sleep(IDLE_SECONDS * 1000);
  return polling.stop();
}

/**
 * The heaviest report, again and again, while a member's dashboard is polled (on the bench server).
 * @param {{ serverEnv: Record<string, string | undefined>, dataDir: string, artistId?: string }} target
 * @returns {Promise<Scenario[]>}
 */
export async function measureResponsiveness(target) {
  const admin = await login("admin@example.com");
  const adminHeaders = { cookie: admin.cookie };
  /** @type {Scenario[]} */
  const scenarios = [];
  const reportName = "member dashboard during an admin's heaviest report";
  if (target.artistId) {
    const member = await login("member@example.com");
    const headers = { cookie: member.cookie };
    const report = `/admin/sales/digital/details/artist/${target.artistId}`;
    const idle = await idleBaseline(member.landing, headers);
    const polling = poll(member.landing, headers);
    /** @type {number[]} */
    const reports = [];
    const until = Date.now() + REPORT_SECONDS * 1000;
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(`${BASE}${report}`, { headers: adminHeaders });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${report}: ${response.status}`);
      reports.push(performance.now() - started);
    }
    const during = await polling.stop();
    const slowest = Math.max(...reports);
    scenarios.push({
      name: reportName,
      polled: member.landing,
      idle,
      during,
      work: `${reports.length} admin reports (${report}) back to back for ${REPORT_SECONDS} s, ${Math.round(slowest)} ms the slowest`,
      met: during.maxMs <= LIMIT_MS && during.failed === 0,
    });
  } else {
    scenarios.push({ name: reportName, skipped: "needs the seeded ledger (BENCH_LEDGER_LINES > 0 and a ledger target selected)" });
  }
  return scenarios;
}

/**
 * A 200,000-line import (upload, check, job) while GET /login is polled, then a suspense match of one code of
 * 40,000 lines (imported beforehand, unpolled) while it is polled again, on a server of its own (the default
 * engine, a fresh DATA_DIR with the demo data).
 * @returns {Promise<Scenario[]>}
 */
export async function measureImportResponsiveness() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-bench-import-"));
  const server = await startServer(dataDir, "");
  try {
    const imported = await importWhilePolling(dataDir);
    /** @type {Scenario} */
    let matched;
    try {
      matched = await matchWhilePolling(dataDir);
    } catch (error) {
      matched = { name: `GET /login during a suspense match of ${MATCH_LINES.toLocaleString("en-US")} lines`, skipped: `failed: ${error}` };
    }
    return [imported, matched];
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** @param {string} dataDir @returns {Promise<Scenario>} */
async function importWhilePolling(dataDir) {
  const admin = await login("admin@example.com");
  const adminHeaders = { cookie: admin.cookie };
  const file = path.join(dataDir, "responsiveness-statement.csv");
  const written = spawnSync(process.execPath, ["--import", "tsx", "bench/write-statement.ts", file, String(IMPORT_LINES)], {
    cwd: root,
    env: serverEnv(dataDir, ""),
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (written.status !== 0) throw new Error(`bench/write-statement.ts exited with ${written.status ?? written.signal}`);
  const idle = await idleBaseline("/login", {});
  const polling = poll("/login", {});
  const started = performance.now();
  let uploaded;
  try {
    uploaded = await uploadAndWait(file, adminHeaders, started);
  } catch (error) {
    await polling.stop();
    throw error;
  }
  const { uploadSeconds, state } = uploaded;
  const during = await polling.stop();
  const totalSeconds = (performance.now() - started) / 1000;
  return {
    name: `GET /login during a ${IMPORT_LINES.toLocaleString("en-US")}-line import`,
    polled: "/login",
    idle,
    during,
    work: `upload and check ${uploadSeconds.toFixed(1)} s, then the job: ${state.status}, ${state.lines.toLocaleString("en-US")} lines posted, ${totalSeconds.toFixed(1)} s in all`,
    met: state.status === "completed" && during.maxMs <= LIMIT_MS && during.failed === 0,
  };
}

/**
 * Uploads a statement and waits (15 minutes at most) until its import is completed or failed.
 * @param {string} file @param {Record<string, string>} adminHeaders @param {number} started
 */
async function uploadAndWait(file, adminHeaders, started) {
  const form = new FormData();
  form.set("kind", "digital");
  form.set("exchange_rate", "");
  form.set("file", new Blob([fs.readFileSync(file)], { type: "text/csv" }), "responsiveness.csv");
  const uploaded = await fetch(`${BASE}/admin/upload-sales?index`, {
    method: "POST",
    body: form,
    headers: { ...adminHeaders, Origin: BASE },
    redirect: "manual",
  });
  const id = /\/admin\/upload-sales\/(\d+)/.exec(uploaded.headers.get("location") ?? "")?.[1];
  if (!id) throw new Error(`the upload was not accepted: ${uploaded.status} ${(await uploaded.text()).slice(0, 300)}`);
  const uploadSeconds = (performance.now() - started) / 1000;
  /** @type {{ status: string, lines: number }} */
  let state = { status: "queued", lines: 0 };
  // Polled for 15 minutes at most: an import still running then is reported as such, with the polls so far.
  while (!["completed", "failed"].includes(state.status) && (performance.now() - started) / 1000 < 900) {
    await sleep(500);
    const response = await fetch(`${BASE}/api/admin/sales-imports/${id}`, { headers: adminHeaders });
    if (!response.ok) throw new Error(`/api/admin/sales-imports/${id}: ${response.status}`);
    state = (await response.json()).data;
  }
  return { uploadSeconds, state };
}

/**
 * A statement of MATCH_LINES lines of one unknown ISRC is imported (not measured), then one of its lines is
 * matched to a song from the suspense queue's form while GET /login is polled; the match is followed on the
 * queue page until it says completed, and the lines of the code left in suspense are counted after.
 * @param {string} dataDir @returns {Promise<Scenario>}
 */
async function matchWhilePolling(dataDir) {
  const admin = await login("admin@example.com");
  const adminHeaders = { cookie: admin.cookie };
  const file = path.join(dataDir, "suspense-statement.csv");
  const header =
    "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
  const rows = [header];
  for (let i = 0; i < MATCH_LINES; i++) {
    const amount = ((i % 997) / 20000).toFixed(6);
    rows.push(
      `BENCH-SUSPENSE,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Someone Else,,,Lost Song,${MATCH_ISRC},1,${amount},USD,${amount},${amount},USD,`,
    );
  }
  fs.writeFileSync(file, rows.join("\n") + "\n");
  const imported = await uploadAndWait(file, adminHeaders, performance.now());
  if (imported.state.status !== "completed") throw new Error(`the suspense statement's import ended ${imported.state.status}`);
  const lookUp = async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bench/suspense-lines.ts", MATCH_ISRC], {
      cwd: root,
      env: serverEnv(dataDir, ""),
    });
    return /** @type {{ lineId: number | null, inSuspense: number, songId: number | null }} */ (JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"));
  };
  const before = await lookUp();
  if (!before.lineId || !before.songId) throw new Error(`no line of ${MATCH_ISRC} in suspense, or no song: ${JSON.stringify(before)}`);

  const idle = await idleBaseline("/login", {});
  const polling = poll("/login", {});
  const started = performance.now();
  const matched = await fetch(`${BASE}/admin/suspense`, {
    method: "POST",
    body: new URLSearchParams({ intent: "match", line: String(before.lineId), target: `song:${before.songId}` }),
    headers: { ...adminHeaders, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const answerMs = performance.now() - started;
  if (matched.status !== 302 && matched.status !== 303) {
    await polling.stop();
    throw new Error(`the match was not queued: ${matched.status} ${(await matched.text()).slice(0, 300)}`);
  }
  // The queue page lists the latest matches: followed until this one (the newest) says it moved its lines or failed.
  let status = "queued";
  while ((performance.now() - started) / 1000 < 900) {
    await sleep(500);
    const page = await (await fetch(`${BASE}/admin/suspense`, { headers: adminHeaders })).text();
    const newest = /data-testid="suspense-matches"[\s\S]*?<li[\s\S]*?<\/li>/.exec(page)?.[0] ?? "";
    if (/moved out of suspense/.test(newest)) status = "completed";
    else if (/Failed|stopped on an error/.test(newest)) status = "failed";
    if (status !== "queued") break;
  }
  const during = await polling.stop();
  const totalSeconds = (performance.now() - started) / 1000;
  const after = await lookUp();
  return {
    name: `GET /login during a suspense match of ${before.inSuspense.toLocaleString("en-US")} lines of one code`,
    polled: "/login",
    idle,
    during,
    work: `the form answered in ${Math.round(answerMs)} ms, then the job: ${status} in ${totalSeconds.toFixed(1)} s; ${after.inSuspense.toLocaleString("en-US")} lines of the code left in suspense (goal 0)`,
    met: status === "completed" && after.inSuspense === 0 && during.maxMs <= LIMIT_MS && during.failed === 0,
  };
}

/** @param {Scenario[]} scenarios */
export function formatResponsiveness(scenarios) {
  const lines = [`Responsiveness under heavy work (a poll every ${POLL_MS} ms; goal: no poll waits more than ${LIMIT_MS} ms)`];
  for (const s of scenarios) {
    if ("skipped" in s) {
      lines.push(`  ${s.name}: skipped (${s.skipped})`);
      continue;
    }
    lines.push(
      `  ${s.met ? "PASS" : "MISS"}  ${s.name}: max ${s.during.maxMs} ms (x${(s.during.maxMs / Math.max(s.idle.p50Ms, 1)).toFixed(1)} of the idle p50), p99 ${s.during.p99Ms} ms, p50 ${s.during.p50Ms} ms over ${s.during.polls} polls${s.during.failed ? `, ${s.during.failed} failed` : ""}; idle: p50 ${s.idle.p50Ms} ms, max ${s.idle.maxMs} ms`,
      `        meanwhile: ${s.work}`,
    );
  }
  return lines.join("\n");
}
