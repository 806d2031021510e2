// @ts-check
// HTTP benchmarks against the production build: every target beside two baselines measured on the same
// server in the same run (the trivial /healthz and the light GET /login), reported as ratios with the
// absolute figures and the SQL statements one request runs; on the default engine (the embedded PostgreSQL in
// a fresh DATA_DIR) and, when BENCH_DATABASE_URL is set, again on a fresh database on that server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.BENCH_PORT ?? 3290);
export const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Published profiles seeded for the directory targets before the server starts; 0 skips them. */
const DIRECTORY_PROFILES = Number(process.env.BENCH_DIRECTORY_PROFILES ?? 10_000);
const profilesLabel = DIRECTORY_PROFILES.toLocaleString("en-US");
/** Releases seeded for the catalogue targets (bench/seed-catalog.ts); 0 skips them. */
const CATALOG_RELEASES = Number(process.env.BENCH_CATALOG_RELEASES ?? 10_000);
const releasesLabel = CATALOG_RELEASES.toLocaleString("en-US");
/** Posted statement lines seeded for the ledger targets (bench/seed-ledger.ts); 0 skips them. */
const LEDGER_LINES = Number(process.env.BENCH_LEDGER_LINES ?? 1_000_000);
const ledgerLabel = LEDGER_LINES.toLocaleString("en-US");
/** Work requests seeded for the marketplace targets (bench/seed-marketplace.ts); 0 skips them. */
const WORK_REQUESTS = Number(process.env.BENCH_WORK_REQUESTS ?? 10_000);
const workRequestsLabel = WORK_REQUESTS.toLocaleString("en-US");
/** BENCH_TARGETS="income, sales detail": only the targets whose names contain one of these (and GET /login, the baseline). */
const ONLY_TARGETS = (process.env.BENCH_TARGETS ?? "")
  .split(",")
  .map((part) => part.trim().toLowerCase())
  .filter(Boolean);
/** Seconds after which autocannon gives up on a request (counted as a timeout, which misses any p99 goal). */
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 10);

/**
 * A goal, read from the figures (never asserted): requests/s at least `minLoginRatio` times
 * GET /login's, p99 under `maxP99Ms` (with no request timed out), and at most `maxStatements` SQL
 * statements per request (the budget its integration test asserts). The goal is stated for `connections`,
 * `directoryProfiles`, `ledgerLines` and `workRequests`; a run under other conditions still says PASS/MISS, marked as indicative.
 * @typedef {{ text: string, minLoginRatio: number, maxP99Ms?: number, maxStatements?: number, connections?: number, directoryProfiles?: number, ledgerLines?: number, workRequests?: number }} Goal
 */
/**
 * A page to measure. With `login`, requests carry that demo user's session; without `path`, the page
 * is where that login lands (the user's dashboard). In `path`, `{memberId}` is the logged-in member's id
 * and `{genre}` / `{instrument}` are ids printed by the directory seed (bench/seed-directory.ts), `{artistId}`
 * the demo artist page's id printed by the ledger seed (bench/seed-ledger.ts).
 * `directory` targets need the seeded profiles, `catalog` targets the seeded releases, `ledger` targets the
 * seeded statement lines and `marketplace` targets the seeded work requests; each is skipped without them.
 * @typedef {{ name: string, path?: string, login?: string, directory?: boolean, catalog?: boolean, ledger?: boolean, marketplace?: boolean, goal?: Goal }} Target
 */
/** Later issues add their pages here. GET /login is the baseline itself: its row reuses that measurement. */
/** @type {Target[]} */
export const targets = [
  { name: "GET /login", path: "/login" },
  {
    name: "GET /member/{id}/dashboard",
    login: "member@example.com",
    goal: { text: "member dashboard >= 0.5x /login req/s, p99 < 100 ms at 10 connections", minLoginRatio: 0.5, maxP99Ms: 100, connections: 10 },
  },
  { name: "GET /admin/dashboard", login: "admin@example.com" },
  // Directory: a genre filter with the heaviest sort (lowest rate), and a name search.
  {
    name: `directory (${profilesLabel} profiles)`,
    path: "/member/{memberId}/musicians?genre={genre}&sort=rate",
    login: "member@example.com",
    directory: true,
    goal: { text: "directory over 10,000 profiles >= 0.4x /login req/s", minLoginRatio: 0.4, directoryProfiles: 10_000 },
  },
  {
    name: `directory (${profilesLabel}): search`,
    path: "/member/{memberId}/musicians?q=silva&instrument={instrument}&sort=newest",
    login: "member@example.com",
    directory: true,
    goal: { text: "directory over 10,000 profiles >= 0.4x /login req/s", minLoginRatio: 0.4, directoryProfiles: 10_000 },
  },
  // Catalogue, over 10,000 seeded releases: the demo member's list (1,000 of them are theirs),
  // the admin's list of all, and a release page among them.
  { name: `member releases (${releasesLabel})`, path: "/member/{memberId}/releases", login: "member@example.com", catalog: true },
  { name: `admin releases (${releasesLabel})`, path: "/admin/releases", login: "admin@example.com", catalog: true },
  {
    name: `release page (${releasesLabel})`,
    path: "/member/{memberId}/release-page/midnight-owls/late-trains",
    login: "member@example.com",
    catalog: true,
  },
  // Sales pages, over the seeded ledger (1,000,000 posted statement lines by default, 90% digital,
  // nearly all on the demo artist page): the demo member's digital detail of that page (the total and every
  // breakdown, one page of lines) and Income & Shares. Statement budgets as tests/integration asserts them.
  {
    name: `member sales detail (${ledgerLabel} lines)`,
    path: "/member/{memberId}/sales/digital/detail/artist/{artistId}",
    login: "member@example.com",
    ledger: true,
    goal: {
      text: "member sales detail over 1,000,000 lines: p99 < 150 ms at 10 connections, <= 6 statements",
      minLoginRatio: 0,
      maxP99Ms: 150,
      maxStatements: 6,
      connections: 10,
      ledgerLines: 1_000_000,
    },
  },
  {
    name: `member income (${ledgerLabel} lines)`,
    path: "/member/{memberId}/member-income",
    login: "member@example.com",
    ledger: true,
    goal: {
      text: "member-income over 1,000,000 lines: p99 < 150 ms at 10 connections, <= 7 statements",
      minLoginRatio: 0,
      maxP99Ms: 150,
      maxStatements: 7,
      connections: 10,
      ledgerLines: 1_000_000,
    },
  },
  // The admin's reports over the same ledger (decision 028, "Admin reports"): the demo artist page's digital sales
  // detail (from the admin sales rollups; the first request builds them) and the journal.
  {
    name: `admin artist sales detail (${ledgerLabel} lines)`,
    path: "/admin/sales/digital/details/artist/{artistId}",
    login: "admin@example.com",
    ledger: true,
    goal: {
      text: "admin artist sales detail over 1,000,000 lines: >= 0.3x /login req/s, <= 6 statements",
      minLoginRatio: 0.3,
      maxStatements: 6,
      ledgerLines: 1_000_000,
    },
  },
  {
    name: `admin transactions (${ledgerLabel} lines)`,
    path: "/admin/transactions",
    login: "admin@example.com",
    ledger: true,
    goal: {
      text: "admin transactions over 1,000,000 lines: >= 0.3x /login req/s, <= 6 statements",
      minLoginRatio: 0.3,
      maxStatements: 6,
      ledgerLines: 1_000_000,
    },
  },
  // Marketplace, over 10,000 seeded work requests from the demo member to the demo producer: the
  // client's list (the default "Sent" tab), the provider's, and the admin's filtered search. Statement budgets as
  // tests/integration/page-statements.test.ts asserts them.
  {
    name: `member work requests (${workRequestsLabel})`,
    path: "/member/{memberId}/work-requests",
    login: "member@example.com",
    marketplace: true,
    goal: { text: "work requests over 10,000: >= 0.4x /login req/s, <= 6 statements", minLoginRatio: 0.4, maxStatements: 6, workRequests: 10_000 },
  },
  {
    name: `provider's work requests (${workRequestsLabel})`,
    path: "/member/{memberId}/work-requests?as=provider&status=awaiting_approval",
    login: "producer@example.com",
    marketplace: true,
    goal: { text: "work requests over 10,000: >= 0.4x /login req/s, <= 6 statements", minLoginRatio: 0.4, maxStatements: 6, workRequests: 10_000 },
  },
  {
    name: `admin work requests (${workRequestsLabel}): search`,
    path: "/admin/work-requests?q=mix&status=pending&service=mixing",
    login: "admin@example.com",
    marketplace: true,
    goal: { text: "admin work requests over 10,000: >= 0.4x /login req/s, <= 5 statements", minLoginRatio: 0.4, maxStatements: 5, workRequests: 10_000 },
  },
];

/**
 * The server's settings (the directory seed opens the same database with them first).
 * @param {string} dataDir @param {string} databaseUrl empty for the embedded PostgreSQL in dataDir
 */
export function serverEnv(dataDir, databaseUrl) {
  return {
    ...process.env,
    APP_ENV: "test",
    NODE_ENV: "production",
    PORT: String(PORT),
    APP_URL: BASE,
    DATA_DIR: dataDir,
    // Uploaded statements (the ledger seed's) stay in the run's directory, removed with it.
    STORAGE_DIR: path.join(dataDir, "storage"),
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000",
    SEED_DEMO_DATA: "true",
    LOGIN_LIMIT_PER_IP: "1000000",
    DATABASE_URL: databaseUrl,
    REALTIME_SERVER: "false",
    // Every response says how many SQL statements its request ran (X-Statement-Count).
    STATEMENT_COUNT_HEADER: "true",
  };
}

/**
 * Runs a seed script with the server's settings, before the server starts; `extra` adds its size setting.
 * @param {string} script @param {Record<string, string>} extra @param {string} ready what is ready, for the log
 * @param {string} dataDir @param {string} databaseUrl
 */
function runSeed(script, extra, ready, dataDir, databaseUrl) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    env: { ...serverEnv(dataDir, databaseUrl), ...extra },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.status !== 0) throw new Error(`${script} exited with ${result.status ?? result.signal}`);
  console.log(`${ready} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The catalogue's releases. @param {string} dataDir @param {string} databaseUrl */
function seedCatalog(dataDir, databaseUrl) {
  runSeed("bench/seed-catalog.ts", { BENCH_CATALOG_RELEASES: String(CATALOG_RELEASES) }, `Catalogue: ${releasesLabel} releases`, dataDir, databaseUrl);
}

/** The marketplace's work requests. @param {string} dataDir @param {string} databaseUrl */
function seedMarketplace(dataDir, databaseUrl) {
  runSeed("bench/seed-marketplace.ts", { BENCH_WORK_REQUESTS: String(WORK_REQUESTS) }, `Marketplace: ${workRequestsLabel} work requests`, dataDir, databaseUrl);
}

/**
 * Seeds the directory profiles, before the server starts.
 * @param {string} dataDir @param {string} databaseUrl @returns {Record<string, string>} the placeholders of the directory targets
 */
function seedDirectory(dataDir, databaseUrl) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", "bench/seed-directory.ts"], {
    cwd: root,
    env: { ...serverEnv(dataDir, databaseUrl), BENCH_DIRECTORY_PROFILES: String(DIRECTORY_PROFILES) },
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`bench/seed-directory.ts exited with ${result.status ?? result.signal}`);
  const ids = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
  console.log(`Directory: ${profilesLabel} profiles ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { genre: String(ids.genre), instrument: String(ids.instrument) };
}

/**
 * Seeds the ledger's statement lines through the import engine (bench/seed-ledger.ts), before the server starts.
 * @param {string} dataDir @param {string} databaseUrl @returns {Record<string, string>} the placeholders of the ledger targets
 */
function seedLedger(dataDir, databaseUrl) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", "bench/seed-ledger.ts"], {
    cwd: root,
    env: { ...serverEnv(dataDir, databaseUrl), BENCH_LEDGER_LINES: String(LEDGER_LINES) },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  // The engine's progress reports warn that no realtime server listens: keep the seed's own lines only.
  const own = result.stderr.split("\n").filter((line) => line && !line.includes("realtime publish failed") && !line.startsWith("flush phases"));
  if (own.length) console.error(own.slice(-40).join("\n"));
  if (result.status !== 0) throw new Error(`bench/seed-ledger.ts exited with ${result.status ?? result.signal}`);
  const ids = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
  console.log(`Ledger: ${ledgerLabel} posted statement lines ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { artistId: String(ids.artistId) };
}

/** @param {import("node:child_process").ChildProcess} child */
export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** @param {string} dataDir @param {string} databaseUrl */
export async function startServer(dataDir, databaseUrl) {
  // As `npm start` and the Dockerfile run it (decision 013: the young generation's size).
  const child = spawn(process.execPath, ["--max-semi-space-size=32", "server/start.js"], {
    cwd: root,
    env: serverEnv(dataDir, databaseUrl),
    stdio: ["ignore", "pipe", "inherit"],
  });
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    await new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
      child.stdout?.on("data", (chunk) => {
        if (String(chunk).includes("is running at")) resolve(undefined);
      });
      // A server that neither starts nor exits would hang the whole run.
      timer = setTimeout(() => reject(new Error("server did not start within 120 s")), 120_000);
    });
  } catch (error) {
    await stopServer(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Warm the pool and the route modules before measuring.
  for (let i = 0; i < 20; i++) await fetch(`${BASE}/login`).then((r) => r.text());
  return child;
}

/**
 * `timeouts`: requests that took longer than BENCH_TIMEOUT_SECONDS (autocannon leaves them out of the
 * latencies, so a page with timeouts misses any p99 goal whatever its p99 says).
 * @typedef {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number, requests: number, timeouts?: number }} Measured
 * @param {string} urlPath @param {Record<string,string>} [headers] @returns {Promise<Measured>}
 */
async function measure(urlPath, headers = {}) {
  const result = await autocannon({ url: `${BASE}${urlPath}`, connections: CONNECTIONS, duration: DURATION, headers, timeout: TIMEOUT_SECONDS });
  if (result.non2xx > 0 || result.errors > result.timeouts) {
    throw new Error(`${urlPath}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    ...(result.timeouts > 0 ? { timeouts: result.timeouts } : {}),
  };
}

/** Unrecorded load. @param {string} urlPath @param {Record<string,string>} headers @param {number} seconds */
async function warm(urlPath, headers, seconds) {
  await autocannon({ url: `${BASE}${urlPath}`, connections: CONNECTIONS, duration: seconds, headers, timeout: TIMEOUT_SECONDS });
}

/**
 * A baseline measured before the pages and again after them: the pages are compared to the mean, and the
 * drift between the two says how steady the machine was meanwhile.
 * @param {string} target @param {Measured} before @param {Measured} after
 */
function bracket(target, before, after) {
  const mean = (/** @type {number} */ a, /** @type {number} */ b) => +((a + b) / 2).toFixed(1);
  return {
    target,
    /** @type {Measured} */
    mean: {
      requestsPerSecond: Math.round((before.requestsPerSecond + after.requestsPerSecond) / 2),
      latencyP50Ms: mean(before.latencyP50Ms, after.latencyP50Ms),
      latencyP99Ms: mean(before.latencyP99Ms, after.latencyP99Ms),
      requests: before.requests + after.requests,
    },
    before,
    after,
    /** After / before requests/s: 1 on a steady machine. */
    drift: +(after.requestsPerSecond / Math.max(before.requestsPerSecond, 1)).toFixed(3),
  };
}

/** Logs in through the form; returns the session cookie and where the login lands. @param {string} email */
export async function login(email) {
  const response = await fetch(`${BASE}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ email, password: "backline-demo" }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("backline_session="));
  const location = response.headers.get("location");
  if (!cookie || !location) throw new Error(`login failed for ${email}: ${response.status}`);
  return { cookie: cookie.split(";")[0] ?? "", landing: location };
}

/**
 * The statements one request of the page runs (X-Statement-Count; null when the server does not send
 * it). Read from a second request: the first fills the process caches (config, reference lists), which
 * stay warm throughout the load run that follows.
 * @param {string} urlPath @param {Record<string,string>} headers
 */
async function statementsOf(urlPath, headers) {
  /** @type {string | null} */
  let count = null;
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${BASE}${urlPath}`, { headers, redirect: "manual" });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${urlPath}: ${response.status} before the load run`);
    count = response.headers.get("x-statement-count");
  }
  return count === null ? null : Number(count);
}

/** @param {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number }} measured @param {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number }} baseline */
function ratioOf(measured, baseline) {
  return {
    requestsPerSecond: +(measured.requestsPerSecond / Math.max(baseline.requestsPerSecond, 1)).toFixed(3),
    latencyP50: +(measured.latencyP50Ms / Math.max(baseline.latencyP50Ms, 0.001)).toFixed(2),
    latencyP99: +(measured.latencyP99Ms / Math.max(baseline.latencyP99Ms, 0.001)).toFixed(2),
  };
}

/**
 * PASS/MISS of a target's goal, with the figures it was read from.
 * @param {Goal} goal @param {Measured} measured @param {ReturnType<typeof ratioOf>} ratioToLogin @param {number | null} statements
 */
function goalResult(goal, measured, ratioToLogin, statements) {
  const ratioMet = ratioToLogin.requestsPerSecond >= goal.minLoginRatio;
  // No request completed within the run (autocannon then reports a p99 of 0): a miss, not a pass.
  const p99Met = goal.maxP99Ms === undefined || (measured.requests > 0 && measured.latencyP99Ms < goal.maxP99Ms && !measured.timeouts);
  // An unknown count (no X-Statement-Count header) cannot meet a budget.
  const statementsMet = goal.maxStatements === undefined || (statements !== null && statements <= goal.maxStatements);
  const figures = [`x${ratioToLogin.requestsPerSecond.toFixed(2)} of /login`];
  if (goal.maxP99Ms !== undefined) figures.push(`p99 ${measured.latencyP99Ms} ms (x${ratioToLogin.latencyP99.toFixed(1)} of /login's)`);
  if (measured.timeouts) figures.push(`${measured.timeouts} requests timed out after ${TIMEOUT_SECONDS} s`);
  if (measured.requests === 0) figures.push(`no request completed in ${DURATION} s`);
  if (goal.maxStatements !== undefined) figures.push(`${statements ?? "unknown"} statements (budget ${goal.maxStatements})`);
  // The goal holds at its own load and size; another run's verdict is only indicative.
  const unlike = [];
  if (goal.connections !== undefined && goal.connections !== CONNECTIONS) unlike.push(`${CONNECTIONS} connections, goal at ${goal.connections}`);
  if (goal.directoryProfiles !== undefined && DIRECTORY_PROFILES < goal.directoryProfiles)
    unlike.push(`${profilesLabel} profiles, goal over ${goal.directoryProfiles.toLocaleString("en-US")}`);
  if (goal.ledgerLines !== undefined && LEDGER_LINES < goal.ledgerLines)
    unlike.push(`${ledgerLabel} ledger lines, goal over ${goal.ledgerLines.toLocaleString("en-US")}`);
  if (goal.workRequests !== undefined && WORK_REQUESTS < goal.workRequests)
    unlike.push(`${workRequestsLabel} work requests, goal over ${goal.workRequests.toLocaleString("en-US")}`);
  return {
    goal: goal.text,
    met: ratioMet && p99Met && statementsMet,
    figures: figures.join(", "),
    indicative: unlike.length ? `indicative: ${unlike.join("; ")}` : null,
  };
}

/**
 * A fresh database beside BENCH_DATABASE_URL for one run, dropped afterwards.
 * @param {string} adminUrl @returns {Promise<{ name: string, url: string, drop: () => Promise<void> }>}
 */
async function freshPostgres(adminUrl) {
  const { default: pg } = await import("pg");
  const name = `backline_bench_${process.pid}`;
  const run = async (/** @type {string} */ sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`drop database if exists ${name} with (force)`);
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * Every target on one database. /healthz and GET /login are measured once before the pages and once
 * after them (not around every page: that tripled the run), and each page is compared to their mean.
 * `afterPages` runs more measurements on the same server afterwards (bench/responsiveness.js); its result is the run's `more`.
 * @template [T=undefined]
 * @param {{ name: string, url: string }} database url empty for the embedded PostgreSQL, else the server to create a database on
 * @param {{ afterPages?: (server: { serverEnv: Record<string, string | undefined>, dataDir: string, artistId?: string }) => Promise<T> }} [options]
 */
export async function runHttpBench(database = { name: "embedded PostgreSQL", url: "" }, options = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-bench-"));
  const selected = targets.filter(
    (t) =>
      (!t.directory || DIRECTORY_PROFILES > 0) &&
      (!t.catalog || CATALOG_RELEASES > 0) &&
      (!t.ledger || LEDGER_LINES > 0) &&
      (!t.marketplace || WORK_REQUESTS > 0) &&
      (ONLY_TARGETS.length === 0 || t.path === "/login" || ONLY_TARGETS.some((part) => t.name.toLowerCase().includes(part))),
  );
  /** @type {Awaited<ReturnType<typeof freshPostgres>> | null} */
  let postgres = null;
  /** @type {import("node:child_process").ChildProcess | null} */
  let server = null;
  /** @type {Promise<void> | undefined} */
  let cleaning;
  // Once only: a signal and the run's own `finally` may both ask for it.
  const cleanUp = () =>
    (cleaning ??= (async () => {
      if (server) await stopServer(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await postgres?.drop();
    })());
  // Ctrl-C mid-run must not leave the server running or the bench database behind on the shared server.
  const onSignal = () => {
    console.error(`\nInterrupted: stopping the server${postgres ? ` and dropping ${postgres.name}` : ""}`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    postgres = database.url ? await freshPostgres(database.url) : null;
    const databaseUrl = postgres?.url ?? "";
    if (postgres) console.log(`PostgreSQL: database ${postgres.name} created for this run`);
    /** @type {Record<string, string>} */
    const placeholders = selected.some((t) => t.directory) ? seedDirectory(dataDir, databaseUrl) : {};
    if (selected.some((t) => t.catalog)) seedCatalog(dataDir, databaseUrl);
    if (selected.some((t) => t.marketplace)) seedMarketplace(dataDir, databaseUrl);
    if (selected.some((t) => t.ledger)) Object.assign(placeholders, seedLedger(dataDir, databaseUrl));
    server = await startServer(dataDir, databaseUrl);

    // Sessions and URLs first, so that the pages' load runs sit between the two baseline runs.
    const pages = [];
    for (const target of selected) {
      const session = target.login ? await login(target.login) : undefined;
      /** @type {Record<string, string>} */
      const headers = session ? { cookie: session.cookie } : {};
      const memberId = /^\/member\/(\d+)\//.exec(session?.landing ?? "")?.[1] ?? "";
      const urlPath = (target.path ?? session?.landing ?? "/").replace(/\{(\w+)\}/g, (_, key) =>
        key === "memberId" ? memberId : (placeholders[key] ?? `{${key}}`),
      );
      pages.push({ target, urlPath, headers });
    }

    // Node's JIT takes seconds to settle after start: /healthz ran ~40% slower in its first second than
    // after four (and a page ~35% in its first). Unrecorded load first, so the ratios compare warm servers.
    await warm("/healthz", {}, 4);
    await warm("/login", {}, 1);
    const healthzBefore = await measure("/healthz");
    const loginBefore = await measure("/login");
    /** @type {Array<{ statements: number | null, measured: Measured | null }>} */
    const measuredPages = [];
    for (const { target, urlPath, headers } of pages) {
      const statements = await statementsOf(urlPath, headers);
      // GET /login is the baseline: its row takes the baseline's figures instead of a third run.
      const isLoginBaseline = urlPath === "/login" && !target.login;
      if (!isLoginBaseline) await warm(urlPath, headers, 1);
      const measured = isLoginBaseline ? null : await measure(urlPath, headers);
      measuredPages.push({ statements, measured });
    }
    const loginPage = bracket("GET /login", loginBefore, await measure("/login"));
    const healthz = bracket("GET /healthz", healthzBefore, await measure("/healthz"));

    const rows = pages.map(({ target, urlPath }, i) => {
      const { statements, measured: own } = measuredPages[i] ?? {};
      const measured = own ?? loginPage.mean;
      const ratioToLogin = ratioOf(measured, loginPage.mean);
      return {
        target: target.name,
        path: urlPath,
        statements: statements ?? null,
        baseline: { target: healthz.target, ...healthz.mean },
        login: { target: loginPage.target, ...loginPage.mean },
        measured,
        ratio: ratioOf(measured, healthz.mean),
        ratioToLogin,
        goal: target.goal ? goalResult(target.goal, measured, ratioToLogin, statements ?? null) : null,
      };
    });
    const more = options.afterPages
      ? await options.afterPages({ serverEnv: serverEnv(dataDir, databaseUrl), dataDir, artistId: placeholders.artistId })
      : undefined;
    return {
      kind: "http",
      database: database.name,
      more,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      cpus: os.cpus().length,
      directoryProfiles: placeholders.genre ? DIRECTORY_PROFILES : 0,
      catalogReleases: selected.some((t) => t.catalog) ? CATALOG_RELEASES : 0,
      ledgerLines: selected.some((t) => t.ledger) ? LEDGER_LINES : 0,
      workRequests: selected.some((t) => t.marketplace) ? WORK_REQUESTS : 0,
      baselines: { healthz, login: loginPage },
      rows,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await cleanUp();
  }
}

/** @typedef {Awaited<ReturnType<typeof runHttpBench>>} HttpRun */

/** The table of one database: the baselines, then every page with its ratios, figures and statements. @param {HttpRun} run */
export function formatHttpRun(run) {
  const lines = [
    `HTTP on ${run.database}: ${run.connections} connections, ${run.durationSeconds} s per load run, ${run.cpus} cores, ${run.directoryProfiles.toLocaleString("en-US")} directory profiles, ${run.catalogReleases.toLocaleString("en-US")} releases, ${(run.ledgerLines ?? 0).toLocaleString("en-US")} ledger lines, ${(run.workRequests ?? 0).toLocaleString("en-US")} work requests`,
    "Baselines (mean of a run before the pages and one after them):",
  ];
  for (const b of [run.baselines.healthz, run.baselines.login]) {
    // A drift far from 1 means the machine's load changed during the run: read the ratios with care.
    const unsteady = b.drift < 0.85 || b.drift > 1.18 ? "  UNSTEADY machine, compare with care" : "";
    lines.push(
      `  ${b.target.padEnd(14)} ${String(b.mean.requestsPerSecond).padStart(5)} req/s  p50 ${b.mean.latencyP50Ms} ms  p99 ${b.mean.latencyP99Ms} ms` +
        `  (before ${b.before.requestsPerSecond}, after ${b.after.requestsPerSecond} req/s)${unsteady}`,
    );
  }
  const name = Math.max(30, ...run.rows.map((r) => r.target.length));
  lines.push(`${"target".padEnd(name)}  req/s  x/login  x/healthz  p50 ms  p99 ms  p99 x/login  stmts  goal`);
  for (const row of run.rows) {
    const { measured: m, ratio: r, ratioToLogin: rl } = row;
    lines.push(
      [
        row.target.padEnd(name),
        String(m.requestsPerSecond).padStart(5),
        rl.requestsPerSecond.toFixed(2).padStart(7),
        r.requestsPerSecond.toFixed(2).padStart(9),
        String(m.latencyP50Ms).padStart(6),
        String(m.latencyP99Ms).padStart(6),
        rl.latencyP99.toFixed(2).padStart(11),
        String(row.statements ?? "n/a").padStart(5),
        row.goal ? (row.goal.met ? "PASS" : "MISS") : "",
        m.timeouts ? `${m.timeouts} timed out` : "",
      ]
        .join("  ")
        .trimEnd(),
    );
  }
  return lines.join("\n");
}

/** Every goal of every database, PASS or MISS, with the figures it was read from. @param {HttpRun[]} runs */
export function formatHttpGoals(runs) {
  const lines = ["Goals (read from the figures above, not asserted):"];
  for (const run of runs) {
    for (const row of run.rows) {
      if (!row.goal) continue;
      const { goal } = row;
      lines.push(
        `  ${goal.met ? "PASS" : "MISS"}  ${run.database.padEnd(10)}  ${row.target}: ${goal.goal} -> ${goal.figures}` +
          (goal.indicative ? ` (${goal.indicative})` : ""),
      );
    }
  }
  return lines.join("\n");
}
