// @ts-check
// HTTP benchmarks against the production build: each target beside two baselines measured in the same
// run on the same server (the trivial /healthz and the light GET /login), reported as ratios with the
// absolute figures, on PGlite and, when BENCH_DATABASE_URL is set, on PostgreSQL.
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

/**
 * A page to measure. With `login`, requests carry that demo user's session; without `path`, the page
 * is where that login lands (the user's dashboard). In `path`, `{memberId}` is the logged-in member's id
 * and `{genre}` / `{instrument}` are ids printed by the directory seed (bench/seed-directory.ts).
 * `directory` targets need the seeded profiles and are skipped without them.
 * @typedef {{ name: string, path?: string, login?: string, directory?: boolean }} Target
 */
/** Later issues add their pages here. */
/** @type {Target[]} */
export const targets = [
  { name: "GET /login", path: "/login" },
  { name: "GET /member/{id}/dashboard", login: "member@example.com" },
  { name: "GET /admin/dashboard", login: "admin@example.com" },
  // Directory (10,000 profiles): a genre filter with the heaviest sort (lowest rate), and a name search.
  {
    name: "directory (10,000 profiles)",
    path: "/member/{memberId}/musicians?genre={genre}&sort=rate",
    login: "member@example.com",
    directory: true,
  },
  {
    name: "directory (10,000): search",
    path: "/member/{memberId}/musicians?q=silva&instrument={instrument}&sort=newest",
    login: "member@example.com",
    directory: true,
  },
];

/**
 * The server's settings (the directory seed opens the same database with them first).
 * @param {string} dataDir @param {string} databaseUrl empty for PGlite in dataDir
 */
function serverEnv(dataDir, databaseUrl) {
  return {
    ...process.env,
    APP_ENV: "test",
    NODE_ENV: "production",
    PORT: String(PORT),
    APP_URL: BASE,
    DATA_DIR: dataDir,
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
 * Seeds the directory profiles (PGlite allows one process at a time, so before the server starts).
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
  if (result.status !== 0) throw new Error(`bench/seed-directory.ts exited with ${result.status}`);
  const ids = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
  console.log(`Directory: ${DIRECTORY_PROFILES} profiles ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { genre: String(ids.genre), instrument: String(ids.instrument) };
}

/** @param {string} dataDir @param {string} databaseUrl */
export async function startServer(dataDir, databaseUrl) {
  const child = spawn(process.execPath, ["server/start.js"], {
    cwd: root,
    env: serverEnv(dataDir, databaseUrl),
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("is running at")) resolve(undefined);
    });
  });
  // Warm PGlite and the route modules before measuring.
  for (let i = 0; i < 20; i++) await fetch(`${BASE}/login`).then((r) => r.text());
  return child;
}

/** @param {string} urlPath @param {Record<string,string>} [headers] */
async function measure(urlPath, headers = {}) {
  const result = await autocannon({ url: `${BASE}${urlPath}`, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${urlPath}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
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

/** The statements one request of the page runs, from the X-Statement-Count header. @param {string} urlPath @param {Record<string,string>} headers */
async function statementsOf(urlPath, headers) {
  const response = await fetch(`${BASE}${urlPath}`, { headers, redirect: "manual" });
  await response.arrayBuffer();
  const count = response.headers.get("x-statement-count");
  return count === null ? null : Number(count);
}

/** @param {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number }} measured @param {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number }} baseline */
function ratioOf(measured, baseline) {
  return {
    requestsPerSecond: +(measured.requestsPerSecond / baseline.requestsPerSecond).toFixed(3),
    latencyP50: +(measured.latencyP50Ms / Math.max(baseline.latencyP50Ms, 0.001)).toFixed(2),
    latencyP99: +(measured.latencyP99Ms / Math.max(baseline.latencyP99Ms, 0.001)).toFixed(2),
  };
}

/**
 * A fresh database beside BENCH_DATABASE_URL for one run, dropped afterwards.
 * @param {string} adminUrl @returns {Promise<{ url: string, drop: () => Promise<void> }>}
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
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/**
 * Every target on one database. Before each target, /healthz and GET /login are measured again, so that
 * drift on a shared machine touches the baselines and the page alike.
 * @param {{ name: string, url: string }} database url empty for PGlite
 */
export async function runHttpBench(database = { name: "PGlite", url: "" }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-bench-"));
  const postgres = database.url ? await freshPostgres(database.url) : null;
  const databaseUrl = postgres?.url ?? "";
  const selected = targets.filter((t) => !t.directory || DIRECTORY_PROFILES > 0);
  /** @type {Record<string, string>} */
  const placeholders = selected.some((t) => t.directory) ? seedDirectory(dataDir, databaseUrl) : {};
  const server = await startServer(dataDir, databaseUrl);
  const rows = [];
  try {
    for (const target of selected) {
      const session = target.login ? await login(target.login) : undefined;
      /** @type {Record<string, string>} */
      const headers = session ? { cookie: session.cookie } : {};
      const memberId = /^\/member\/(\d+)\//.exec(session?.landing ?? "")?.[1] ?? "";
      const urlPath = (target.path ?? session?.landing ?? "/").replace(/\{(\w+)\}/g, (_, key) =>
        key === "memberId" ? memberId : (placeholders[key] ?? `{${key}}`),
      );
      const statements = await statementsOf(urlPath, headers);
      const baseline = await measure("/healthz");
      const loginPage = await measure("/login");
      const measured = await measure(urlPath, headers);
      rows.push({
        target: target.name,
        path: urlPath,
        statements,
        baseline: { target: "GET /healthz", ...baseline },
        login: { target: "GET /login", ...loginPage },
        measured,
        ratio: ratioOf(measured, baseline),
        ratioToLogin: ratioOf(measured, loginPage),
      });
    }
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
  return {
    kind: "http",
    database: database.name,
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    cpus: os.cpus().length,
    directoryProfiles: placeholders.genre ? DIRECTORY_PROFILES : 0,
    rows,
  };
}
