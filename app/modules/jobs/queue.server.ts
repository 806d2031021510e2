/**
 * Durable background jobs (decision 016): a thin layer over pg-boss, which keeps its queue in our own
 * database (schema `pgboss`), through a small pool of its own.
 *
 * - Features define their jobs (`defineJob(name, handler, options)`, no side effect); the job registry
 *   (./registry.server.ts) lists every one, and the server registers them all at boot, so any node runs any job.
 * - Anyone enqueues: `enqueueJob(name, data, { singletonKey })` records the job (returns its id).
 * - The server runs the workers: `startJobWorkers()` at boot, `stopJobWorkers()` on shutdown.
 * - Tests drain the queue in-process: `await runQueuedJobsNow()`.
 *
 * A job runs at least once, not exactly once: a failed job is retried (with backoff), a job whose
 * process died is run again after its expiry (at once after a restart on the embedded PostgreSQL). Handlers must
 * therefore be idempotent: do the work in one database transaction and make a second run find it
 * done (or finish what the first one started).
 */
import crypto from "node:crypto";
import type { Clock, DrizzleTransactionLike, PgBoss, SendOptions } from "pg-boss";
import { currentDatabase, type Database, type Db } from "~/db/client.server";

/** Connections of pg-boss's own pool (workers poll one at a time; enqueueing inside a transaction uses the transaction's). */
const POOL_SIZE = 4;

export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first run, 1 on the first retry, … */
  retryCount: number;
}

export type JobHandler<T = unknown> = (data: T, job: JobInfo) => Promise<void>;

export interface JobHandlerOptions {
  /** Retries after the first failure (so at most retryLimit + 1 runs). Default 3. */
  retryLimit?: number;
  /** Seconds before the first retry; doubled (with jitter) each retry when retryBackoff. Default 10. */
  retryDelaySeconds?: number;
  /** Exponential backoff between retries. Default true. */
  retryBackoff?: boolean;
  /**
   * How long one run may take. A run still active after this is failed (and retried): the handler
   * is given up on (its promise is no longer awaited) and, after a crash, the job is picked up again.
   * Default 15 minutes; at most 23 hours.
   */
  expireInSeconds?: number;
  /** Jobs of this name run at once by this process. Default 1. */
  concurrency?: number;
  /**
   * Run once a day (a UTC day): while workers run, the maintenance tick enqueues the day's job when there is none
   * yet, so any number of nodes run it once (decision 016, "Daily jobs").
   */
  daily?: boolean;
}

export interface EnqueueOptions {
  /**
   * Jobs of one name with the same key are not queued twice: while one is waiting to run (or waiting
   * for its retry), enqueueing another returns null. One may be queued while another with the key runs;
   * it then waits for that run to end.
   */
  singletonKey?: string;
  /** Do not run before this many seconds from now. */
  startAfterSeconds?: number;
  /**
   * Record the job inside this drizzle transaction, so it exists if and only if the transaction
   * commits (e.g. the import row and its job).
   */
  tx?: Db;
}

export interface JobWorkerOptions {
  /** How often an idle worker looks for jobs. Default 2 s (at least 0.5). */
  pollingIntervalSeconds?: number;
  /** How often expired jobs are failed/retried and old jobs archived. Default 60 s. */
  maintenanceIntervalSeconds?: number;
  /**
   * Fail (and so retry at once) every run still marked active: only when no other process can be running one,
   * i.e. this process has just started the database server itself (the embedded PostgreSQL).
   */
  retryInterruptedRuns?: boolean;
}

export interface StopJobWorkersOptions {
  /** How long runs in progress may take to finish before they are failed (and retried later). Default 10 s. */
  timeoutMs?: number;
}

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export interface JobStatus {
  id: string;
  name: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  data: unknown;
  /** What the run returned, or the error of the last failed run (`{ message, stack, … }`). */
  output: unknown;
}

const DEFAULTS = {
  daily: false,
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
  concurrency: 1,
  pollingIntervalSeconds: 2,
  maintenanceIntervalSeconds: 60,
};

interface Registration {
  handler: JobHandler<any>;
  options: Required<JobHandlerOptions>;
}

const handlers = new Map<string, Registration>();

/** The queue bound to one open database; recreated when the database changes (tests). */
interface Queue {
  database: Database;
  boss: PgBoss;
  /** pg-boss's own connections, closed when the queue stops. */
  pool: import("pg").Pool;
  /** Queues created (or updated) in the database by this process. */
  ensured: Map<string, Promise<void>>;
  /** Names whose queue is known to exist. */
  ready: Set<string>;
  /** Statements in flight, awaited on stop so nothing runs against a closing database. */
  inFlight: Set<Promise<unknown>>;
  workers?: {
    options: { pollingIntervalSeconds: number; maintenanceIntervalSeconds: number };
    started: Set<string>;
    maintenance: NodeJS.Timeout;
  };
}

let queue: Queue | undefined;
let opening: Promise<Queue> | undefined;

/** A job a feature defines: its name, what runs it, and its retry policy. Registered by the job registry. */
export interface JobDefinition<T = any> {
  name: string;
  handler: JobHandler<T>;
  options: JobHandlerOptions;
}

/** Defines a job (nothing is registered: the job registry, ./registry.server.ts, lists and registers it). */
export function defineJob<T>(name: string, handler: JobHandler<T>, options: JobHandlerOptions = {}): JobDefinition<T> {
  assertJobName(name);
  return { name, handler, options };
}

/** The job names this process has a handler for. */
export function registeredJobNames(): string[] {
  return [...handlers.keys()];
}

/**
 * Registers what runs the jobs named `name`: the job registry does, at boot, for every feature's jobs (and tests
 * for jobs of their own). Registering the name again replaces the handler.
 */
export function registerJobHandler<T>(name: string, handler: JobHandler<T>, options: JobHandlerOptions = {}): void {
  assertJobName(name);
  const registration: Registration = { handler, options: { ...pick(DEFAULTS), ...definedOnly(options) } };
  const previous = handlers.get(name);
  handlers.set(name, registration);
  if (queue && previous && JSON.stringify(previous.options) !== JSON.stringify(registration.options)) {
    queue.ensured.delete(name);
    queue.ready.delete(name);
  }
  if (queue && !queue.workers) {
    const current = queue;
    ensureQueue(current, name).catch((error) => console.error(`[jobs] could not create the queue ${name}:`, error));
  }
  // A handler registered after the workers started (a module loaded late) gets its worker now.
  if (queue?.workers && !queue.workers.started.has(name)) {
    const current = queue;
    startWorker(current, name).catch((error) => console.error(`[jobs] could not start the worker for ${name}:`, error));
  }
}

/** Records a job; returns its id, or null when `singletonKey` matched a job already waiting. */
export async function enqueueJob<T>(name: string, data: T, options: EnqueueOptions = {}): Promise<string | null> {
  if (!handlers.has(name)) throw new Error(`No handler is registered for the job "${name}" (every job is listed in app/modules/jobs/registry.server.ts).`);
  const q = await openQueue();
  await ensureQueue(q, name);
  const id = crypto.randomUUID();
  // The queue is "stately" (one waiting job per key); a job without a key gets a key of its own.
  const sendOptions: SendOptions = { id, singletonKey: options.singletonKey ?? `job:${id}` };
  if (options.startAfterSeconds) sendOptions.startAfter = Math.ceil(options.startAfterSeconds);
  if (options.tx) sendOptions.db = await drizzleExecutor(options.tx);
  const sent = await q.boss.send(name, (data ?? null) as object, sendOptions);
  if (sent && q.workers) {
    // Wake this process's idle worker instead of waiting for its next poll.
    for (const workerId of workerIds.get(name) ?? []) q.boss.notifyWorker(workerId);
  }
  return sent;
}

const workerIds = new Map<string, string[]>();

/**
 * Starts polling workers for every registered job name (and those registered later), plus the periodic
 * maintenance that retries expired runs. Idempotent. With `retryInterruptedRuns`, a run left active by a
 * process that died is failed (and so retried) at once instead of after its expiry.
 */
export async function startJobWorkers(options: JobWorkerOptions = {}): Promise<void> {
  const q = await openQueue();
  if (q.workers) return;
  const { retryInterruptedRuns, ...timing } = options;
  const workerOptions = {
    pollingIntervalSeconds: DEFAULTS.pollingIntervalSeconds,
    maintenanceIntervalSeconds: DEFAULTS.maintenanceIntervalSeconds,
    ...definedOnly(timing),
  };
  if (retryInterruptedRuns) await failInterruptedRuns(q);
  const maintain = () => {
    if (queue !== q || !q.workers) return;
    // One pass: fails (to retry) runs past their expiry, deletes jobs past their retention.
    track(q, q.boss.supervise()).catch((error) => console.error("[jobs] maintenance failed:", error));
    track(q, enqueueDailyJobs()).catch((error) => console.error("[jobs] daily jobs:", error));
  };
  const maintenance = setInterval(maintain, workerOptions.maintenanceIntervalSeconds * 1000);
  maintenance.unref();
  q.workers = { options: workerOptions, started: new Set(), maintenance };
  maintain();
  for (const name of handlers.keys()) await startWorker(q, name);
}

/**
 * Enqueues today's run (a UTC day, by the database's clock) of every `daily` job that has none yet, and returns
 * the names enqueued. The day is the job's singleton key (`daily:2026-11-28`): the queue's stately policy lets two
 * nodes racing insert one waiting job, and a run that already happened today is still in the job table (pg-boss
 * keeps finished jobs 7 days). The workers' maintenance tick calls it.
 */
export async function enqueueDailyJobs(): Promise<string[]> {
  const names = [...handlers].filter(([, registration]) => registration.options.daily).map(([name]) => name);
  if (names.length === 0) return [];
  const q = await openQueue();
  const enqueued: string[] = [];
  for (const name of names) {
    await ensureQueue(q, name);
    const { rows } = await track(
      q,
      q.pool.query<{ key: string; done: boolean }>(
        `SELECT key, EXISTS (SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = key) AS done
         FROM (SELECT 'daily:' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS key) AS today`,
        [name],
      ),
    );
    const today = rows[0]!;
    if (today.done) continue;
    if (await q.boss.send(name, {}, { singletonKey: today.key })) enqueued.push(name);
  }
  return enqueued;
}

/**
 * Stops the workers, lets runs in progress finish (at most `timeoutMs`, then they are failed and will be
 * retried) and waits for the queue's own statements, so the database can be closed after it. Idempotent.
 */
export async function stopJobWorkers(options: StopJobWorkersOptions = {}): Promise<void> {
  const pending = opening;
  if (pending) await pending.catch(() => undefined);
  const q = queue;
  if (!q) return;
  queue = undefined;
  opening = undefined;
  workerIds.clear();
  if (q.workers) clearInterval(q.workers.maintenance);
  // Runs still going after the timeout are failed (so retried); their handlers are given up on, and a late end
  // of theirs may still reach the database: let every statement land, then close the pool.
  await q.boss.stop({ graceful: true, close: false, timeout: options.timeoutMs ?? 10_000 });
  while (q.inFlight.size) await Promise.allSettled([...q.inFlight]);
  await q.pool.end();
}

/**
 * Runs every job that is waiting, in this process, until none is left (jobs enqueued by handlers
 * included), and returns how many runs there were. Retries run at once (their backoff is skipped) until
 * the job completes or has failed for good. For tests and scripts; the server uses the workers.
 */
export async function runQueuedJobsNow(name?: string, options: { maxRuns?: number } = {}): Promise<{ runs: number; completed: number; failed: number }> {
  const q = await openQueue();
  const maxRuns = options.maxRuns ?? 1000;
  const result = { runs: 0, completed: 0, failed: 0 };
  for (;;) {
    let ranAny = false;
    for (const jobName of name ? [name] : [...handlers.keys()]) {
      await ensureQueue(q, jobName);
      for (;;) {
        if (result.runs >= maxRuns) throw new Error(`runQueuedJobsNow: more than ${maxRuns} runs; is a handler re-enqueueing itself?`);
        const [job] = await q.boss.fetch<unknown>(jobName, { batchSize: 1, includeMetadata: true, ignoreStartAfter: true });
        if (!job) break;
        ranAny = true;
        result.runs += 1;
        const registration = handlers.get(jobName)!;
        // Settled for the attempt fetched (its id and retry count), as pg-boss's own workers do.
        const attempt = { id: job.id, retryCount: job.retryCount };
        try {
          await registration.handler(job.data, { id: job.id, name: jobName, retryCount: job.retryCount });
          await q.boss.complete(jobName, attempt);
          result.completed += 1;
        } catch (error) {
          await q.boss.fail(jobName, attempt, errorOutput(error));
          result.failed += 1;
        }
      }
    }
    if (!ranAny) return result;
  }
}

/** A job's state, or null when there is no such job (or no longer: see the retention in decision 016). */
export async function getJobStatus(name: string, id: string): Promise<JobStatus | null> {
  const q = await openQueue();
  await ensureQueue(q, name);
  const [job] = await q.boss.findJobs<unknown>(name, { id });
  if (!job) return null;
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    data: job.data,
    output: job.output,
  };
}

// ---------------------------------------------------------------------------------------------------

async function openQueue(): Promise<Queue> {
  const database = currentDatabase();
  if (!database) throw new Error("The database is not open: call boot() first.");
  if (queue?.database === database) return queue;
  if (opening) {
    const q = await opening;
    if (q.database === database) return q;
  }
  // Another database than the queue's (a test opened a new one): let the old queue go first.
  if (queue) await stopJobWorkers();
  opening = createQueue(database);
  try {
    queue = await opening;
    return queue;
  } finally {
    opening = undefined;
  }
}

async function createQueue(database: Database): Promise<Queue> {
  const { PgBoss: PgBossClass } = await import("pg-boss");
  const { default: pg } = await import("pg");
  // pg-boss's own pool (its statements never wait behind the app's), given to it as its `db` so that this
  // module knows which statements are in flight when it stops.
  const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
  pool.on("error", (error) => console.error("[jobs]", error));
  const inFlight = new Set<Promise<unknown>>();
  const boss = new PgBossClass({
    db: {
      executeSql: (text: string, values?: unknown[]) => {
        // A run given up on at stop (timeoutMs) that ends later still reports its end (pg-boss's complete, which
        // reads an affected count): its job was failed already, and the settle is fenced to the attempt it
        // fetched, so nothing is left to record.
        if (pool.ending) return Promise.resolve({ rows: [{ count: 0 }], rowCount: 0 });
        // As pg-boss's own pool answers (several statements give several results, which pg-boss unwraps).
        const promise: Promise<{ rows: any[] }> = pool.query(text, values && values.length ? values : undefined);
        inFlight.add(promise);
        promise.then(
          () => inFlight.delete(promise),
          () => inFlight.delete(promise),
        );
        return promise;
      },
    },
    // Our own timer runs maintenance (startJobWorkers), and only in a process with workers; cron schedules are not
    // used. A maintenance pass checks expiry whenever it runs (pg-boss's per-queue claim lasts a second, so
    // several nodes do not repeat one another's pass within it).
    supervise: false,
    schedule: false,
    migrate: true,
    monitorIntervalSeconds: 1,
    registerInstance: false,
    openTelemetry: { enabled: false },
    // pg-boss keeps timers of its own while open (a queue cache, worker polls): unref'd, so that a process that
    // only enqueues (a script, a test) is not kept alive by them.
    clock: UNREF_CLOCK,
  });
  // Without a listener an 'error' event would throw; pg-boss reports worker and maintenance errors here, among
  // them a run whose end could not be recorded (it stays active, and expiry retries it).
  boss.on("error", (error) => console.error("[jobs]", error));
  try {
    await boss.start();
  } catch (error) {
    await pool.end();
    throw error;
  }
  const q: Queue = { database, boss, pool, ensured: new Map(), ready: new Set(), inFlight };
  for (const name of handlers.keys()) await ensureQueue(q, name);
  return q;
}

const UNREF_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

function track<T>(q: Queue, promise: Promise<T>): Promise<T> {
  q.inFlight.add(promise);
  promise.then(
    () => q.inFlight.delete(promise),
    () => q.inFlight.delete(promise),
  );
  return promise;
}

/** Creates the queue for `name` in the database (once per process), with its registered options. */
function ensureQueue(q: Queue, name: string): Promise<void> {
  let done = q.ensured.get(name);
  if (!done) {
    const registration = handlers.get(name);
    if (!registration) throw new Error(`No handler is registered for the job "${name}".`);
    const { retryLimit, retryDelaySeconds, retryBackoff, expireInSeconds } = registration.options;
    const settings = { retryLimit, retryDelay: retryDelaySeconds, retryBackoff, expireInSeconds };
    done = (async () => {
      await q.boss.createQueue(name, { policy: "stately", ...settings });
      // createQueue leaves an existing queue as it was: apply today's settings (a policy is fixed at creation).
      await q.boss.updateQueue(name, settings);
      q.ready.add(name);
    })();
    q.ensured.set(name, done);
    done.catch(() => q.ensured.delete(name));
  }
  return done;
}

async function startWorker(q: Queue, name: string): Promise<void> {
  if (!q.workers || q.workers.started.has(name)) return;
  q.workers.started.add(name);
  await ensureQueue(q, name);
  const registration = handlers.get(name)!;
  const ids: string[] = [];
  for (let i = 0; i < registration.options.concurrency; i++) {
    const id = await q.boss.work<unknown>(
      name,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: q.workers.options.pollingIntervalSeconds },
      async ([job]) => {
        // Looked up per run: a handler registered again (development reloads) takes over.
        const current = handlers.get(name)!;
        try {
          await current.handler(job!.data, { id: job!.id, name, retryCount: job!.retryCount });
        } catch (error) {
          // Whatever was thrown (a NUL in a message, a circular object, null) becomes an Error pg-boss can store.
          throw storableError(error);
        }
      },
    );
    ids.push(id);
  }
  workerIds.set(name, ids);
}

/** Fails every run still marked active (see `retryInterruptedRuns`): each is retried. */
async function failInterruptedRuns(q: Queue): Promise<void> {
  const { rows } = await q.pool.query<{ name: string; id: string }>(`SELECT name, id FROM pgboss.job WHERE state = 'active'`);
  const byName = new Map<string, string[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row.id]);
  for (const [name, ids] of byName) {
    for (const id of ids) await q.boss.fail(name, id, { message: "The process running this job stopped before it finished." });
    console.warn(`[jobs] ${ids.length} ${name} job(s) interrupted by a stop; they will be retried.`);
  }
}

/** pg-boss's `db` option for one call, running inside a drizzle transaction (pg-boss's own adapter). */
async function drizzleExecutor(tx: Db) {
  const [{ fromDrizzle }, { sql }] = await Promise.all([import("pg-boss"), import("drizzle-orm")]);
  // drizzle's node-postgres transaction answers execute() with pg's result ({ rows }), as the adapter expects.
  return fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
}

function errorOutput(error: unknown): object {
  const storable = storableError(error);
  return { message: storable.message, stack: storable.stack, name: storable.name };
}

const MAX_ERROR_TEXT = 2000;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text PostgreSQL stores in text and jsonb columns: NUL (refused by both) is written as \0, a lone surrogate
 * (refused by jsonb) becomes U+FFFD, and it is at most 2,000 characters (and an ellipsis).
 */
export function storableText(text: string): string {
  // Cut first: a cut through a surrogate pair leaves a lone half, replaced below.
  const cut = text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
  return cut.replace(/\u0000/g, "\\0").replace(LONE_SURROGATE, "\uFFFD");
}

/** What a job threw as a plain Error with storable text, whatever it was. */
export function storableError(error: unknown): Error {
  let name = "Error";
  let message: string;
  let stack: string | undefined;
  try {
    if (error instanceof Error) {
      name = String(error.name);
      message = String(error.message);
      stack = typeof error.stack === "string" ? error.stack : undefined;
    } else if (typeof error === "string") {
      message = error;
    } else {
      message = `A job threw ${error === null ? "null" : typeof error === "object" ? "a non-Error object" : String(error)}.`;
    }
  } catch {
    message = "A job threw a value that could not be read.";
  }
  const storable = new Error(storableText(message));
  storable.name = storableText(name).slice(0, 100);
  if (stack) storable.stack = storableText(stack);
  return storable;
}

function assertJobName(name: string) {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`Invalid job name "${name}": letters, digits, _ . - only.`);
}

function pick(defaults: typeof DEFAULTS): Required<JobHandlerOptions> {
  const { retryLimit, retryDelaySeconds, retryBackoff, expireInSeconds, concurrency, daily } = defaults;
  return { retryLimit, retryDelaySeconds, retryBackoff, expireInSeconds, concurrency, daily };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
