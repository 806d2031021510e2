/**
 * The process the crash test kills (tests/integration/import-crash.test.ts): boots the app the way
 * scripts/db.ts does (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR; STORAGE_DIR for the statement file), then runs
 * one prepared sales import, printing a JSON line per event on stdout:
 *   {"event":"booted"}  {"event":"progress","status":"processing","lines":n}  {"event":"done","status":...}
 *
 *   node --import tsx tests/integration/support/import-child.ts <importId>
 */
import { boot, shutdown } from "../../../app/boot.server";
import { onImportProgress, runSalesImport } from "../../../app/modules/ledger/imports/sales-imports.server";

const importId = Number(process.argv[2]);
if (!Number.isInteger(importId) || importId <= 0) {
  console.error("usage: import-child.ts <importId>");
  process.exit(2);
}
process.env.SEED_DEMO_DATA = "false";

const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...event, at: Date.now() })}\n`);

await boot();
say({ event: "booted" });
onImportProgress((progress) => say({ event: "progress", status: progress.status, lines: progress.lines }));
const done = await runSalesImport(importId);
say({ event: "done", status: done?.status ?? null, lines: done?.lines ?? null, error: done?.error ?? null });
await shutdown();
process.exit(0);
