import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { enqueueJob, getJobStatus, registerJobHandler, runQueuedJobsNow, startJobWorkers, stopJobWorkers } from "./queue.server";

useTestDatabase();
afterAll(() => stopJobWorkers());

/** Waits until `check` holds (the workers poll), at most `ms`. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("durable jobs (pg-boss over the app's database)", () => {
  // First: it needs the queue not yet open on this database (pg-boss opens on its own connections).
  it("enqueues inside a transaction before the queue is open", async () => {
    registerJobHandler("test.early", async () => {});
    expect(await db().transaction(async (tx) => enqueueJob("test.early", {}, { tx }))).toBeTruthy();
    expect(await db().transaction(async (tx) => enqueueJob("test.early", {}, { tx }))).toBeTruthy();
  });

  it("runs an enqueued job with its data", async () => {
    const seen: unknown[] = [];
    registerJobHandler<{ n: number }>("test.echo", async (data, job) => {
      seen.push({ data, retryCount: job.retryCount, name: job.name });
    });
    const id = await enqueueJob("test.echo", { n: 7 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).toEqual([]);
    expect((await getJobStatus("test.echo", id!))?.state).toBe("created");

    const result = await runQueuedJobsNow("test.echo");
    expect(result).toEqual({ runs: 1, completed: 1, failed: 0 });
    expect(seen).toEqual([{ data: { n: 7 }, retryCount: 0, name: "test.echo" }]);
    expect((await getJobStatus("test.echo", id!))?.state).toBe("completed");
    expect(await runQueuedJobsNow("test.echo")).toEqual({ runs: 0, completed: 0, failed: 0 });
  });

  it("retries a throwing job a bounded number of times, then marks it failed", async () => {
    let runs = 0;
    registerJobHandler(
      "test.flaky",
      async () => {
        runs += 1;
        throw new Error(`boom ${runs}`);
      },
      { retryLimit: 2, retryDelaySeconds: 30, retryBackoff: true },
    );
    const id = (await enqueueJob("test.flaky", {}))!;
    // The first failure schedules a retry with a delay (backoff): the job waits in "retry".
    const first = await runQueuedJobsNow("test.flaky", { maxRuns: 1 }).catch(() => undefined);
    expect(first).toBeUndefined(); // maxRuns reached: the retry is due (the drain skips delays)
    const waiting = await getJobStatus("test.flaky", id);
    expect(waiting?.state).toBe("retry");
    expect(waiting?.retryLimit).toBe(2);

    const rest = await runQueuedJobsNow("test.flaky");
    expect(rest).toEqual({ runs: 2, completed: 0, failed: 2 });
    expect(runs).toBe(3); // first run + retryLimit retries
    const failed = await getJobStatus("test.flaky", id);
    expect(failed?.state).toBe("failed");
    expect(failed?.retryCount).toBe(2);
    expect(failed?.output).toMatchObject({ message: "boom 3" });
  });

  it("succeeds on a retry after a failure", async () => {
    let runs = 0;
    registerJobHandler("test.once-flaky", async () => {
      runs += 1;
      if (runs === 1) throw new Error("transient");
    });
    const id = (await enqueueJob("test.once-flaky", {}))!;
    expect(await runQueuedJobsNow("test.once-flaky")).toEqual({ runs: 2, completed: 1, failed: 1 });
    expect((await getJobStatus("test.once-flaky", id))?.state).toBe("completed");
  });

  it("does not queue a second job with the same singletonKey while one waits", async () => {
    const seen: string[] = [];
    registerJobHandler<{ file: string }>("test.import", async (data) => {
      seen.push(data.file);
    });
    const first = await enqueueJob("test.import", { file: "a.csv" }, { singletonKey: "import-1" });
    const second = await enqueueJob("test.import", { file: "a-again.csv" }, { singletonKey: "import-1" });
    const other = await enqueueJob("test.import", { file: "b.csv" }, { singletonKey: "import-2" });
    const unkeyed1 = await enqueueJob("test.import", { file: "c.csv" });
    const unkeyed2 = await enqueueJob("test.import", { file: "d.csv" });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(other).toBeTruthy();
    expect(unkeyed1).toBeTruthy();
    expect(unkeyed2).toBeTruthy();
    await runQueuedJobsNow("test.import");
    expect(seen.sort()).toEqual(["a.csv", "b.csv", "c.csv", "d.csv"]);
    // Once it has run, the key can be queued again.
    expect(await enqueueJob("test.import", { file: "a.csv" }, { singletonKey: "import-1" })).toBeTruthy();
    await runQueuedJobsNow("test.import");
    expect(seen).toHaveLength(5);
  });

  it("records a job inside a transaction only if the transaction commits", async () => {
    const seen: string[] = [];
    registerJobHandler<{ tag: string }>("test.tx", async (data) => {
      seen.push(data.tag);
    });
    await db().transaction(async (tx) => {
      await enqueueJob("test.tx", { tag: "committed", list: [1, 2] }, { tx });
    });
    await db()
      .transaction(async (tx) => {
        await enqueueJob("test.tx", { tag: "rolled back" }, { tx });
        throw new Error("rollback");
      })
      .catch(() => undefined);
    await runQueuedJobsNow("test.tx");
    expect(seen).toEqual(["committed"]);
  });

  it("refuses a job name without a handler", async () => {
    await expect(enqueueJob("test.nobody", {})).rejects.toThrow(/No handler/);
  });

  it("workers run jobs in the background, stop cleanly, and start again", async () => {
    const seen: number[] = [];
    registerJobHandler<{ n: number }>("test.background", async (data) => {
      seen.push(data.n);
    });
    await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    await startJobWorkers(); // idempotent
    await enqueueJob("test.background", { n: 1 });
    await eventually(() => seen.length === 1);

    await stopJobWorkers();
    await stopJobWorkers(); // idempotent
    await enqueueJob("test.background", { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(seen).toEqual([1]); // stopped: nothing runs

    await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    await eventually(() => seen.length === 2);
    expect(seen).toEqual([1, 2]);

    // A handler registered while the workers run gets a worker too.
    const late: string[] = [];
    registerJobHandler<{ s: string }>("test.late", async (data) => {
      late.push(data.s);
    });
    await enqueueJob("test.late", { s: "x" });
    await eventually(() => late.length === 1);
    await stopJobWorkers();
  });

  it("a run interrupted by a stop is retried when the workers start again", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    registerJobHandler(
      "test.interrupted",
      async () => {
        runs += 1;
        if (runs === 1) await blocked;
      },
      { retryDelaySeconds: 1, retryBackoff: false },
    );
    await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    const id = (await enqueueJob("test.interrupted", {}))!;
    await eventually(() => runs === 1);
    expect((await getJobStatus("test.interrupted", id))?.state).toBe("active");
    // The run does not finish within the stop's grace period: it is failed, to be retried.
    await stopJobWorkers({ timeoutMs: 1000 });
    expect((await getJobStatus("test.interrupted", id))?.state).toBe("retry");
    release();
    await startJobWorkers({ pollingIntervalSeconds: 0.5 });
    await eventually(async () => (await getJobStatus("test.interrupted", id))?.state === "completed");
    expect(runs).toBe(2);
    await stopJobWorkers();
  });

  it("a run left active by a process that died is run again", async () => {
    let runs = 0;
    registerJobHandler(
      "test.crashed",
      async () => {
        runs += 1;
      },
      { expireInSeconds: 1, retryDelaySeconds: 0, retryBackoff: false },
    );
    const id = (await enqueueJob("test.crashed", {}))!;
    // Simulate a SIGKILL mid-run: the job is marked active as a worker would, and nobody finishes it.
    await db().execute(sql`update pgboss.job set state = 'active', started_on = now() - interval '5 seconds' where id = ${id}`);
    await startJobWorkers({ pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    await eventually(async () => (await getJobStatus("test.crashed", id))?.state === "completed");
    expect(runs).toBe(1);
    expect((await getJobStatus("test.crashed", id))?.retryCount).toBe(1);
    await stopJobWorkers();
  });

  it("a process that has just started the database server itself retries a run left active at once", async () => {
    let runs = 0;
    registerJobHandler(
      "test.cut-off",
      async () => {
        runs += 1;
      },
      { retryDelaySeconds: 0, retryBackoff: false },
    );
    const id = (await enqueueJob("test.cut-off", {}))!;
    // Left active by a process killed mid-run; its expiry (15 minutes) is far off.
    await db().execute(sql`update pgboss.job set state = 'active', started_on = now() where id = ${id}`);
    await startJobWorkers({ pollingIntervalSeconds: 0.5, retryInterruptedRuns: true });
    await eventually(async () => (await getJobStatus("test.cut-off", id))?.state === "completed");
    expect(runs).toBe(1);
    expect((await getJobStatus("test.cut-off", id))?.retryCount).toBe(1);
    await stopJobWorkers();
  });
});
