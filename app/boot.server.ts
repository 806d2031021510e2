import path from "node:path";
import { currentDatabase, migrateDatabase, openDatabase, setDatabase } from "~/db/client.server";
import { DEMO_USERS, seedDemoDataOnFirstRun } from "~/db/seed.server";
import { env, type Env } from "~/env.server";
import { bodyLimitFor } from "~/modules/security/body-limits";
import { extraConnectSources, extraFormActionSources } from "~/modules/config/public-config.server";
import { seedReferenceDataOnFirstRun } from "~/modules/reference/reference-seed.server";
import { startJobWorkers, stopJobWorkers } from "~/modules/jobs/queue.server";
// Registers its job handler, so imports queued before a restart run as soon as the workers start.
import "~/modules/ledger/imports/sales-import-job.server";

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
  databaseKind(): string;
}

/** Validates settings, opens and migrates the database, seeds demo data on a first local run. */
export async function boot(bootOptions: BootOptions = {}): Promise<BootResult> {
  const settings = env();
  const options = {
    databaseUrl: settings.DATABASE_URL,
    pgliteDir: path.resolve(settings.DATA_DIR, "pglite"),
  };
  const database = await openDatabase(options);
  await migrateDatabase(database, options);
  setDatabase(database);
  await seedReferenceDataOnFirstRun(database.db);
  const demoLogins: string[] = [];
  if (settings.SEED_DEMO_DATA) {
    await seedDemoDataOnFirstRun();
    demoLogins.push(...DEMO_USERS.map((u) => `${u.email} (${u.acctType === 2 ? "admin" : u.signs ? "member" : "member who has not signed the legal documents"})`));
  }
  if (bootOptions.jobWorkers) await startJobWorkers();
  return { env: settings, demoLogins, connectSrc: extraConnectSources(settings), formActionSrc: extraFormActionSources(settings), bodyLimitFor };
}

export async function shutdown(): Promise<void> {
  await stopJobWorkers();
  const database = currentDatabase();
  setDatabase(undefined);
  await database?.close();
}

export function databaseKind(): string {
  return currentDatabase()?.kind ?? "closed";
}
