import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase, setDatabase, type Database } from "~/db/client.server";
import { journalEntries, ledgerAccounts, postings, salesImports, statementLines } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createSalesImport } from "~/modules/ledger/imports/sales-imports.server";
import { seedReferenceDataOnFirstRun } from "~/modules/reference/reference-seed.server";
import { readStatementFile } from "~/modules/ledger/imports/statement-reader.server";
import { createTestDatabase } from "../helpers/database";
import { TEST_SETTINGS } from "../setup/settings";

/**
 * A crash test: a large sales import's process is killed with SIGKILL at several points, and
 * after each kill nothing of the import is in the database (no statement line, no journal entry, no
 * posting, no other table changed) and the import is still waiting to run; then a new process runs it to
 * the end and the ledger invariant holds (docs/money.md "Statements in": "a crash (kill -9) at any point leaves
 * either nothing or everything, and running it again finishes it").
 *
 * The import runs in a child process (tests/integration/support/import-child.ts) on the same database, a
 * fresh one on the test server. Kill points: as soon as the import is claimed (its transaction starting), in
 * the middle of writing lines, late in the statement and, with every line and posting written and the
 * invariant checked, the final update of the import row waiting on a row lock this test holds, just before
 * the commit.
 */

// 30,000 lines keep the five runs near a minute on this machine.
const LINES = Number(process.env.CRASH_TEST_LINES ?? 30_000);
const CHILD_NAME = "import-crash-child";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

let databaseUrl: string;
let dropDatabase: (() => Promise<void>) | undefined;
let database: Database | undefined;
let importId: number;
let expectedTotal: bigint;
let before: Record<string, number>;

async function openHere() {
  database = await openDatabase(databaseUrl);
  setDatabase(database);
}

async function closeHere() {
  setDatabase(undefined);
  await database?.close();
  database = undefined;
}

/** LINES lines: matched by ISRC (some written with hyphens), album lines by UPC, unknown codes, EUR lines with rates. */
function statementText(isrcs: string[], upc: string): string {
  const out: string[] = [DIGITAL_HEADER];
  for (let i = 0; i < LINES; i++) {
    const period = i % 2 ? "2026-07" : "2026-06";
    const net = (((i * 7919) % 50_000) / 1e6 + (i % 97 === 5 ? -0.5 : 0)).toFixed(8);
    let isrc = isrcs[i % isrcs.length]!;
    let lineUpc = "";
    let currency = "USD";
    let rate = "";
    const bucket = i % 20;
    if (bucket === 0) isrc = `GBXXX26${String(i % 99_991).padStart(5, "0")}`;
    else if (bucket === 1) [isrc, lineUpc] = ["", `0${upc}`];
    else if (bucket === 2) [currency, rate] = ["EUR", "1.0832"];
    else if (bucket === 3) isrc = `${isrc.slice(0, 2)}-${isrc.slice(2, 5)}-${isrc.slice(5, 7)}-${isrc.slice(7)}`.toLowerCase();
    out.push(
      `CRASH-1,2026-08-15,${period},${period},Spotify,,stream,track,US,Midnight Owls,,${lineUpc},Song ${i % 13},${isrc},1,0.1,${currency},${net},${net},${currency},${rate}`,
    );
  }
  return out.join("\n") + "\n";
}

/** Rows in every table of the app's schema. */
async function tableCounts(): Promise<Record<string, number>> {
  const tables = (await db().execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)) as unknown as {
    rows: Array<{ tablename: string }>;
  };
  const counts: Record<string, number> = {};
  for (const { tablename } of tables.rows) {
    const result = (await db().execute(sql.raw(`select count(*)::int as n from "${tablename}"`))) as unknown as { rows: Array<{ n: number }> };
    counts[tablename] = result.rows[0]!.n;
  }
  return counts;
}

async function importRow() {
  const [row] = await db().select().from(salesImports).where(eq(salesImports.id, importId));
  return row!;
}

/** Nothing of the import is in the database, nothing else changed, and it is still waiting to run. */
async function expectNothingPosted() {
  const [lines] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(statementLines)
    .where(eq(statementLines.importId, importId));
  const [entries] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(journalEntries)
    .where(eq(journalEntries.importId, importId));
  const [made] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .where(eq(journalEntries.importId, importId));
  expect([lines!.n, entries!.n, made!.n]).toEqual([0, 0, 0]);
  const row = await importRow();
  expect(["queued", "processing"]).toContain(row.status);
  expect([row.lines, row.matched, row.totalMicros, row.finishedAt]).toEqual([0, 0, 0n, null]);
  expect(await tableCounts()).toEqual(before);
}

interface ChildEvent {
  event: "booted" | "progress" | "done";
  status?: string;
  lines?: number;
  error?: string | null;
  at: number;
}

interface ChildRun {
  events: ChildEvent[];
  /** The event after which it was killed, or null when it ran to its end. */
  killedAfter: ChildEvent | null;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stderr: string;
}

/**
 * Runs the import in a child process. `killWhen` sees each event and may return a promise: when it
 * resolves to true the child is killed with SIGKILL.
 */
function runChild(killWhen: (event: ChildEvent, child: ChildProcess) => boolean | Promise<boolean> = () => false): Promise<ChildRun> {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", CHILD_NAME);
  const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/support/import-child.ts", String(importId)], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...TEST_SETTINGS,
      APP_ENV: "test",
      DATABASE_URL: url.toString(),
      SEED_DEMO_DATA: "false",
      // The child has no realtime server to publish progress to.
      REALTIME_HOST: "127.0.0.1",
      REALTIME_PORT: "9",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: ChildRun = { events: [], killedAfter: null, exit: { code: null, signal: null }, stderr: "" };
  child.stderr!.on("data", (chunk) => (run.stderr += chunk));
  readline.createInterface({ input: child.stdout! }).on("line", (text) => {
    let event: ChildEvent;
    try {
      event = JSON.parse(text) as ChildEvent;
    } catch {
      return;
    }
    run.events.push(event);
    void Promise.resolve(killWhen(event, child)).then((kill) => {
      if (kill && run.killedAfter === null && child.exitCode === null) {
        run.killedAfter = event;
        child.kill("SIGKILL");
      }
    });
  });
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      run.exit = { code, signal };
      resolve(run);
    }),
  );
}

/** The killed child's server process is gone (it rolls back as it notices the lost client). */
async function childBackendsGone() {
  for (let i = 0; i < 500; i++) {
    const { rows } = (await db().execute(sql`select count(*)::int as n from pg_stat_activity where application_name = ${CHILD_NAME}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the killed child's PostgreSQL backend is still there after 10 s");
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const processing = (event: ChildEvent) => event.event === "progress" && event.status === "processing";

function expectKilled(run: ChildRun) {
  expect(run.exit.signal, `the child ran to its end instead of being killed: ${JSON.stringify(run.events.at(-1))}\n${run.stderr}`).toBe("SIGKILL");
  expect(run.events.some((e) => e.event === "done")).toBe(false);
}

beforeAll(async () => {
  const testDatabase = await createTestDatabase();
  databaseUrl = testDatabase.url;
  dropDatabase = testDatabase.drop;
  await openHere();
  // What boot() does in every child, done once here so it is not counted as a change.
  await seedReferenceDataOnFirstRun(database!.db);
  await seedDemoData();
  const admin = await findUserByEmail("admin@example.com");
  const songs = (await db().execute(sql`select isrc from songs where isrc is not null order by id`)) as unknown as { rows: Array<{ isrc: string }> };
  const text = statementText(
    songs.rows.map((s) => s.isrc),
    "196589000019", // the demo Late Trains EP
  );
  fs.mkdirSync(TEST_SETTINGS.STORAGE_DIR, { recursive: true });
  const tmpPath = path.join(TEST_SETTINGS.DATA_DIR, "upload.csv");
  fs.writeFileSync(tmpPath, text);
  expectedTotal = (await readStatementFile("digital", tmpPath, null, () => {})).totalMicros;
  const created = await createSalesImport({
    kind: "digital",
    file: { tmpPath, filename: "crash.csv", bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
    exchangeRate: null,
    uploadedBy: admin!.id,
  });
  importId = created.id;
  before = await tableCounts();
}, 120_000);

afterAll(async () => {
  await closeHere();
  await dropDatabase?.();
});

describe(`a ${LINES.toLocaleString("en")}-line import killed with SIGKILL`, () => {
  it("leaves nothing when killed as soon as it has claimed the import", async () => {
    const run = await runChild((event) => processing(event));
    expectKilled(run);
    expect(run.killedAfter).toMatchObject({ status: "processing", lines: 0 });
    await childBackendsGone();
    await expectNothingPosted();
    expect((await importRow()).status).toBe("processing");
  }, 60_000);

  it("leaves nothing when killed while it writes its first lines", async () => {
    const run = await runChild((event) => processing(event) && event.lines! > 0);
    expectKilled(run);
    expect(run.killedAfter!.lines).toBeGreaterThan(0);
    expect(run.killedAfter!.lines).toBeLessThan(LINES);
    await childBackendsGone();
    await expectNothingPosted();
  }, 90_000);

  it("leaves nothing when killed late in the statement", async () => {
    // The first report after half the lines, plus 300 ms more of writing.
    const run = await runChild((event) => processing(event) && event.lines! >= LINES / 2 && wait(300).then(() => true));
    expectKilled(run);
    expect(run.killedAfter!.lines).toBeGreaterThanOrEqual(LINES / 2);
    await childBackendsGone();
    await expectNothingPosted();
  }, 120_000);

  it("leaves nothing when killed with every line and posting written, just before the commit", async () => {
    // Holding the import row (FOR NO KEY UPDATE: the lines' foreign keys still go through) stops the run at
    // its last statement, the update of the import's figures, after the invariant was checked in the database.
    const { default: pg } = await import("pg");
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    let state = "";
    try {
      const run = await runChild(async (event) => {
        if (!processing(event) || event.lines !== 0) return false;
        await locker.query("begin");
        await locker.query("select id from sales_imports where id = $1 for no key update", [importId]);
        for (let i = 0; i < 3000; i++) {
          // Inside a transaction pg_stat_activity keeps the state and query it first read: read them afresh.
          await locker.query("select pg_stat_clear_snapshot()");
          const { rows } = await locker.query(
            "select wait_event_type, query from pg_stat_activity where application_name = $1 and state = 'active' and query like 'update \"sales_imports\"%'",
            [CHILD_NAME],
          );
          if (rows[0]?.wait_event_type === "Lock") {
            const { rows: written } = await locker.query("select count(*)::int as n from statement_lines where import_id = $1", [importId]);
            state = `blocked on the final update; lines visible outside: ${written[0].n}`;
            return true;
          }
          await wait(20);
        }
        return false;
      });
      expectKilled(run);
      expect(state).toBe("blocked on the final update; lines visible outside: 0");
    } finally {
      await locker.query("rollback").catch(() => {});
      await locker.end();
    }
    await childBackendsGone();
    await expectNothingPosted();
  }, 120_000);

  it("then runs to completion in a new process: every line once, and the invariant holds", async () => {
    const run = await runChild();
    expect(run.exit, run.stderr).toEqual({ code: 0, signal: null });
    expect(run.events.at(-1)).toMatchObject({ event: "done", status: "completed", lines: LINES, error: null });

    const row = await importRow();
    expect([row.status, row.lines, row.matched + row.unmatched]).toEqual(["completed", LINES, LINES]);
    const [lines] = await db()
      .select({
        n: sql<number>`count(*)::int`,
        distinct: sql<number>`count(distinct ${statementLines.lineNo})::int`,
        total: sql<string>`coalesce(sum(${statementLines.amountMicros}), 0)::text`,
      })
      .from(statementLines)
      .where(eq(statementLines.importId, importId));
    expect([lines!.n, lines!.distinct]).toEqual([LINES, LINES]);
    const [made] = await db()
      .select({
        entries: sql<number>`count(distinct ${journalEntries.id})::int`,
        all: sql<string>`coalesce(sum(${postings.amountMicros}), 0)::text`,
        shared: sql<string>`coalesce(sum(${postings.amountMicros}) filter (where ${ledgerAccounts.kind} <> 'receipts'), 0)::text`,
      })
      .from(postings)
      .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
      .where(and(eq(journalEntries.importId, importId)));
    expect(made!.entries).toBe(1);
    expect(BigInt(made!.all)).toBe(0n);
    expect(BigInt(made!.shared)).toBe(BigInt(lines!.total));
    expect(row.totalMicros).toBe(BigInt(lines!.total));
    expect(row.totalMicros).toBe(expectedTotal);
    // Only the import's own rows were added (lines, its entry and postings, new ledger accounts).
    const after = await tableCounts();
    expect(after.statement_lines).toBe(before.statement_lines! + LINES);
    expect(after.journal_entries).toBe(before.journal_entries! + 1);
  }, 120_000);
});
