import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase, setDatabase, type Database } from "~/db/client.server";
import { salesImports } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { enqueueJob, getJobStatus, runQueuedJobsNow, stopJobWorkers } from "~/modules/jobs/queue.server";
import { registerJobs } from "~/modules/jobs/registry.server";
import { SALES_IMPORT_JOB, submitSalesImport } from "~/modules/ledger/imports/sales-import-job.server";
import { storage } from "~/modules/storage/storage.server";
import { createTestDatabase } from "../helpers/database";
import { DIGITAL_HEADER, statementUpload } from "../helpers/statements";
import { TEST_SETTINGS } from "../setup/settings";
import { POISON_JOB, registerPoisonJobs, type PoisonData } from "./support/poison-jobs";

/**
 * No job, whatever it throws, ends the process (decision 016). pg-boss records the end of a worker's run without
 * awaiting it, so a run whose error PostgreSQL cannot store (a NUL in its message: jsonb refuses \u0000) was an
 * unhandled rejection, and Node ends the process on one: every later request got ECONNREFUSED, and the next start
 * ran the same job into the same end. The worker runs in a child process here (tests/integration/support/
 * job-worker-child.ts), a server answering /healthz beside its job workers, so a test sees the process itself.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let databaseUrl: string;
let dropDatabase: (() => Promise<void>) | undefined;
let database: Database | undefined;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  const created = await createTestDatabase();
  databaseUrl = created.url;
  dropDatabase = created.drop;
  database = await openDatabase(databaseUrl);
  setDatabase(database);
  registerJobs();
  registerPoisonJobs();
}, 60_000);

afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
});

afterAll(async () => {
  await stopJobWorkers();
  setDatabase(undefined);
  await database?.close();
  await dropDatabase?.();
});

interface Worker {
  child: ChildProcess;
  url: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  runs: string[];
  stderr: () => string;
}

function startWorker(args: string[] = []): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/support/job-worker-child.ts", ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_SETTINGS,
      APP_ENV: "test",
      DATABASE_URL: databaseUrl,
      SEED_DEMO_DATA: "false",
      REALTIME_HOST: "127.0.0.1",
      REALTIME_PORT: "9",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const runs: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on("line", (text) => {
      const event = JSON.parse(text) as { event: string; port?: number; throws?: string };
      if (event.event === "listening") resolve(`http://127.0.0.1:${event.port}`);
      if (event.event === "run") runs.push(event.throws!);
    });
    void exited.then(() => reject(new Error(`the worker process exited before listening:\n${stderr}`)));
  });
  return { child, url, exited, runs, stderr: () => stderr };
}

/** Waits until `check` holds, at most `ms`; fails early when the worker process has ended. */
async function until(worker: Worker | null, check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (worker && worker.child.exitCode !== null) throw new Error(`the worker process ended (exit ${worker.child.exitCode}):\n${worker.stderr()}`);
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(worker: Worker): Promise<number> {
  return (await fetch(`${await worker.url}/healthz`)).status;
}

const stateOf = async (id: string) => (await getJobStatus(POISON_JOB, id))?.state;

describe("a job that throws", () => {
  it("never ends the process, whatever it throws; each run is failed with what was thrown, storable", async () => {
    const worker = startWorker();
    expect(await answers(worker)).toBe(200);
    const kinds: PoisonData["throws"][] = ["nul", "surrogate", "null", "circular"];
    const ids = new Map<string, string>();
    for (const throws of kinds) ids.set(throws, (await enqueueJob<PoisonData>(POISON_JOB, { throws }))!);
    // retryLimit 1: two runs each, then failed for good.
    await until(worker, async () => (await Promise.all([...ids.values()].map(stateOf))).every((state) => state === "failed"));
    expect(worker.runs.length).toBe(kinds.length * 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(worker.child.exitCode, worker.stderr()).toBeNull();
    expect(await answers(worker)).toBe(200);
    const output = async (kind: string) => ((await getJobStatus(POISON_JOB, ids.get(kind)!))!.output as { message: string }).message;
    expect(await output("nul")).toBe('insert into statement_lines failed: invalid byte in "Spot\\0ify"');
    expect(await output("surrogate")).toBe("half a pair: \uFFFD");
    expect(await output("null")).toBe("A job threw null.");
    expect(await output("circular")).toBe("A job threw a non-Error object.");
  }, 60_000);

  it("does not end the next start either: a run cut off by a crash is run again there, fails and is given up on", async () => {
    const first = startWorker();
    await first.url;
    const id = (await enqueueJob<PoisonData>(POISON_JOB, { throws: "nul", afterMs: 60_000 }))!;
    await until(first, async () => (await stateOf(id)) === "active");
    first.child.kill("SIGKILL");
    await first.exited;
    expect(await stateOf(id)).toBe("active");

    // The next start fails the run the dead process left active, so it is retried at once, and throws again.
    const second = startWorker(["--retry-interrupted-runs"]);
    expect(await answers(second)).toBe(200);
    await until(second, async () => (await stateOf(id)) === "failed");
    expect(second.runs).toEqual(["nul"]);
    const job = (await getJobStatus(POISON_JOB, id))!;
    expect(job.retryCount).toBe(1);
    expect((job.output as { message: string }).message).toContain("Spot\\0ify");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.child.exitCode, second.stderr()).toBeNull();
    expect(await answers(second)).toBe(200);
  }, 90_000);
});

describe("a sales import whose job fails", () => {
  it("is recorded as failed with the reason once its retries are spent, and nothing is posted", async () => {
    await seedDemoData();
    const admin = (await findUserByEmail("admin@example.com"))!;
    const created = await submitSalesImport(
      await statementUpload(
        "digital",
        [DIGITAL_HEADER, "GONE-1,2026-08-15,2026-06,2026-06,Spotify,,stream,track,US,Midnight Owls,,,Song,USBL12600001,1,0.1,USD,1.00,1.00,USD,"],
        admin.id,
      ),
    );
    // The stored statement disappears before the job runs (a volume lost, a file removed by hand).
    await storage().delete(created.filePath);
    const result = await runQueuedJobsNow(SALES_IMPORT_JOB);
    // Two failed runs are retried, the third records the failure and completes the job.
    expect(result).toEqual({ runs: 3, completed: 1, failed: 2 });
    const [row] = await db().select().from(salesImports).where(eq(salesImports.id, created.id));
    expect(row!.status).toBe("failed");
    expect(row!.error).toMatch(/^The import stopped on an error and posted nothing: No stored file at statements\/[0-9a-f]{64}\.txt\. /);
    expect(row!.lines).toBe(0);
  });
});
