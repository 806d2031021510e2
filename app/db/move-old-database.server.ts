/**
 * The one-time mover (decision 003): up to this version the embedded database was PGlite, in
 * DATA_DIR/pglite. At the first start with the embedded PostgreSQL, that database is moved into it: PGlite
 * opens it and brings its schema up to date (the same committed migrations), every table is copied out of
 * it (COPY ... TO) and into PostgreSQL (COPY ... FROM) in one transaction on the PostgreSQL side, sequences
 * follow, and the row count of every table is compared on both sides before the commit. The job queue is not
 * copied table by table: the old database holds pg-boss 10's layout and this version runs pg-boss 12, whose
 * tables differ. Its queues are recreated through pg-boss, and every job still waiting (queued, waiting for a
 * retry, or cut off while running) is queued again in the same transaction with its id, name, data, singleton
 * key and start time; finished jobs (history) are left behind (decision 016, "Moving an old database"). Anything wrong: nothing is committed, the start stops
 * with the reason, and the old folder stays where it was for the next try. Done: the old folder is renamed
 * (DATA_DIR/pglite-moved-<date>) and kept until the administrator deletes it; each start says so.
 *
 * This is the only place that uses @electric-sql/pglite.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Database } from "./client.server";

const OLD_FOLDER = "pglite";
const MOVED_PREFIX = "pglite-moved-";
const migrationsFolder = path.resolve(process.cwd(), "drizzle");

type PGliteClient = import("@electric-sql/pglite").PGlite;
type PgClient = import("pg").PoolClient;

interface Table {
  schema: string;
  name: string;
  /** Columns both sides have, that COPY can write (no generated ones). */
  columns: string[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (table: { schema: string; name: string }) => `${quote(table.schema)}.${quote(table.name)}`;

/**
 * Moves DATA_DIR/pglite into `target` when it is there and not moved yet. Returns the start-up line saying
 * what was moved, or null when there was nothing to move. Throws (nothing changed) when the move fails.
 */
export async function moveOldDatabase(dataDir: string, target: Database): Promise<string | null> {
  const source = path.resolve(dataDir, OLD_FOLDER);
  if (!fs.existsSync(path.join(source, "PG_VERSION"))) return null;
  const started = Date.now();
  const client = await target.pool.connect();
  try {
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from users");
    if (rows[0]!.n > 0) {
      throw new Error(
        `${source} holds the earlier embedded database (PGlite), and the PostgreSQL database already holds members: ` +
          `nothing was moved. Move one of them aside (rename ${source} to keep the PostgreSQL data as it is).`,
      );
    }
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const pglite = new PGlite(source, { extensions: { pg_trgm } });
    let counts: { tables: number; rows: number; jobs: number };
    try {
      await pglite.waitReady;
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzle(pglite), { migrationsFolder });
      counts = await copyEverything(pglite, client, target);
    } finally {
      await pglite.close();
    }
    const moved = path.join(path.dirname(source), `${MOVED_PREFIX}${new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`);
    fs.renameSync(source, moved);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return (
      `the earlier embedded database (PGlite, ${shown(source)}) was moved into PostgreSQL: ${counts.rows.toLocaleString("en")} rows in ` +
      `${counts.tables} tables, the count of every table checked on both sides${counts.jobs ? `, and ${counts.jobs} waiting job${counts.jobs === 1 ? "" : "s"} queued again` : ""}, in ${seconds} s. The old folder is kept as ${shown(moved)}: delete it once you no longer need it.`
    );
  } finally {
    client.release();
  }
}

/** Start-up reminders: a moved folder still kept, or an old database not used because DATABASE_URL is set. */
export function oldDatabaseNotes(dataDir: string, usingDatabaseUrl: boolean): string[] {
  const notes: string[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync(dataDir);
  } catch {
    return notes;
  }
  for (const name of names.filter((n) => n.startsWith(MOVED_PREFIX))) {
    notes.push(
      `${shown(path.join(dataDir, name))} is the earlier embedded database (PGlite), kept after its move into PostgreSQL: delete it once you no longer need it.`,
    );
  }
  if (usingDatabaseUrl && names.includes(OLD_FOLDER) && fs.existsSync(path.join(dataDir, OLD_FOLDER, "PG_VERSION"))) {
    notes.push(
      `${shown(path.join(dataDir, OLD_FOLDER))} holds an earlier embedded database (PGlite), not used while DATABASE_URL is set: start once without DATABASE_URL to move it into the embedded PostgreSQL.`,
    );
  }
  return notes;
}

/** A folder as the start-up lines name it: from the working folder when it is below it. */
function shown(folder: string): string {
  const relative = path.relative(process.cwd(), folder);
  return relative && !relative.startsWith("..") ? relative : folder;
}

/** Every table, the waiting jobs and the sequences, in one transaction on `client`; verified before the commit. */
async function copyEverything(pglite: PGliteClient, client: PgClient, target: Database): Promise<{ tables: number; rows: number; jobs: number }> {
  const appTables = await commonTables(pglite, client, "public");
  const queue = (await schemaExists((text) => pglite.query(text), "pgboss")) ? await waitingJobs(pglite) : null;
  const boss = queue ? await openQueueFor(target, queue.queues) : null;
  try {
    await client.query("begin");
    try {
      // The rows are copied as they are: no trigger and no foreign-key check runs on them (they held in the old database).
      await client.query("set local session_replication_role = replica");
      if (appTables.length) await client.query(`truncate ${appTables.map(qualified).join(", ")} restart identity cascade`);
      for (const table of appTables) await copyTable(pglite, client, table);
      await copySequences(pglite, client);
      let rows = 0;
      const mismatched: string[] = [];
      for (const table of appTables) {
        const count = `select count(*)::int as n from ${qualified(table)}`;
        const [before, after] = [(await pglite.query<{ n: number }>(count)).rows[0]!.n, (await client.query<{ n: number }>(count)).rows[0]!.n];
        if (before !== after) mismatched.push(`${table.schema}.${table.name}: ${before} rows in the old database, ${after} moved`);
        rows += after;
      }
      let jobs = 0;
      if (boss && queue) {
        // Queued as any job is, so pg-boss's own rules (a queue's policy, its singleton keys) hold for them.
        await client.query("set local session_replication_role = origin");
        const executor = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
        const sent: string[] = [];
        for (const job of queue.jobs) {
          const id = await boss.send(job.name, (job.data ?? null) as object | null, {
            id: job.id,
            singletonKey: job.singletonKey ?? undefined,
            startAfter: job.startAfter,
            db: executor,
          });
          if (id) sent.push(id);
          // null: a second waiting job with the key of one just queued (one waiting for its retry, one queued
          // behind it), which the stately queue holds once; the handler's run covers both (decision 016).
        }
        const { rows: found } = await client.query<{ n: number }>(
          "select count(*)::int as n from pgboss.job where id = any($1::uuid[]) and state = 'created'",
          [sent],
        );
        if (found[0]!.n !== sent.length) mismatched.push(`pgboss.job: ${sent.length} waiting jobs queued again, ${found[0]!.n} found`);
        jobs = sent.length;
      }
      if (mismatched.length) throw new Error(`The move was checked and is incomplete, so nothing of it was kept: ${mismatched.join("; ")}.`);
      await client.query("commit");
      return { tables: appTables.length, rows, jobs };
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw error;
    }
  } finally {
    await boss?.stop({ graceful: false, close: false });
  }
}

interface WaitingJob {
  id: string;
  name: string;
  data: unknown;
  singletonKey: string | null;
  startAfter: Date;
}

/** The old queue's queues, and its jobs not finished yet (the columns pg-boss 10 and 12 share). */
async function waitingJobs(pglite: PGliteClient): Promise<{ queues: Array<{ name: string; policy: string }>; jobs: WaitingJob[] }> {
  const queues = await pglite.query<{ name: string; policy: string }>("select name, coalesce(policy, 'standard') as policy from pgboss.queue order by name");
  const jobs = await pglite.query<{ id: string; name: string; data: unknown; singleton_key: string | null; start_after: Date }>(
    "select id::text as id, name, data, singleton_key, start_after from pgboss.job where state in ('created', 'retry', 'active') order by created_on, id",
  );
  return {
    queues: queues.rows,
    jobs: jobs.rows.map((row) => ({ id: row.id, name: row.name, data: row.data, singletonKey: row.singleton_key, startAfter: new Date(row.start_after) })),
  };
}

/**
 * pg-boss on the target, for the move only: it installs (or migrates) its schema and creates the old queues, on
 * connections of the target's pool outside the move's transaction (an empty queue left by a failed move is
 * harmless, and created again as it was at the next try). Its settings (retries, expiry) are the job module's
 * business: they are applied when that module opens the queue.
 */
async function openQueueFor(target: Database, queues: Array<{ name: string; policy: string }>) {
  const { PgBoss } = await import("pg-boss");
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => target.pool.query(text, values && values.length ? values : undefined) },
    supervise: false,
    schedule: false,
    migrate: true,
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
  boss.on("error", (error) => console.error("[database] moving the job queue:", error));
  await boss.start();
  try {
    for (const queue of queues) await boss.createQueue(queue.name, { policy: queue.policy });
  } catch (error) {
    await boss.stop({ graceful: false, close: false });
    throw error;
  }
  return boss;
}

async function schemaExists(query: (text: string) => Promise<{ rows: unknown[] }>, schema: string): Promise<boolean> {
  return (await query(`select 1 from pg_namespace where nspname = '${schema}'`)).rows.length > 0;
}

/** The tables of `schema` on both sides (partitions are reached through their parent), with their common columns. */
async function commonTables(pglite: PGliteClient, client: PgClient, schema: string): Promise<Table[]> {
  const list = `
    select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where n.nspname = '${schema}' and c.relkind in ('r', 'p') and not c.relispartition
    group by c.relname
    order by c.relname`;
  const [old, current] = [
    (await pglite.query<{ name: string; columns: string[] }>(list)).rows,
    (await client.query<{ name: string; columns: string[] }>(list)).rows,
  ];
  const missing = old.filter((t) => !current.some((c) => c.name === t.name)).map((t) => `${schema}.${t.name}`);
  if (missing.length) throw new Error(`The old database has tables this version does not know: ${missing.join(", ")}. Nothing was moved.`);
  return old.map((t) => {
    const columns = current.find((c) => c.name === t.name)!.columns;
    return { schema, name: t.name, columns: t.columns.filter((column) => columns.includes(column)) };
  });
}

async function copyTable(pglite: PGliteClient, client: PgClient, table: Table) {
  const columns = table.columns.map(quote).join(", ");
  const out = await pglite.query(`copy (select ${columns} from ${qualified(table)}) to '/dev/blob'`);
  const data = out.blob ? Buffer.from(await out.blob.arrayBuffer()) : Buffer.alloc(0);
  if (data.length === 0) return;
  const { from: copyFrom } = await import("pg-copy-streams");
  await pipeline(Readable.from([data]), client.query(copyFrom(`copy ${qualified(table)} (${columns}) from stdin`)));
}

async function copySequences(pglite: PGliteClient, client: PgClient) {
  const { rows } = await pglite.query<{ schema: string; name: string; last: string | null }>(
    "select schemaname as schema, sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'",
  );
  for (const sequence of rows) {
    const name = qualified({ schema: sequence.schema, name: sequence.name });
    if (sequence.last === null) await client.query("select setval($1::regclass, 1, false)", [name]);
    else await client.query("select setval($1::regclass, $2::bigint, true)", [name, sequence.last]);
  }
}
