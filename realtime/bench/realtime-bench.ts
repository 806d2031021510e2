/**
 * Realtime fan-out benchmark.
 *
 *   npx tsx realtime/bench/realtime-bench.ts 1000 5000 10000 [--rounds=10] [--redis]
 *
 * For each N it starts two servers as child processes: the realtime server (`node --import tsx
 * realtime/src/main.ts`) and a bare `ws` baseline (bench/baseline-server.ts, which sends the same bytes
 * to every client on POST /broadcast). Each gets a "fleet" child process holding N WebSocket clients
 * (on the realtime server, subscribed to one public channel). Rounds alternate between the two, so
 * background load on a shared machine hits both alike. In a round the fleet takes t0, publishes one
 * event (realtime: the official `pusher` SDK over the HTTP API; baseline: POST /broadcast) and records
 * arrival - t0 for each of its N clients; both clocks are in the fleet process. Reported: p50/p99/max
 * over all deliveries of all rounds (round 0 is a warm-up), and memory per connection = server RSS
 * growth (from /proc, each read after a forced full GC) / N. Ratios are printed with the absolute numbers beside them and the JSON goes to
 * bench/results/realtime-<timestamp>.json (repo root).
 *
 * Descriptors: each server and each fleet holds N sockets, so `ulimit -n` must exceed N + a few hundred.
 */
import { execSync, fork, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import PusherServer from "pusher";
import WebSocket from "ws";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const APP = { appId: "bench", key: "bench-key", secret: "bench-secret-0123456789" };
const CHANNEL = "bench";
/** Client sockets are spread over several loopback source addresses so ephemeral ports never run out. */
const SOURCE_ADDRESSES = ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"];
const CONNECT_CONCURRENCY = 250;
const ROUND_TIMEOUT_MS = 60_000;

type Target = "realtime" | "baseline";

const round2 = (x: number) => Math.round(x * 100) / 100;
const started = performance.now();
const progress = (line: string) => console.log(`  [${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tickData(round: number): string {
  return JSON.stringify({ round, body: "x".repeat(100) });
}

/** The exact frame the realtime server sends for a tick; the baseline sends the same bytes. */
function tickFrame(round: number): string {
  return JSON.stringify({ event: "tick", channel: CHANNEL, data: tickData(round) });
}

// ---------------------------------------------------------------------------------------------- fleet

type FleetCommand = { cmd: "connect"; target: Target; port: number; n: number } | { cmd: "round"; round: number } | { cmd: "close" };
type FleetReply =
  { ok: "connected"; connectMs: number } | { ok: "round"; latencies: number[]; publishMs: number; missing: number } | { ok: "closed" } | { error: string };

interface Client {
  ws: WebSocket;
  onTick: ((at: number, round: number) => void) | null;
}

async function runFleet(): Promise<void> {
  let clients: Client[] = [];
  let publish: (round: number) => Promise<unknown> = async () => {};
  const reply = (m: FleetReply) => process.send!(m);

  const openOne = (i: number, url: string, target: Target) =>
    new Promise<Client>((resolve, reject) => {
      const ws = new WebSocket(url, { localAddress: SOURCE_ADDRESSES[i % SOURCE_ADDRESSES.length], perMessageDeflate: false });
      const client: Client = { ws, onTick: null };
      let ready = false;
      ws.on("error", (err) => (ready ? undefined : reject(err)));
      ws.on("message", (raw) => {
        const at = performance.now();
        // Every client parses what it gets, as a real one would.
        const msg = JSON.parse(raw.toString()) as { event: string; data?: string };
        if (msg.event === "tick") {
          client.onTick?.(at, (JSON.parse(msg.data!) as { round: number }).round);
        } else if (!ready) {
          if (target === "realtime" && msg.event === "pusher:connection_established") {
            ws.send(JSON.stringify({ event: "pusher:subscribe", data: { channel: CHANNEL } }));
          } else if (msg.event === (target === "realtime" ? "pusher_internal:subscription_succeeded" : "ready")) {
            ready = true;
            resolve(client);
          }
        }
      });
    });

  process.on("message", async (m: FleetCommand) => {
    try {
      if (m.cmd === "connect") {
        const url =
          m.target === "realtime" ? `ws://127.0.0.1:${m.port}/app/${APP.key}?protocol=7&client=js&version=8.6.0&flash=false` : `ws://127.0.0.1:${m.port}/`;
        const t = performance.now();
        for (let i = 0; i < m.n; i += CONNECT_CONCURRENCY) {
          const size = Math.min(CONNECT_CONCURRENCY, m.n - i);
          clients.push(...(await Promise.all(Array.from({ length: size }, (_, k) => openOne(i + k, url, m.target)))));
        }
        if (m.target === "realtime") {
          // Keep-alive, like the baseline's fetch (and like an app server should configure the SDK).
          const agent = new http.Agent({ keepAlive: true });
          const sdk = new PusherServer({ ...APP, host: "127.0.0.1", port: String(m.port), useTLS: false, agent });
          publish = (round) => sdk.trigger(CHANNEL, "tick", tickData(round));
        } else {
          publish = async (round) => (await fetch(`http://127.0.0.1:${m.port}/broadcast`, { method: "POST", body: tickFrame(round) })).text();
        }
        reply({ ok: "connected", connectMs: Math.round(performance.now() - t) });
      } else if (m.cmd === "round") {
        const latencies: number[] = [];
        let remaining = clients.length;
        let t0 = 0;
        const done = new Promise<void>((resolve) => {
          for (const c of clients) {
            c.onTick = (at, r) => {
              if (r !== m.round) return;
              c.onTick = null;
              latencies.push(at - t0);
              if (--remaining === 0) resolve();
            };
          }
        });
        t0 = performance.now();
        await publish(m.round);
        const publishMs = performance.now() - t0;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([done, new Promise((r) => (timer = setTimeout(r, ROUND_TIMEOUT_MS)))]);
        clearTimeout(timer);
        for (const c of clients) c.onTick = null;
        reply({ ok: "round", latencies, publishMs, missing: remaining });
      } else if (m.cmd === "close") {
        await Promise.all(
          clients.map(
            (c) =>
              new Promise<void>((resolve) => {
                if (c.ws.readyState === WebSocket.CLOSED) return resolve();
                c.ws.once("close", () => resolve());
                c.ws.terminate();
              }),
          ),
        );
        clients = [];
        reply({ ok: "closed" });
        process.disconnect();
      }
    } catch (err) {
      reply({ error: (err as Error).stack ?? String(err) });
    }
  });
}

// ---------------------------------------------------------------------------------------------- main

function fdLimit(): number {
  try {
    return Number(execSync("ulimit -n", { shell: "/bin/sh" }).toString().trim()) || 1024;
  } catch {
    return 1024;
  }
}

/** RSS of a server child, read after asking it for a full GC (SIGUSR2, see realtime-node.ts). */
async function settledRss(proc: ChildProcess): Promise<number> {
  proc.kill("SIGUSR2");
  await sleep(300);
  return rssBytes(proc.pid!);
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : NaN;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Starts a server child and resolves with its port once it prints its "listening on" line. */
function startServer(script: string, env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, ["--expose-gc", "--import", "tsx", script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]) });
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`${script} exited (${code}):\n${out}`)));
  });
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

class Fleet {
  readonly proc: ChildProcess;
  private waiting: ((m: FleetReply) => void) | null = null;

  constructor() {
    this.proc = fork(SELF, ["--fleet"], { cwd: REPO_ROOT, execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.proc.on("message", (m: FleetReply) => {
      const w = this.waiting;
      this.waiting = null;
      w?.(m);
    });
  }

  ask<T extends FleetReply>(cmd: FleetCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      this.waiting = (m) => ("error" in m ? reject(new Error(m.error)) : resolve(m as T));
      this.proc.send(cmd);
    });
  }
}

interface Side {
  target: Target;
  server: ChildProcess;
  port: number;
  fleet: Fleet;
  rssBefore: number;
  rssAfter: number;
  connectMs: number;
  latencies: number[];
  publishMs: number[];
  missing: number;
}

function summarize(s: Side, n: number, rounds: number) {
  const lat = [...s.latencies].sort((a, b) => a - b);
  const pub = [...s.publishMs].sort((a, b) => a - b);
  return {
    connectMs: s.connectMs,
    rssBeforeBytes: s.rssBefore,
    rssAfterBytes: s.rssAfter,
    bytesPerConnection: Math.round((s.rssAfter - s.rssBefore) / n),
    latencyMs: {
      p50: round2(percentile(lat, 50)),
      p99: round2(percentile(lat, 99)),
      max: round2(lat[lat.length - 1] ?? NaN),
      mean: round2(lat.reduce((a, x) => a + x, 0) / (lat.length || 1)),
    },
    publishCallMs: { p50: round2(percentile(pub, 50)), max: round2(pub[pub.length - 1] ?? NaN) },
    delivered: lat.length,
    expected: n * rounds,
    missing: s.missing,
  };
}

async function benchOne(n: number, rounds: number, redisUrl: string | undefined) {
  const sides: Side[] = [];
  try {
    for (const target of ["realtime", "baseline"] as const) {
      const { proc, port } =
        target === "realtime"
          ? await startServer("realtime/bench/realtime-node.ts", {
              APP_ENV: "test",
              REALTIME_APP_ID: APP.appId,
              REALTIME_KEY: APP.key,
              REALTIME_SECRET: APP.secret,
              REALTIME_HOST: "127.0.0.1",
              REALTIME_PORT: "0",
              REALTIME_SHUTDOWN_SPREAD_MS: "0",
              REDIS_URL: redisUrl ?? "",
              REALTIME_REDIS_PREFIX: `bench-${process.pid}:`,
              // The fleet is one load generator opening N connections from loopback: exempt from the
              // per-address limits by configuration, as an operator would exempt a trusted gateway.
              REALTIME_LIMIT_EXEMPT_ADDRESSES: "127.0.0.0/8",
            })
          : await startServer("realtime/bench/baseline-server.ts", { PORT: "0" });
      sides.push({ target, server: proc, port, fleet: new Fleet(), rssBefore: 0, rssAfter: 0, connectMs: 0, latencies: [], publishMs: [], missing: 0 });
    }
    progress("servers up");
    await sleep(500);
    for (const s of sides) {
      s.rssBefore = await settledRss(s.server);
      s.connectMs = (await s.fleet.ask<{ ok: "connected"; connectMs: number }>({ cmd: "connect", target: s.target, port: s.port, n })).connectMs;
      s.rssAfter = await settledRss(s.server);
      progress(`${n} clients on ${s.target} in ${s.connectMs} ms`);
    }
    for (let round = 0; round <= rounds; round++) {
      for (const s of round % 2 ? sides : [...sides].reverse()) {
        const r = await s.fleet.ask<{ ok: "round"; latencies: number[]; publishMs: number; missing: number }>({ cmd: "round", round });
        if (r.missing) console.warn(`  ${s.target} round ${round}: ${r.missing} of ${n} deliveries missing after ${ROUND_TIMEOUT_MS} ms`);
        if (round === 0) continue; // warm-up
        s.latencies.push(...r.latencies);
        s.publishMs.push(r.publishMs);
        s.missing += r.missing;
        await sleep(50);
      }
    }
    progress(`${rounds} rounds done`);
    for (const s of sides) await s.fleet.ask({ cmd: "close" });
    progress("clients closed");
    return { realtime: summarize(sides[0], n, rounds), baseline: summarize(sides[1], n, rounds) };
  } finally {
    for (const s of sides) {
      if (s.fleet.proc.connected) s.fleet.proc.kill();
      await stop(s.server);
    }
    progress("servers stopped");
  }
}

const ratio = (a: number, b: number) => (b > 0 ? round2(a / b) : null);

async function main(): Promise<void> {
  const ns: number[] = [];
  let rounds = 10;
  let redis = false;
  for (const a of process.argv.slice(2)) {
    if (a.startsWith("--rounds=")) rounds = Math.max(1, Number(a.slice(9)));
    else if (a === "--redis") redis = true;
    else if (/^\d+$/.test(a)) ns.push(Number(a));
    else throw new Error(`Unknown argument: ${a}\nUsage: realtime-bench.ts N [N ...] [--rounds=10] [--redis]`);
  }
  if (!ns.length) ns.push(1000);
  const limit = fdLimit();
  const biggest = Math.max(...ns);
  if (biggest + 256 > limit) {
    console.error(
      `ulimit -n is ${limit}; N=${biggest} needs more than ${biggest + 256} descriptors per process. Raise it (ulimit -n ${biggest + 1024}) and run again.`,
    );
    process.exit(2);
  }
  const redisUrl = redis ? (process.env.REDIS_URL ?? "redis://127.0.0.1:6379") : undefined;
  const payloadBytes = Buffer.byteLength(tickFrame(1));
  console.log(
    `realtime fan-out bench: N=${ns.join(",")} rounds=${rounds} frame=${payloadBytes} B ${redisUrl ? "(Redis scale-out on)" : "(single node)"}; ` +
      `${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}, node ${process.version}, ulimit -n ${limit}`,
  );
  const results = [];
  for (const n of ns) {
    const loadBefore = os.loadavg()[0];
    const { realtime, baseline } = await benchOne(n, rounds, redisUrl);
    const ratios = {
      latencyP50: ratio(realtime.latencyMs.p50, baseline.latencyMs.p50),
      latencyP99: ratio(realtime.latencyMs.p99, baseline.latencyMs.p99),
      bytesPerConnection: ratio(realtime.bytesPerConnection, baseline.bytesPerConnection),
    };
    results.push({ n, loadAverage1m: round2(loadBefore), realtime, baseline, ratios });
    console.log(
      `N=${n}: p50 ${realtime.latencyMs.p50} ms vs ${baseline.latencyMs.p50} ms bare (x${ratios.latencyP50}); ` +
        `p99 ${realtime.latencyMs.p99} ms vs ${baseline.latencyMs.p99} ms (x${ratios.latencyP99}); ` +
        `memory ${(realtime.bytesPerConnection / 1024).toFixed(1)} KB/conn vs ${(baseline.bytesPerConnection / 1024).toFixed(1)} KB (x${ratios.bytesPerConnection}); ` +
        `delivered ${realtime.delivered}/${realtime.expected} and ${baseline.delivered}/${baseline.expected}`,
    );
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const dir = path.join(REPO_ROOT, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `realtime-${stamp}.json`);
  const report = {
    benchmark: "realtime-fanout",
    timestamp: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryBytes: os.totalmem(), node: process.version, platform: process.platform },
    settings: { rounds, frameBytes: payloadBytes, redis: Boolean(redisUrl), fdLimit: limit },
    method:
      "Per N: realtime server and bare ws server run side by side as child processes, each with a client-fleet process of N " +
      "WebSocket clients; rounds alternate between them. latency = arrival at a client - moment just before the publish call " +
      "(pusher SDK over the HTTP API, or POST /broadcast), both taken in the fleet process; percentiles over all deliveries of " +
      "all rounds, round 0 excluded as warm-up. memory = server RSS growth / N after all clients connected (and subscribed), each RSS read after a forced full GC.",
    results,
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(REPO_ROOT, file)}`);
}

if (process.argv.includes("--fleet")) {
  void runFleet();
} else {
  main().catch((err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  });
}
