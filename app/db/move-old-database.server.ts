/**
 * The one-time mover (decision 003): up to this version the embedded database was PGlite, in
 * DATA_DIR/pglite. At the first start with the embedded PostgreSQL, that database is moved into it: PGlite
 * opens it and brings its schema up to date (the same committed migrations), every table is copied out of
 * it (COPY ... TO) and into PostgreSQL (COPY ... FROM) in one transaction on the PostgreSQL side, sequences
 * follow, the job queue's tables too (pg-boss's queues recreated, its jobs copied), and the row count of every
 * table is compared on both sides before the commit. Anything wrong: nothing is committed, the start stops
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
    let counts: { tables: number; rows: number };
    try {
      await pglite.waitReady;
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(drizzle(pglite), { migrationsFolder });
      counts = await copyEverything(pglite, client);
    } finally {
      await pglite.close();
    }
    const moved = path.join(path.dirname(source), `${MOVED_PREFIX}${new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`);
    fs.renameSync(source, moved);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return (
      `the earlier embedded database (PGlite, ${shown(source)}) was moved into PostgreSQL: ${counts.rows.toLocaleString("en")} rows in ` +
      `${counts.tables} tables, the count of every table checked on both sides, in ${seconds} s. The old folder is kept as ${shown(moved)}: delete it once you no longer need it.`
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
    notes.push(`${shown(path.join(dataDir, name))} is the earlier embedded database (PGlite), kept after its move into PostgreSQL: delete it once you no longer need it.`);
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

/** Every table, the queue and the sequences, in one transaction on `client`; verified before the commit. */
async function copyEverything(pglite: PGliteClient, client: PgClient): Promise<{ tables: number; rows: number }> {
  const hasQueue = await schemaExists((text) => pglite.query(text), "pgboss");
  if (hasQueue) await createQueueSchema(client);
  const appTables = await commonTables(pglite, client, "public");
  const queueTables = hasQueue ? (await commonTables(pglite, client, "pgboss")).filter((t) => !["version", "queue"].includes(t.name)) : [];
  await client.query("begin");
  try {
    // The rows are copied as they are: no trigger and no foreign-key check runs on them (they held in the old database).
    await client.query("set local session_replication_role = replica");
    if (appTables.length) await client.query(`truncate ${appTables.map(qualified).join(", ")} restart identity cascade`);
    if (hasQueue) {
      const queues = await pglite.query<{ name: string; options: unknown }>(
        `select name, json_build_object('policy', policy, 'retryLimit', retry_limit, 'retryDelay', retry_delay, 'retryBackoff', retry_backoff,
           'expireInSeconds', expire_seconds, 'retentionMinutes', retention_minutes, 'deadLetter', dead_letter) as options
         from pgboss.queue order by dead_letter nulls first, name`,
      );
      for (const queue of queues.rows) await client.query("select pgboss.create_queue($1, $2::json)", [queue.name, JSON.stringify(queue.options)]);
    }
    const tables = [...appTables, ...queueTables];
    for (const table of tables) await copyTable(pglite, client, table);
    await copySequences(pglite, client);
    let rows = 0;
    const mismatched: string[] = [];
    for (const table of [...tables, ...(hasQueue ? [{ schema: "pgboss", name: "queue", columns: [] }] : [])]) {
      const count = `select count(*)::int as n from ${qualified(table)}`;
      const [before, after] = [(await pglite.query<{ n: number }>(count)).rows[0]!.n, (await client.query<{ n: number }>(count)).rows[0]!.n];
      if (before !== after) mismatched.push(`${table.schema}.${table.name}: ${before} rows in the old database, ${after} moved`);
      rows += after;
    }
    if (mismatched.length) throw new Error(`The move was checked and is incomplete, so nothing of it was kept: ${mismatched.join("; ")}.`);
    await client.query("commit");
    return { tables: tables.length, rows };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}

async function schemaExists(query: (text: string) => Promise<{ rows: unknown[] }>, schema: string): Promise<boolean> {
  return (await query(`select 1 from pg_namespace where nspname = '${schema}'`)).rows.length > 0;
}

/** pg-boss's schema in PostgreSQL (its own construction, as pg-boss would run it at first start). */
async function createQueueSchema(client: PgClient) {
  if (await schemaExists((text) => client.query(text), "pgboss")) return;
  const { default: PgBoss } = await import("pg-boss");
  await client.query(PgBoss.getConstructionPlans("pgboss"));
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
  const [old, current] = [(await pglite.query<{ name: string; columns: string[] }>(list)).rows, (await client.query<{ name: string; columns: string[] }>(list)).rows];
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
