/**
 * The worker thread that reads a statement file (statement-reader-thread.server.ts starts it): CSV parsing,
 * validation and currency conversion run here, off the web process's main thread, and the lines go back in
 * batches, at most a few batches ahead of what the main thread has handled (its acknowledgements).
 */
import { parentPort, workerData } from "node:worker_threads";
import { StatementFormatError, type StatementKind } from "./parse-statement";
import { readStatementFile, type HomeLine } from "./statement-reader.server";
import type { ReaderMessage, ReaderRequest } from "./statement-reader-thread.server";

const port = parentPort!;
const request = workerData as ReaderRequest;
let acknowledged = 0;
let sent = 0;
let wake: (() => void) | null = null;
port.on("message", (message: "ack") => {
  if (message !== "ack") return;
  acknowledged += 1;
  wake?.();
  wake = null;
});
const post = (message: ReaderMessage) => port.postMessage(message);

async function send(lines: HomeLine[]) {
  post({ type: "lines", lines });
  sent += 1;
  while (sent - acknowledged >= request.batchesAhead) await new Promise<void>((resolve) => (wake = resolve));
}

try {
  let pending: HomeLine[] = [];
  const summary = await readStatementFile(request.kind as StatementKind, request.filePath, request.uploadRate, async (batch) => {
    if (!request.wantLines) return;
    for (const line of batch) pending.push(line);
    if (pending.length >= request.batchLines) {
      const full = pending;
      pending = [];
      await send(full);
    }
  });
  if (pending.length) await send(pending);
  post({
    type: "done",
    summary: {
      layoutId: summary.layout.id,
      lines: summary.lines,
      totalMicros: summary.totalMicros,
      statementId: summary.statementId,
      encoding: summary.encoding,
    },
  });
} catch (error) {
  post(
    error instanceof StatementFormatError
      ? { type: "format-error", message: error.message, lineNo: error.lineNo, column: error.column }
      : { type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  );
}
