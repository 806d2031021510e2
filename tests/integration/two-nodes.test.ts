import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase, setDatabase, type Database } from "~/db/client.server";
import { appConfig, users, type User } from "~/db/schema";
import { createTestDatabase } from "../helpers/database";
import { createSignedMember, TEST_PASSWORD } from "../helpers/factories";
import { startS3Server, type S3TestServer } from "../helpers/s3-server";
import { TEST_SETTINGS } from "../setup/settings";

/**
 * Two app nodes on one PostgreSQL and one S3 store, as behind a load balancer (decision 035): two processes, each
 * booted as server/start.js boots (job workers, cache bus), each with a DATA_DIR of its own, so nothing they share
 * goes through a local disk. Node A and node B are asked in turn, as a balancer without sticky sessions would.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface AppNode {
  name: string;
  child: ChildProcess;
  origin: string;
  events: Array<Record<string, any>>;
  send(command: Record<string, unknown>): Promise<Record<string, any>>;
  output: () => string;
}

let database: Database | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let s3: S3TestServer | undefined;
const nodes: AppNode[] = [];
const dataDirs: string[] = [];

function startNode(name: string, settings: Record<string, string>): Promise<AppNode> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `backline-node-${name}-`));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ["tests/integration/support/app-node.mjs"], {
    cwd: ROOT,
    env: { ...process.env, ...TEST_SETTINGS, ...settings, DATA_DIR: dataDir, STORAGE_DIR: "", NODE_NAME: name },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const events: Array<Record<string, any>> = [];
  const waiting: Array<{ match: (event: Record<string, any>) => boolean; resolve: (event: Record<string, any>) => void }> = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    output += `${line}\n`;
    if (!line.startsWith("{")) return;
    const event = JSON.parse(line) as Record<string, any>;
    events.push(event);
    for (const waiter of waiting.filter((w) => w.match(event))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  const next = (match: (event: Record<string, any>) => boolean, timeoutMs: number) =>
    new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`node ${name}: no answer within ${timeoutMs} ms\n${output}`)), timeoutMs);
      waiting.push({ match, resolve: (event) => (clearTimeout(timer), resolve(event)) });
    });
  return next((event) => event.event === "listening", 120_000).then((listening) => ({
    name,
    child,
    origin: listening.origin as string,
    events,
    output: () => output,
    async send(command) {
      const answer = next((event) => event.event === "done" && event.do === command.do, 10_000);
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      await answer;
      return answer;
    },
  }));
}

beforeAll(async () => {
  const created = await createTestDatabase();
  dropDatabase = created.drop;
  database = await openDatabase(created.url);
  setDatabase(database);
  s3 = await startS3Server();
  const shared = {
    APP_ENV: "test",
    DATABASE_URL: created.url,
    STORAGE_URL: s3.url,
    SEED_DEMO_DATA: "false",
    // Nothing listens there: live updates are best effort and not what this test is about.
    REALTIME_HOST: "127.0.0.1",
    REALTIME_PORT: "9",
  };
  // Started together, as an orchestrator starts them: the first-run seeds must not run twice.
  nodes.push(...(await Promise.all([startNode("A", shared), startNode("B", shared)])));
}, 240_000);

afterAll(async () => {
  await Promise.all(
    nodes.map(
      (node) =>
        new Promise<void>((resolve) => {
          if (node.child.exitCode !== null) return resolve();
          node.child.once("exit", () => resolve());
          node.child.kill("SIGTERM");
          setTimeout(() => node.child.kill("SIGKILL"), 20_000).unref();
        }),
    ),
  );
  setDatabase(undefined);
  await database?.close();
  await dropDatabase?.();
  await s3?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const [a, b] = [() => nodes[0]!, () => nodes[1]!];

/** The session cookie node A sets for a real login (email and password through the login form). */
async function logInThrough(node: AppNode, user: User): Promise<string> {
  const response = await fetch(`${node.origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: node.origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD, redirect: "" }),
  });
  expect(response.status, await response.clone().text()).toBe(302);
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("backline_session="));
  expect(session, "a session cookie from node A").toBeTruthy();
  return session!.split(";")[0]!;
}

describe("two app nodes on one database and one object store", () => {
  let member: User;
  let cookie: string;

  beforeAll(async () => {
    member = await createSignedMember("Twonode");
    cookie = await logInThrough(a(), member);
  });

  it("boots both nodes at once on a fresh database: the reference data is seeded once", async () => {
    const [seeded] = await db().select().from(appConfig).where(eq(appConfig.key, "reference_seeded_at"));
    expect(seeded).toBeTruthy();
    // Each seeded value once (a second seed would have doubled the kinds' lists or failed a node's boot).
    const { rows } = await database!.pool.query<{ kind: string; name: string; copies: number }>(
      `SELECT kind, lower(name) AS name, count(*)::int AS copies FROM reference_values GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(rows).toEqual([]);
    expect(nodes.map((node) => node.child.exitCode)).toEqual([null, null]);
  });

  it("a session made on node A works on node B, and signing out on B ends it on A", async () => {
    const page = await fetch(`${b().origin}/member/${member.id}/profile`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(member.email);
    const anonymous = await fetch(`${b().origin}/member/${member.id}/profile`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);

    const other = await logInThrough(a(), member);
    expect((await fetch(`${a().origin}/member/${member.id}/profile`, { headers: { Cookie: other }, redirect: "manual" })).status).toBe(200);
    const out = await fetch(`${b().origin}/logout`, { method: "POST", redirect: "manual", headers: { Origin: b().origin, Cookie: other } });
    expect(out.status).toBe(302);
    expect((await fetch(`${a().origin}/member/${member.id}/profile`, { headers: { Cookie: other }, redirect: "manual" })).status).toBe(302);
  });

  it("an image uploaded through node A is served by node B, from the object store", async () => {
    const png = await sharp({ create: { width: 120, height: 90, channels: 3, background: "#14532d" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("intent", "avatar");
    form.set("avatar", new File([new Uint8Array(png)], "avatar.png", { type: "image/png" }));
    const upload = await fetch(`${a().origin}/member/${member.id}/profile`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: a().origin, Cookie: cookie },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(302);
    const [row] = await db().select({ avatarImg: users.avatarImg }).from(users).where(eq(users.id, member.id));
    expect(row!.avatarImg).toMatch(/^\/storage\/images\/avatar\/[0-9a-f]{32}\/256x256\.webp$/);

    const fromB = await fetch(`${b().origin}${row!.avatarImg}`);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await fromB.arrayBuffer());
    expect((await sharp(bytes).metadata()).width).toBe(256);
    // In the bucket, not on either node's disk.
    const inBucket = fs.readdirSync(s3!.directory, { recursive: true }).map(String);
    expect(inBucket.some((file) => file.includes(row!.avatarImg!.split("/")[4]!))).toBe(true);
    for (const dir of dataDirs)
      expect(
        fs
          .readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith(".webp")),
      ).toEqual([]);
  });

  it("a job enqueued on node A runs once, on one of the two nodes", async () => {
    const { id } = await a()
      .send({ do: "enqueue-probe" })
      .then(() => a().events.find((event) => event.event === "enqueued")!);
    expect(id).toBeTruthy();
    // Both nodes poll every 2 s: after 5 s each has looked at least twice.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const runs = nodes.flatMap((node) => node.events.filter((event) => event.event === "probe-run" && event.id === id).map(() => node.name));
    expect(runs).toHaveLength(1);
  });

  it("a config change made on node A is seen on node B within a second", async () => {
    const settingsOnB = async () =>
      ((await (await fetch(`${b().origin}/api/config`, { headers: { Cookie: cookie } })).json()) as { data: { settings: Record<string, unknown> } }).data
        .settings;
    await a().send({ do: "set-config", key: "two_nodes_probe", value: "first" });
    await expect.poll(async () => (await settingsOnB()).two_nodes_probe, { timeout: 1000, interval: 50 }).toBe("first");

    // B keeps the value in memory: a row changed behind its back (no message) is not seen...
    await db().update(appConfig).set({ value: "behind its back" }).where(eq(appConfig.key, "two_nodes_probe"));
    expect((await settingsOnB()).two_nodes_probe).toBe("first");
    // ...and a change made on A is, within a second (the cache's own expiry is 30 s).
    const changedAt = Date.now();
    await a().send({ do: "set-config", key: "two_nodes_probe", value: "second" });
    await expect.poll(async () => (await settingsOnB()).two_nodes_probe, { timeout: 1000, interval: 50 }).toBe("second");
    expect(Date.now() - changedAt).toBeLessThan(1000);
  });
});
