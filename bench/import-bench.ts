/**
 * Sales import throughput: a generated 200,000-line canonical digital statement posted by
 * the real engine (createSalesImport, then runSalesImport: one transaction, COPY), on the default engine (the
 * embedded PostgreSQL in a fresh DATA_DIR) and on a PostgreSQL server (a fresh database beside
 * BENCH_DATABASE_URL), each beside baselines measured in the same run on the same database:
 *   - raw COPY: the same file's bytes copied into a bare 21-column text table (`COPY ... FROM STDIN` through
 *     pg-copy-streams);
 *   - parse alone: readStatementFile with a no-op callback (CSV parsing, validation, currency conversion);
 *   - the floor: the rows the import wrote (lines, postings, summaries), COPYed again into empty copies of
 *     their tables with the same indexes: what any engine that must write them needs, before any work;
 *     and again into copies without indexes;
 *   - the bound: parse alone plus the floor, over the machine's cores (both are CPU work on one machine).
 * Goals: >= 150,000 lines/s and >= 0.15x the raw COPY (docs/decisions/028-ledger-grain-and-cost.md).
 *
 *   node --import tsx bench/import-bench.ts            (BENCH_DATABASE_URL for PostgreSQL too)
 *   BENCH_IMPORT_LINES=50000 ...                        (a smaller file)
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { boot, shutdown } from "../app/boot.server";
import { currentDatabase, db } from "../app/db/client.server";
import { profiles, users } from "../app/db/schema";
import { seedDemoData } from "../app/db/seed.server";
import { loadEnv, resetEnvForTests } from "../app/env.server";
import { DEMO_ARTIST_USERNAME } from "../app/modules/catalog/catalog-seed.server";
import { createSalesImport, runSalesImport } from "../app/modules/ledger/imports/sales-imports.server";
import { readStatementFile } from "../app/modules/ledger/imports/statement-reader.server";
import { HEADER, writeStatement } from "./statement-file";

const LINES = Number(process.env.BENCH_IMPORT_LINES ?? 200_000);
const GOAL_PG_LINES_PER_S = 150_000;
const GOAL_RATIO = 0.15;
const BENCH_RELEASES = 16; // x 3 tracks = 48 songs, plus the demo catalogue's
const COLUMNS = HEADER.split(",");

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "import-bench-"));

/** The demo data, plus 16 releases of 3 songs on the demo artist page (no split: the owner takes 100%). */
async function seedCatalogue() {
  await seedDemoData();
  const [artist] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(sql`${profiles.type} = 'artist' and lower(${profiles.username}) = ${DEMO_ARTIST_USERNAME}`);
  if (!artist) throw new Error("the demo artist page is missing");
  await db().execute(sql`
    insert into releases (artist_id, title, slug, type, upc, label, release_date, status)
    select ${artist.id}, 'Import Bench ' || r, 'import-bench-' || r, 'album', '8' || lpad(r::text, 11, '0'), 'Bench Records', date '2026-01-01', 'in_distribution'
    from generate_series(1, ${BENCH_RELEASES}) r`);
  await db().execute(sql`
    insert into songs (artist_id, title, isrc, duration_seconds, audio_format, audio_bit_depth, audio_sample_rate, audio_channels)
    select ${artist.id}, 'Bench Song ' || r || '-' || t, 'QZBI' || chr(64 + t) || lpad(r::text, 7, '0'), 200, 'wav', 24, 48000, 2
    from generate_series(1, ${BENCH_RELEASES}) r cross join generate_series(1, 3) t`);
  await db().execute(sql`
    insert into release_tracks (release_id, song_id, position)
    select rel.id, s.id, t
    from generate_series(1, ${BENCH_RELEASES}) r cross join generate_series(1, 3) t
    join releases rel on rel.slug = 'import-bench-' || r
    join songs s on s.isrc = 'QZBI' || chr(64 + t) || lpad(r::text, 7, '0')`);
  const songs = (await db().execute(sql`select isrc, title from songs where isrc is not null order by id`)) as unknown as {
    rows: Array<{ isrc: string; title: string }>;
  };
  const upcs = (await db().execute(
    sql`select upc from releases r where upc is not null and exists (select 1 from release_tracks t where t.release_id = r.id) order by id`,
  )) as unknown as {
    rows: Array<{ upc: string }>;
  };
  return { songs: songs.rows, upcs: upcs.rows.map((r) => r.upc) };
}

/* ---------------------------------------------------------------- baselines */

async function rawCopy(file: string): Promise<number> {
  const database = currentDatabase()!;
  const columns = COLUMNS.map((c) => `${c} text`).join(", ");
  await db().execute(sql`drop table if exists bench_bare_lines`);
  await db().execute(sql.raw(`create table bench_bare_lines (${columns})`));
  const started = performance.now();
  const { from: copyFrom } = await import("pg-copy-streams");
  const client = await database.pool.connect();
  try {
    await pipeline(
      fs.createReadStream(file, { highWaterMark: 1 << 16 }),
      client.query(copyFrom("copy bench_bare_lines from stdin with (format csv, header true)")),
    );
  } finally {
    client.release();
  }
  const seconds = (performance.now() - started) / 1000;
  const counted = (await db().execute(sql`select count(*)::int as n from bench_bare_lines`)) as unknown as { rows: Array<{ n: number }> };
  if (counted.rows[0]!.n !== LINES) throw new Error(`raw COPY loaded ${counted.rows[0]!.n} rows, not ${LINES}`);
  await db().execute(sql`drop table bench_bare_lines`);
  return seconds;
}

/**
 * The floor of any engine that writes what this one must (docs/money.md: every line, and every posting pointing to
 * its line, plus the summaries written with them): the import's own rows, read back out, COPYed into empty
 * copies of statement_lines, postings and posting_summaries that have the same columns and indexes (no
 * foreign keys, no triggers: the engine skips those checks where it can). Times the COPY in alone.
 * With `indexes: false` the copies have no index either: what writing these rows costs whatever the pages need.
 */
async function rowsFloor(importId: number, { indexes }: { indexes: boolean }): Promise<Floor> {
  const database = currentDatabase()!;
  const tables: Array<{ table: string; where: string }> = [
    { table: "statement_lines", where: `import_id = ${importId}` },
    { table: "postings", where: `entry_id in (select id from journal_entries where import_id = ${importId} and kind = 'statement_import')` },
    { table: "posting_summaries", where: `import_id = ${importId}` },
  ];
  for (const { table } of tables) {
    await db().execute(sql.raw(`drop table if exists bench_floor_${table}`));
    await db().execute(sql.raw(`create table bench_floor_${table} (like ${table} including defaults${indexes ? " including indexes" : ""})`));
  }
  const perTable: Record<string, { rows: number; seconds: number }> = {};
  try {
    for (const { table, where } of tables) {
      let rows = 0;
      let seconds = 0;
      const query = `copy (select * from ${table} where ${where}) to stdout`;
      const { to: copyTo, from: copyFrom } = await import("pg-copy-streams");
      const client = await database.pool.connect();
      try {
        const chunks: Buffer[] = [];
        await pipeline(client.query(copyTo(query)), async function (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) chunks.push(chunk);
        });
        rows += chunks.reduce((n, c) => n + c.reduce((k, b) => k + (b === 10 ? 1 : 0), 0), 0);
        const started = performance.now();
        await pipeline(Readable.from(chunks), client.query(copyFrom(`copy bench_floor_${table} from stdin`)));
        seconds += (performance.now() - started) / 1000;
      } finally {
        client.release();
      }
      perTable[table] = { rows, seconds: Number(seconds.toFixed(3)) };
    }
  } finally {
    for (const { table } of tables) await db().execute(sql.raw(`drop table if exists bench_floor_${table}`));
  }
  const all = Object.values(perTable);
  const seconds = all.reduce((s, t) => s + t.seconds, 0);
  return { ...timing(seconds), rows: all.reduce((n, t) => n + t.rows, 0), tables: perTable };
}

async function parseOnly(file: string): Promise<number> {
  const started = performance.now();
  const summary = await readStatementFile("digital", file, null, () => {});
  if (summary.lines !== LINES) throw new Error(`parsed ${summary.lines} lines, not ${LINES}`);
  return (performance.now() - started) / 1000;
}

/* -------------------------------------------------------------------- a run */

interface Timing {
  seconds: number;
  linesPerSecond: number;
}
type Floor = Timing & { rows: number; tables: Record<string, { rows: number; seconds: number }> };
interface ImportRun {
  database: string;
  lines: number;
  fileBytes: number;
  matched: number;
  unmatched: number;
  postings: number;
  parseOnly: Timing;
  checkAtUpload: Timing;
  rawCopy: Timing;
  /** The import's own rows COPYed into empty indexed copies of their tables (rowsFloor). */
  rowsFloor: Floor;
  /** The same rows into copies without indexes. */
  bareRowsFloor: Floor;
  import: Timing;
  importVsRawCopy: number;
  /** The import's time over the floor's: how much of it is more than writing its rows. */
  importVsFloor: number;
  /**
   * A bound under any engine on this machine: parsing the file (parse alone) and writing its rows (the floor)
   * are both CPU work, so even split perfectly over the machine's cores they take their sum over the cores.
   * Generous: one transaction writes on one connection, so the floor alone is nearer what an engine can reach.
   */
  bound: Timing & { cores: number };
  goals: Array<{ goal: string; value: string; pass: boolean }>;
}
const timing = (seconds: number): Timing => ({ seconds: Number(seconds.toFixed(3)), linesPerSecond: Math.round(LINES / seconds) });

async function runOn(name: string, databaseUrl: string | undefined): Promise<ImportRun> {
  const dataDir = fs.mkdtempSync(path.join(work, "data-"));
  resetEnvForTests(
    loadEnv({
      ...process.env,
      APP_ENV: "local",
      SEED_DEMO_DATA: "false",
      DATA_DIR: dataDir,
      STORAGE_DIR: path.join(dataDir, "storage"),
      DATABASE_URL: databaseUrl ?? "",
    }),
  );
  await boot();
  try {
    const catalogue = await seedCatalogue();
    const file = path.join(work, "statement.csv");
    if (!fs.existsSync(file)) {
      const started = performance.now();
      writeStatement(file, LINES, catalogue.songs, catalogue.upcs);
      console.error(
        `[bench] ${LINES} lines written (${(fs.statSync(file).size / 2 ** 20).toFixed(1)} MB, ${catalogue.songs.length} songs, ${catalogue.upcs.length} UPCs) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const [admin] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
    const copySeconds = await rawCopy(file);
    const parseSeconds = await parseOnly(file);

    const upload = path.join(dataDir, "upload.csv");
    fs.copyFileSync(file, upload);
    const bytes = fs.readFileSync(upload);
    let started = performance.now();
    const created = await createSalesImport({
      kind: "digital",
      file: { tmpPath: upload, filename: "bench.csv", bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") },
      exchangeRate: null,
      uploadedBy: admin!.id,
    });
    const checkSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const done = await runSalesImport(created.id);
    const importSeconds = (performance.now() - started) / 1000;
    if (done?.status !== "completed" || done.lines !== LINES) throw new Error(`the import ended ${done?.status} with ${done?.lines} lines: ${done?.error}`);
    const counted = (await db().execute(
      sql`select count(*)::int as n from postings p join journal_entries e on e.id = p.entry_id where e.import_id = ${created.id}`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };

    const floor = await rowsFloor(created.id, { indexes: true });
    const bareFloor = await rowsFloor(created.id, { indexes: false });
    const ratio = copySeconds / importSeconds;
    const run: ImportRun = {
      database: name,
      lines: LINES,
      fileBytes: bytes.length,
      matched: done.matched,
      unmatched: done.unmatched,
      postings: counted.rows[0]!.n,
      parseOnly: timing(parseSeconds),
      checkAtUpload: timing(checkSeconds),
      rawCopy: timing(copySeconds),
      rowsFloor: floor,
      bareRowsFloor: bareFloor,
      import: timing(importSeconds),
      importVsRawCopy: Number(ratio.toFixed(3)),
      importVsFloor: Number((importSeconds / floor.seconds).toFixed(2)),
      bound: { ...timing((parseSeconds + floor.seconds) / os.availableParallelism()), cores: os.availableParallelism() },
      goals: [
        {
          goal: `>= ${GOAL_PG_LINES_PER_S.toLocaleString("en")} lines/s`,
          value: `${Math.round(LINES / importSeconds).toLocaleString("en")} lines/s`,
          pass: LINES / importSeconds >= GOAL_PG_LINES_PER_S,
        },
        { goal: `>= ${GOAL_RATIO}x the raw COPY`, value: `${ratio.toFixed(3)}x`, pass: ratio >= GOAL_RATIO },
      ],
    };
    return run;
  } finally {
    await shutdown();
    resetEnvForTests(undefined);
  }
}

const tableRows = (floor: Floor) =>
  Object.entries(floor.tables).map(([table, t]) => `    ${`${table}: ${t.rows.toLocaleString("en")} rows`.padEnd(32)} ${t.seconds.toFixed(2).padStart(7)} s`);

function format(run: ImportRun): string {
  const row = (label: string, t: Timing, note = "") =>
    `  ${label.padEnd(34)} ${t.seconds.toFixed(2).padStart(7)} s  ${t.linesPerSecond.toLocaleString("en").padStart(10)} lines/s${note}`;
  return [
    `Sales import on ${run.database}: ${run.lines.toLocaleString("en")} lines (${(run.fileBytes / 2 ** 20).toFixed(1)} MB), ${run.matched.toLocaleString("en")} matched, ${run.unmatched.toLocaleString("en")} to suspense, ${run.postings.toLocaleString("en")} postings`,
    row("parse alone (readStatementFile)", run.parseOnly),
    row("check at upload (createSalesImport)", run.checkAtUpload),
    row("raw COPY into a bare table", run.rawCopy),
    row(`its ${run.rowsFloor.rows.toLocaleString("en")} rows, COPY only (floor)`, run.rowsFloor, "  = writing them alone, on one connection"),
    ...tableRows(run.rowsFloor),
    row(
      "the same rows without indexes",
      run.bareRowsFloor,
      `  = ${(run.rawCopy.seconds / run.bareRowsFloor.seconds).toFixed(3)}x the raw COPY, before any index or work`,
    ),
    ...tableRows(run.bareRowsFloor),
    row(
      `parse + floor over ${run.bound.cores} cores (bound)`,
      run.bound,
      `  = ${(run.rawCopy.seconds / run.bound.seconds).toFixed(3)}x the raw COPY: no engine writing these rows beats it here`,
    ),
    row("import (runSalesImport)", run.import, `  = ${run.importVsRawCopy.toFixed(3)}x the raw COPY, ${run.importVsFloor.toFixed(2)}x its floor`),
    ...run.goals.map((g) => `  ${g.pass ? "PASS" : "MISS"} ${g.goal}: ${g.value}`),
  ].join("\n");
}

/* --------------------------------------------------------------------- main */

const runs: Array<ImportRun | { database: string; error: string }> = [];
const targets: Array<{ name: string; url?: string }> = [{ name: "embedded PostgreSQL" }];
if (process.env.BENCH_DATABASE_URL) targets.push({ name: "PostgreSQL server", url: process.env.BENCH_DATABASE_URL });
// BENCH_IMPORT_ON=embedded (or server): one of them only.
const only = process.env.BENCH_IMPORT_ON?.toLowerCase();
if (only) targets.splice(0, targets.length, ...targets.filter((t) => t.name.toLowerCase().includes(only)));
for (const target of targets) {
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  try {
    if (target.url) {
      const { default: pg } = await import("pg");
      const name = `backline_import_bench_${process.pid}`;
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
      const parsed = new URL(target.url);
      parsed.pathname = `/${name}`;
      url = parsed.toString();
      drop = async () => {
        const client = new pg.Client({ connectionString: target.url });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      };
    }
    const run = await runOn(target.name, url);
    runs.push(run);
    console.log(`\n${format(run)}`);
  } catch (error) {
    console.error(`\nSales import on ${target.name} failed: ${error instanceof Error ? error.stack : error}`);
    runs.push({ database: target.name, error: String(error) });
    process.exitCode = 1;
  } finally {
    await drop?.().catch(() => {});
  }
}
if (!process.env.BENCH_DATABASE_URL)
  console.log("\nA PostgreSQL server skipped: set BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run there too.");
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(resultsDir, { recursive: true });
const out = path.join(resultsDir, `import-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), lines: LINES, runs }, null, 2));
console.log(`Written: ${path.relative(process.cwd(), out)}`);
process.exit();
