import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { LAYOUTS, StatementFormatError, type StatementKind } from "./parse-statement";
import { readStatementFile, type HomeLine, type StatementSummary } from "./statement-reader.server";
import type { StatementEncoding } from "./statement-encoding.server";

/**
 * readStatementFile on a worker thread (docs/decisions/028-ledger-grain-and-cost.md, "Heavy work off the main
 * thread"): parsing a statement of 200,000 lines is seconds of CPU, and on the web process's main thread it
 * would hold every other request while it runs. The worker reads and converts; the lines come back in
 * batches of BATCH_LINES, at most BATCHES_AHEAD ahead of `onLines` (so a slow consumer bounds the memory),
 * and the same StatementFormatError is thrown here at the first bad line. Same contract as readStatementFile.
 *
 * The worker is the source file under tsx (dev, tests, scripts) and build/workers/statement-reader.js in the
 * built app (workers.vite.config.ts). Without either it reads on this thread (and says so once).
 */
const BATCH_LINES = 1000;
const BATCHES_AHEAD = 4;

export interface ReaderRequest {
  kind: StatementKind;
  filePath: string;
  uploadRate: string | null;
  /** False when only the summary is wanted (the check at upload): no line crosses the thread. */
  wantLines: boolean;
  batchLines: number;
  batchesAhead: number;
}

export type ReaderMessage =
  | { type: "lines"; lines: HomeLine[] }
  | { type: "done"; summary: { layoutId: string; lines: number; totalMicros: bigint; statementId: string | null; encoding: StatementEncoding } }
  | { type: "format-error"; message: string; lineNo: number | null; column: string | null }
  | { type: "error"; message: string };

/** How to start the worker: its source under tsx, or the built file. */
function workerEntry(): { code: string; eval: boolean } | null {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts")) {
    // A worker does not inherit the tsx loader of its parent (nor take it from execArgv): it registers tsx itself.
    const tsx = pathToFileURL(
      createRequire(import.meta.url)
        .resolve("tsx/esm/api")
        .replace(/\.cjs$/, ".mjs"),
    ).href;
    const source = pathToFileURL(here.replace(/statement-reader-thread\.server\.ts$/, "statement-reader.worker.ts")).href;
    return { code: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`, eval: true };
  }
  // The built server (build/server/index.js, or a chunk under build/server/assets/) and the built worker beside it.
  for (const relative of ["../workers/statement-reader.js", "../../workers/statement-reader.js"]) {
    const file = fileURLToPath(new URL(relative, import.meta.url));
    if (fs.existsSync(file)) return { code: file, eval: false };
  }
  return null;
}

let warned = false;

export async function readStatementFileOffThread(
  kind: StatementKind,
  filePath: string,
  uploadRate: string | null,
  onLines: (lines: HomeLine[]) => void | Promise<void>,
  options: { wantLines?: boolean } = {},
): Promise<StatementSummary> {
  const entry = workerEntry();
  if (!entry) {
    if (!warned) {
      warned = true;
      console.warn(
        JSON.stringify({ level: "warn", message: "the statement reader's worker is not built (npm run build): statements are read on the main thread" }),
      );
    }
    return readStatementFile(kind, filePath, uploadRate, onLines);
  }
  const request: ReaderRequest = { kind, filePath, uploadRate, wantLines: options.wantLines ?? true, batchLines: BATCH_LINES, batchesAhead: BATCHES_AHEAD };
  const worker = new Worker(entry.code, { eval: entry.eval, workerData: request });
  try {
    return await new Promise<StatementSummary>((resolve, reject) => {
      // Batches are handled one at a time, in order, each acknowledged when its onLines has settled.
      let chain: Promise<void> = Promise.resolve();
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      worker.on("message", (message: ReaderMessage) => {
        if (message.type === "lines") {
          chain = chain.then(async () => {
            if (failed) return;
            await onLines(message.lines);
            worker.postMessage("ack");
          });
          chain.catch(fail);
        } else if (message.type === "done") {
          const { layoutId, ...rest } = message.summary;
          const layout = LAYOUTS.find((l) => l.id === layoutId)!;
          chain.then(() => resolve({ ...rest, layout }), fail);
        } else if (message.type === "format-error") {
          chain.then(() => fail(new StatementFormatError(message.message, { lineNo: message.lineNo, column: message.column })), fail);
        } else {
          chain.then(() => fail(new Error(`The statement reader stopped: ${message.message}`)), fail);
        }
      });
      worker.on("error", fail);
      // Before its last message was handled, an exit (even with code 0) is a failure; after it, a no-op.
      worker.on("exit", (code) => {
        chain.then(() => fail(new Error(`The statement reader's worker stopped (exit code ${code}) before the end of the file.`)), fail);
      });
    });
  } finally {
    await worker.terminate();
  }
}
