import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, stopAbandonedServer, type EmbeddedPostgres } from "~/db/embedded-postgres.server";

/**
 * The embedded PostgreSQL's lifecycle (app/db/embedded-postgres.server.ts, decision 003): a cluster made in a
 * private DATA_DIR and reused; a server left running by a process killed with SIGKILL, or killed with it,
 * recovered at the next start; a second process using the running server; a postmaster.pid naming another
 * program. As root (CI, Docker builds, this kind of machine) PostgreSQL runs as the OS user postgres.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const asRoot = process.getuid?.() === 0;
const folders: string[] = [];
const running: EmbeddedPostgres[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const server of running) await server.stop().catch(() => {});
  for (const folder of folders) {
    // A failed test may leave a server behind: stopped before its folder goes.
    await stopAbandonedServer(folder).catch(() => {});
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

/** A private folder, as `mktemp -d` makes (mode 700). */
function privateFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-embedded-test-"));
  fs.chmodSync(folder, 0o700);
  folders.push(folder);
  return folder;
}

async function start(dataDir: string): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres({ dataDir, fastInit: true });
  running.push(server);
  return server;
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs tests/integration/support/embedded-child.ts on `dataDir` until it has printed its line. */
async function child(dataDir: string): Promise<{ process: ChildProcess; url: string; owned: boolean; notes: string[] }> {
  const process_ = spawn(process.execPath, ["--import", "tsx", "tests/integration/support/embedded-child.ts", dataDir], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(process_);
  let stderr = "";
  process_.stderr!.on("data", (chunk) => (stderr += chunk));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: process_.stdout! }).once("line", resolve);
    process_.once("exit", (code) => reject(new Error(`the child exited (${code}): ${stderr}`)));
  });
  return { process: process_, ...(JSON.parse(line) as { url: string; owned: boolean; notes: string[] }) };
}

function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function exitOf(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once("exit", resolve));
}

describe("the embedded PostgreSQL", () => {
  const dataDir = privateFolder();

  it("starts in a private DATA_DIR (as root: PostgreSQL runs as postgres, the folder opened to its group only), on localhost, with a kept password", async () => {
    const server = await start(dataDir);
    expect(server.owned).toBe(true);
    expect(server.notes.join("\n")).toContain("a new PostgreSQL cluster was created");
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    const [row] = await query<{ version: string; listen: string; sockets: string; user: string }>(
      server.url,
      "select current_setting('server_version') as version, current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets, current_user as user",
    );
    expect(row).toMatchObject({ listen: "127.0.0.1", sockets: "", user: "postgres" });
    expect(row!.version).toMatch(/^18\./);
    expect(server.url).toContain(encodeURIComponent(fs.readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim()));
    expect(fs.statSync(path.join(dataDir, "postgres-password")).mode & 0o777).toBe(0o600);
    const folder = fs.statSync(dataDir);
    if (asRoot) {
      const postgresUser = fs.statSync(path.join(dataDir, "postgres"));
      expect(postgresUser.uid).not.toBe(0);
      // Search permission for PostgreSQL's group, nothing for anyone else; the owner keeps the folder.
      expect(folder.mode & 0o777).toBe(0o710);
      expect(folder.gid).toBe(postgresUser.gid);
      expect(folder.uid).toBe(0);
      expect(server.notes.join("\n")).toContain("may now pass through it (mode 710)");
    } else {
      expect(folder.mode & 0o777).toBe(0o700);
    }
    await query(server.url, "create table kept (note text); insert into kept values ('before the restarts')");
    await server.stop();
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "postgres-owner.pid"))).toBe(false);
  }, 120_000);

  it("reuses its cluster at the next start", async () => {
    const server = await start(dataDir);
    expect(server.notes).toEqual([]);
    expect(await query(server.url, "select note from kept")).toEqual([{ note: "before the restarts" }]);
    await server.stop();
  }, 60_000);

  it("stops the server a process killed with SIGKILL left running, and starts afresh", async () => {
    const first = await child(dataDir);
    expect(first.owned).toBe(true);
    const orphan = postmasterPid(dataDir);
    first.process.kill("SIGKILL");
    await exitOf(first.process);
    // The server outlives its owner.
    expect(alive(orphan)).toBe(true);
    expect(await query(first.url, "select count(*)::int as n from kept")).toEqual([{ n: 1 }]);

    const server = await start(dataDir);
    expect(server.owned).toBe(true);
    expect(server.notes.join("\n")).toContain(`left running by a process that stopped abruptly (process ${orphan})`);
    expect(alive(orphan)).toBe(false);
    expect(postmasterPid(dataDir)).not.toBe(orphan);
    expect(await query(server.url, "select note from kept")).toEqual([{ note: "before the restarts" }]);
    await server.stop();
  }, 120_000);

  it("starts after the server was killed with SIGKILL too (a stale postmaster.pid, crash recovery)", async () => {
    const first = await child(dataDir);
    const postmaster = postmasterPid(dataDir);
    first.process.kill("SIGKILL");
    process.kill(postmaster, "SIGKILL");
    await exitOf(first.process);
    for (let i = 0; i < 100 && alive(postmaster); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(true);

    const server = await start(dataDir);
    expect(await query(server.url, "select note from kept")).toEqual([{ note: "before the restarts" }]);
    await server.stop();
  }, 120_000);

  it("removes a postmaster.pid whose process id another program has taken since", async () => {
    const server = await start(dataDir);
    await server.stop();
    // This test's own process id: alive, and not a postgres.
    fs.writeFileSync(path.join(dataDir, "postgres", "postmaster.pid"), `${process.pid}\n${path.join(dataDir, "postgres")}\n0\n5432\n\n127.0.0.1\n0\nready\n`);
    if (asRoot)
      fs.chownSync(
        path.join(dataDir, "postgres", "postmaster.pid"),
        fs.statSync(path.join(dataDir, "postgres")).uid,
        fs.statSync(path.join(dataDir, "postgres")).gid,
      );
    const again = await start(dataDir);
    expect(again.notes.join("\n")).toContain(`stale postmaster.pid (process ${process.pid} is another program now) was removed`);
    expect(await query(again.url, "select count(*)::int as n from kept")).toEqual([{ n: 1 }]);
    await again.stop();
  }, 120_000);

  it("lets a second process use the running server, and leaves it running for its owner", async () => {
    const server = await start(dataDir);
    const second = await child(dataDir);
    expect(second.owned).toBe(false);
    expect(second.url).toContain(`:${server.port}/`);
    second.process.stdin!.write("stop\n");
    await exitOf(second.process);
    expect(await query(server.url, "select count(*)::int as n from kept")).toEqual([{ n: 1 }]);
    await server.stop();
    expect(fs.existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  }, 120_000);

  it.runIf(asRoot)(
    "as root, leaves a private folder above DATA_DIR alone and says what to do",
    async () => {
      const parent = privateFolder();
      const nested = path.join(parent, "data");
      await expect(startEmbeddedPostgres({ dataDir: nested, fastInit: true })).rejects.toThrow(`cannot pass through ${parent}, above DATA_DIR`);
      expect(fs.statSync(parent).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(nested, "postgres"))).toBe(false);
    },
    60_000,
  );
});
