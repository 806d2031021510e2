import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as pgliteDrizzle } from "drizzle-orm/pglite";
import { migrate as pgliteMigrate } from "drizzle-orm/pglite/migrator";
import { to as copyTo } from "pg-copy-streams";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentDatabase, db, migrateDatabase, openDatabase, setDatabase, type Database } from "~/db/client.server";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "~/db/embedded-postgres.server";
import { moveOldDatabase, oldDatabaseNotes } from "~/db/move-old-database.server";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { runQueuedJobsNow, stopJobWorkers } from "~/modules/jobs/queue.server";
import { SALES_IMPORT_JOB, submitSalesImport } from "~/modules/ledger/imports/sales-import-job.server";
import { declareTaxStatus, saveManualPayoutAccount } from "~/modules/payouts/payout-accounts.server";
import { approvePayoutRequest, payManualPayoutRequest, requestPayout } from "~/modules/payouts/payouts.server";
import { seedReferenceDataOnFirstRun } from "~/modules/reference/reference-seed.server";
import { useTestDatabase } from "../helpers/database";
import { TEST_SETTINGS } from "../setup/settings";

/**
 * The one-time move of an earlier embedded database (PGlite, DATA_DIR/pglite) into the embedded PostgreSQL
 * (app/db/move-old-database.server.ts). The old database is made as a member's would be: the demo data, a
 * sales import posted through its job, a payout requested, approved and paid, and a second import still
 * waiting in the job queue, all through the services (which run on PostgreSQL only now), then written into a
 * PGlite folder by PGlite itself on a schema its own migrator built, beside the job queue as pg-boss 10 (the
 * version those databases were written by) laid it out. After the move, every table holds the same rows as the
 * original (compared row for row), sequences continue, the waiting import is queued again in pg-boss 12's
 * layout and runs on the new engine, finished jobs are left behind, and the old folder is kept under its new name.
 */
useTestDatabase();

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-move-test-"));
let original: Database;
let embedded: EmbeddedPostgres | undefined;
let moved: Database | undefined;
let message: string | null = null;

afterAll(async () => {
  await stopJobWorkers();
  if (moved) {
    if (currentDatabase() === moved) setDatabase(original);
    await moved.close();
  }
  await embedded?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A statement of `lines` lines over the demo songs, as an upload leaves it on disk. */
async function upload(statementId: string, lines: number) {
  const songs = (await db().execute(sql`select isrc from songs where isrc is not null order by id`)) as unknown as { rows: Array<{ isrc: string }> };
  const out = [DIGITAL_HEADER];
  for (let i = 0; i < lines; i++) {
    const isrc = i % 10 === 0 ? `GBXXX26${String(i).padStart(5, "0")}` : songs.rows[i % songs.rows.length]!.isrc;
    out.push(`${statementId},2026-08-15,2026-06,2026-06,Spotify,,stream,track,US,Midnight Owls,,,Song,${isrc},1,1,USD,1.25,1.25,USD,`);
  }
  const text = `${out.join("\n")}\n`;
  fs.mkdirSync(TEST_SETTINGS.STORAGE_DIR, { recursive: true });
  const tmpPath = path.join(TEST_SETTINGS.DATA_DIR, `${statementId}.csv`);
  fs.writeFileSync(tmpPath, text);
  return { tmpPath, filename: `${statementId}.csv`, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") };
}

/** Every table's rows, as text in a stable order, with a digest: compared across the two servers. */
async function contents(database: Database): Promise<Record<string, { rows: number; digest: string }>> {
  const client = await database.pool.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1",
    );
    const out: Record<string, { rows: number; digest: string }> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ n: number; digest: string }>(
        `select count(*)::int as n, coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest from ${name} t`,
      );
      out[name] = { rows: rows[0]!.n, digest: rows[0]!.digest };
    }
    return out;
  } finally {
    client.release();
  }
}

/** The jobs of a pg-boss 12 queue (the current database's), in an order that survives the move (by name and key). */
async function jobsOf(database: Database) {
  const { rows } = await database.pool.query<{ id: string; name: string; data: unknown; singleton_key: string | null; state: string }>(
    "select id::text as id, name, data, singleton_key, state::text as state from pgboss.job order by name, singleton_key, id",
  );
  return rows;
}

/**
 * Writes `source`'s tables into a PGlite folder whose schema PGlite's own migrator built, and its jobs into the
 * job queue as pg-boss 10 laid it out (its construction, tests/fixtures/pg-boss-10/schema.sql).
 */
async function writePgliteDatabase(source: Database, folder: string) {
  const pglite = new PGlite(folder, { extensions: { pg_trgm } });
  await pglite.waitReady;
  try {
    await pgliteMigrate(pgliteDrizzle(pglite), { migrationsFolder: path.resolve("drizzle") });
    await pglite.exec(fs.readFileSync(path.resolve("tests/fixtures/pg-boss-10/schema.sql"), "utf8"));
    const client = await source.pool.connect();
    try {
      // Generated columns (statement_lines.suspense_key) are computed again on the way in, not copied.
      const tables = await client.query<{ name: string; columns: string }>(
        `select format('%I.%I', n.nspname, c.relname) as name, string_agg(format('%I', a.attname), ', ' order by a.attnum) as columns
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
         where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition group by 1 order by 1`,
      );
      await pglite.exec("set session_replication_role = replica");
      await pglite.exec(`truncate ${tables.rows.map((t) => t.name).join(", ")} cascade`);
      const copy = async (from: string, into: string) => {
        const chunks: Buffer[] = [];
        await pipeline(client.query(copyTo(`copy (${from}) to stdout`)), async function (stream: AsyncIterable<Buffer>) {
          for await (const chunk of stream) chunks.push(chunk);
        });
        if (chunks.length) await pglite.query(`copy ${into} from '/dev/blob'`, [], { blob: new Blob([Buffer.concat(chunks)]) });
      };
      for (const table of tables.rows) await copy(`select ${table.columns} from ${table.name}`, `${table.name} (${table.columns})`);
      // pg-boss 10's queues (its create_queue and options), then its jobs: the columns both versions have.
      const queues = await client.query("select name, policy, retry_limit, retry_delay, retry_backoff, expire_seconds, retention_seconds from pgboss.queue");
      for (const q of queues.rows) {
        await pglite.query("select pgboss.create_queue($1, $2::json)", [
          q.name,
          JSON.stringify({
            policy: q.policy,
            retryLimit: q.retry_limit,
            retryDelay: q.retry_delay,
            retryBackoff: q.retry_backoff,
            expireInSeconds: q.expire_seconds,
            retentionMinutes: Math.ceil(q.retention_seconds / 60),
          }),
        ]);
      }
      const columns =
        "id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, created_on, completed_on, keep_until, output, dead_letter, policy";
      await copy(`select ${columns} from pgboss.job`, `pgboss.job (${columns})`);
      const sequences = await client.query<{ name: string; last: string | null }>(
        "select format('%I.%I', schemaname, sequencename) as name, last_value::text as last from pg_sequences where schemaname = 'public'",
      );
      for (const s of sequences.rows) if (s.last !== null) await pglite.query("select setval($1::regclass, $2::bigint)", [s.name, s.last]);
    } finally {
      client.release();
    }
  } finally {
    await pglite.close();
  }
}

beforeAll(async () => {
  original = currentDatabase()!;
  await seedReferenceDataOnFirstRun(db());
  await seedDemoData();
  const admin = (await findUserByEmail("admin@example.com"))!;
  const mia = (await findUserByEmail("member@example.com"))!;
  // An import posted through its job, then a payout of some of what it earned.
  await submitSalesImport({ kind: "digital", file: await upload("MOVE-1", 400), exchangeRate: null, uploadedBy: admin.id });
  expect(await runQueuedJobsNow(SALES_IMPORT_JOB)).toMatchObject({ completed: 1, failed: 0 });
  await saveManualPayoutAccount(mia, mia.id, {
    country: "US",
    accountHolder: "Mia Member",
    bankName: "First Bank",
    accountNumber: "000123456789",
    routingCode: "021000021",
  });
  await declareTaxStatus(mia, mia.id, { form: "w9", legalName: "Mia Member", country: "US", tin: "123-45-6789" });
  const request = await requestPayout(mia, mia.id, "25.00");
  await approvePayoutRequest(admin, request.id);
  await payManualPayoutRequest(admin, request.id, "WIRE-1");
  // A second import waits in the job queue when the old version stops.
  await submitSalesImport({ kind: "digital", file: await upload("MOVE-2", 50), exchangeRate: null, uploadedBy: admin.id });
  await stopJobWorkers();
  await writePgliteDatabase(original, path.join(dataDir, "pglite"));
}, 180_000);

describe("moving an earlier embedded database (PGlite) into the embedded PostgreSQL", () => {
  it("moves every row of every table, keeps the old folder renamed, and says so", async () => {
    const before = await contents(original);
    expect(before["public.statement_lines"]!.rows).toBe(400);
    expect(before["public.payout_requests"]!.rows).toBe(1);
    const jobsBefore = await jobsOf(original);
    // The second import waits; the first one's reconciliation (queued when it completed) may wait beside it.
    const waiting = jobsBefore.filter((job) => job.state === "created");
    expect(waiting.filter((job) => job.name === SALES_IMPORT_JOB)).toEqual([expect.objectContaining({ singleton_key: "sales-import:2" })]);
    expect(jobsBefore.some((job) => job.state === "completed")).toBe(true);

    embedded = await startEmbeddedPostgres({ dataDir, fastInit: true });
    moved = await openDatabase(embedded.url);
    await migrateDatabase(moved);
    message = await moveOldDatabase(dataDir, moved);
    expect(message).toContain(` and ${waiting.length} waiting job${waiting.length === 1 ? "" : "s"} queued again`);

    expect(message).toMatch(
      /^the earlier embedded database \(PGlite, .*pglite\) was moved into PostgreSQL: [\d,]+ rows in \d+ tables, the count of every table checked on both sides, and \d+ waiting jobs? queued again/,
    );
    expect(message).toContain("delete it once you no longer need it");
    const kept = fs.readdirSync(dataDir).filter((name) => name.startsWith("pglite-moved-"));
    expect(kept).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, kept[0]!, "PG_VERSION"))).toBe(true);
    expect(oldDatabaseNotes(dataDir, false)).toEqual([expect.stringContaining(`${kept[0]} is the earlier embedded database (PGlite), kept after its move`)]);

    expect(await contents(moved)).toEqual(before);
    // The waiting jobs, as they were (id, name, data, key); the finished ones stay behind in the old folder.
    expect(await jobsOf(moved)).toEqual(waiting);
    // Nothing to move at the next start.
    expect(await moveOldDatabase(dataDir, moved)).toBeNull();
  }, 180_000);

  it("continues where the old database stopped: new rows take the next ids, and the waiting import runs", async () => {
    setDatabase(moved);
    const next = async (table: string) =>
      ((await db().execute(sql.raw(`select coalesce(max(id), 0)::int as n from ${table}`))) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
    const lastEntry = await next("journal_entries");
    expect(await runQueuedJobsNow(SALES_IMPORT_JOB)).toMatchObject({ runs: 1, completed: 1, failed: 0 });
    const imports = (await db().execute(sql`select status, lines from sales_imports order by id`)) as unknown as {
      rows: Array<{ status: string; lines: number }>;
    };
    expect(imports.rows).toEqual([
      { status: "completed", lines: 400 },
      { status: "completed", lines: 50 },
    ]);
    expect(await next("journal_entries")).toBeGreaterThan(lastEntry);
    await stopJobWorkers();
  }, 120_000);

  it("refuses to move into a database that already holds members, and changes nothing", async () => {
    const folder = path.join(dataDir, "pglite");
    const kept = fs.readdirSync(dataDir).find((name) => name.startsWith("pglite-moved-"))!;
    fs.renameSync(path.join(dataDir, kept), folder);
    await expect(moveOldDatabase(dataDir, moved!)).rejects.toThrow("already holds members: nothing was moved");
    expect(fs.existsSync(path.join(folder, "PG_VERSION"))).toBe(true);
    expect(oldDatabaseNotes(dataDir, true)).toEqual([expect.stringContaining("not used while DATABASE_URL is set")]);
  }, 60_000);
});
