import path from "node:path";
import { currentDatabase, describeDatabaseUrl, migrateDatabase, openDatabase, setDatabase } from "~/db/client.server";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "~/db/embedded-postgres.server";
import { moveOldDatabase, oldDatabaseNotes } from "~/db/move-old-database.server";
import { DEMO_USERS, seedDemoDataOnFirstRun } from "~/db/seed.server";
import { env, type Env } from "~/env.server";
import { bodyLimitFor } from "~/modules/security/body-limits";
import { extraConnectSources, extraFormActionSources } from "~/modules/config/public-config.server";
import { describeStorage, parseStorageUrl } from "~/modules/storage/storage-url";
import { seedReferenceDataOnFirstRun } from "~/modules/reference/reference-seed.server";
import { startJobWorkers, stopJobWorkers } from "~/modules/jobs/queue.server";
import { registerJobs } from "~/modules/jobs/registry.server";
import { startCacheBus, stopCacheBus } from "~/modules/cache-bus/cache-bus.server";

export interface BootResult {
  env: Env;
  demoLogins: string[];
  /** Origins for the CSP's connect-src (analytics, realtime). */
  connectSrc: string[];
  /** Origins for the CSP's form-action (Stripe's hosted onboarding, when configured). */
  formActionSrc: string[];
  /** The body-size cap per path, applied by the HTTP layer before a body is read. */
  bodyLimitFor(pathname: string): number;
}

export interface BootOptions {
  /** Run the background job workers (app/modules/jobs, decision 016): the server does, scripts do not. */
  jobWorkers?: boolean;
}

/** What server/start.js reads from the server build (exported by entry.server). */
export interface BootModule {
  boot(options?: BootOptions): Promise<BootResult>;
  /** The request context for one request (app/request-context.ts), made by server/app.js. */
  createLoadContext(info: { ip: string; requestId: string; cspNonce: string }): unknown;
  shutdown(): Promise<void>;
  /** Which database is in use, for the start-up line (never the password). */
  databaseDescription(): string;
  /** Where stored files live, for the start-up line (never the credentials). */
  storageDescription(): string;
}

let embedded: EmbeddedPostgres | undefined;
let description = "closed";

/**
 * Validates settings, opens the database (DATABASE_URL's, or the embedded PostgreSQL started in DATA_DIR),
 * migrates it, moves an earlier embedded database in, and seeds demo data on a first local run.
 */
export async function boot(bootOptions: BootOptions = {}): Promise<BootResult> {
  const settings = env();
  // Every job's handler, before anything can enqueue one (a seed, a request) or a worker look for one.
  registerJobs();
  try {
    let url = settings.DATABASE_URL;
    if (!url) {
      embedded = await startEmbeddedPostgres({ dataDir: settings.DATA_DIR });
      url = embedded.url;
      const relative = path.relative(process.cwd(), embedded.clusterDir);
      description = `embedded PostgreSQL ${embedded.version} in ${relative.startsWith("..") ? embedded.clusterDir : relative}, 127.0.0.1:${embedded.port}`;
      for (const note of embedded.notes) console.log(`[database] ${note}`);
    } else {
      description = `PostgreSQL at ${describeDatabaseUrl(url)} (DATABASE_URL)`;
    }
    const database = await openDatabase(url);
    setDatabase(database);
    // Every node drops a changed cache at once (decision 035); a single node has nobody to tell but costs one connection.
    await startCacheBus(url);
    await migrateDatabase(database);
    if (embedded?.owned) {
      const moved = await moveOldDatabase(settings.DATA_DIR, database);
      if (moved) console.log(`[database] ${moved}`);
    }
    for (const note of oldDatabaseNotes(settings.DATA_DIR, Boolean(settings.DATABASE_URL))) console.log(`[database] ${note}`);
    const demoLogins: string[] = [];
    // Nodes started together on a new database seed it once: the first holds the lock, the next finds it seeded.
    await underBootLock(url, async () => {
      await seedReferenceDataOnFirstRun(database.db);
      if (settings.SEED_DEMO_DATA) await seedDemoDataOnFirstRun();
    });
    if (settings.SEED_DEMO_DATA) {
      demoLogins.push(
        ...DEMO_USERS.map((u) => `${u.email} (${u.acctType === 2 ? "admin" : u.signs ? "member" : "member who has not signed the legal documents"})`),
      );
    }
    // A server this process just started has no other client yet: a job run still marked active was cut off.
    if (bootOptions.jobWorkers) await startJobWorkers({ retryInterruptedRuns: embedded?.owned === true });
    return { env: settings, demoLogins, connectSrc: extraConnectSources(settings), formActionSrc: extraFormActionSources(settings), bodyLimitFor };
  } catch (error) {
    await shutdown().catch(() => {});
    throw error;
  }
}

/** Runs `work` holding a session advisory lock of its own connection (as migrations do, with another key). */
async function underBootLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(727002)");
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock(727002)").catch(() => {});
    await client.end();
  }
}

/** How long closing the pool may wait for queries still running before the process goes on without them. */
const CLOSE_WAIT_MS = 10_000;

export async function shutdown(): Promise<void> {
  await stopJobWorkers();
  await stopCacheBus();
  const database = currentDatabase();
  setDatabase(undefined);
  // pool.end() waits for queries still running (a long import's, given up on by stopJobWorkers): bounded, then the
  // embedded server's fast shutdown ends them (on DATABASE_URL's server, the process's exit does).
  const closed = database?.close().catch((error) => console.error("[database]", error));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
  const running = embedded;
  embedded = undefined;
  description = "closed";
  await running?.stop();
}

export function databaseDescription(): string {
  return description;
}

/** Where stored files live, for the start-up lines (never the credentials). */
export function storageDescription(): string {
  return describeStorage(parseStorageUrl(env().STORAGE_URL));
}
