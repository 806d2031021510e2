import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import type { Logger } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { invalidateProcessCaches } from "./process-cache.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open PostgreSQL database (the embedded one, or DATABASE_URL's): decision 003. */
export interface Database {
  db: Db;
  /** The pool behind `db`, for what drizzle cannot do (COPY in bulk writes). */
  pool: import("pg").Pool;
  /** Its connection URL (the password included: never print it), for clients of their own (pg-boss). */
  url: string;
  close(): Promise<void>;
}

/**
 * Counts the queries run inside `countQueries`, so tests can hold loaders to a bounded number.
 * AsyncLocalStorage keeps concurrent requests from counting each other's queries.
 */
const queryScope = new AsyncLocalStorage<{ count: number; sql: string[] }>();
const countingLogger: Logger = {
  logQuery(query) {
    const scope = queryScope.getStore();
    if (scope) {
      scope.count += 1;
      scope.sql.push(query);
    }
  },
};

export async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number; sql: string[] }> {
  const scope = { count: 0, sql: [] as string[] };
  const result = await queryScope.run(scope, fn);
  return { result, count: scope.count, sql: scope.sql };
}

const migrationsFolder = path.resolve(process.cwd(), "drizzle");

/** Distinct query texts a process names as prepared statements; texts beyond it run unnamed. */
const PREPARED_TEXTS = 500;

/**
 * node-postgres sends a parameterised query unnamed unless told otherwise, so PostgreSQL parses and plans it
 * again on every execution: on the bench's 1,000,000-line ledger the session lookup spent 1.6 ms in parse and
 * bind for 0.05 ms of execution, and planning was most of the database's work on a page. This client names
 * every distinct parameterised text, so each pooled connection parses it once and PostgreSQL's plan cache can
 * keep a generic plan. Bounded: texts that vary without end (IN-lists, multi-row VALUES) stop being named
 * after PREPARED_TEXTS, so the server's per-connection cache stays small. COPY and cursors (submittables)
 * and text-only statements (migrations, BEGIN) pass through untouched.
 */
export function preparingClient(Client: typeof import("pg").Client, limit = PREPARED_TEXTS): typeof import("pg").Client {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < limit) {
      name = `backline_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  class PreparingClient extends Client {
    // One signature for pg's many overloads: only a plain { text } config with values is touched.
    query(config: unknown, values?: unknown, callback?: unknown): never {
      const plain = config as { text?: unknown; name?: unknown; values?: unknown[]; submit?: unknown } | null;
      const parameterised = Array.isArray(values) ? values.length > 0 : (plain?.values?.length ?? 0) > 0;
      if (
        plain &&
        typeof plain === "object" &&
        typeof plain.text === "string" &&
        plain.name === undefined &&
        typeof plain.submit !== "function" &&
        parameterised
      ) {
        const name = nameFor(plain.text);
        if (name) config = { ...plain, name };
      }
      return (super.query as (...args: unknown[]) => never)(config, values, callback);
    }
  }
  return PreparingClient as unknown as typeof import("pg").Client;
}

export async function openDatabase(url: string): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new pg.Pool({ connectionString: url, max: 10, Client: preparingClient(pg.Client) });
  const db = drizzle(pool, { schema, logger: countingLogger }) as unknown as Db;
  return { db, pool, url, close: () => pool.end() };
}

/** Applies the committed migrations; an advisory lock keeps nodes starting at once from racing. */
export async function migrateDatabase(database: Database): Promise<void> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(727001)");
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock(727001)").catch(() => {});
    await client.end();
  }
}

/** Where a URL points, for the start-up lines: host, port and database, never the password. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
}

let current: Database | undefined;

/** The process-wide database, opened by `boot()` (or a test's setup). */
export function db(): Db {
  if (!current) throw new Error("The database is not open: call boot() first.");
  return current.db;
}

export function setDatabase(database: Database | undefined) {
  current = database;
  // Values cached from the previous database are not this one's.
  invalidateProcessCaches();
}

export function currentDatabase(): Database | undefined {
  return current;
}
