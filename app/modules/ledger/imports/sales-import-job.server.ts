import { ADMIN_CHANNEL, publish } from "~/modules/notifications/broadcaster.server";
import { defineJob, enqueueJob, storableError } from "~/modules/jobs/queue.server";
import { enqueueReconcile } from "../reconcile.server";
import { createSalesImport, failSalesImport, onImportProgress, runSalesImport, type NewSalesImport } from "./sales-imports.server";

/**
 * Sales imports run as durable jobs (decision 016): an upload enqueues one, a worker posts it. The run is
 * one transaction, so a retry after a crash starts clean; after the last retry the import is marked
 * failed with a reason an administrator can act on. Progress reaches the admin pages live.
 */
export const SALES_IMPORT_JOB = "sales-import";
export const SALES_IMPORT_PROGRESS_EVENT = "sales-import.progress";
const RETRY_LIMIT = 2;

/** Registered at boot by the job registry (app/modules/jobs/registry.server.ts). */
export const salesImportJob = defineJob<{ importId: number }>(
  SALES_IMPORT_JOB,
  async ({ importId }, job) => {
    try {
      if ((await runSalesImport(importId))?.status === "completed") await enqueueReconcile(importId);
    } catch (error) {
      // The retry policy decides: a run with retries left fails (and is retried); the last one records why.
      if (job.retryCount >= RETRY_LIMIT) {
        const reason = storableError(error).message;
        console.error(JSON.stringify({ level: "error", message: "sales import failed", importId, error: reason }));
        await failSalesImport(
          importId,
          `The import stopped on an error and posted nothing: ${reason}. Upload the file again, or ask a developer to look at the server log.`,
        );
        return;
      }
      throw error;
    }
  },
  { retryLimit: RETRY_LIMIT, retryDelaySeconds: 5, expireInSeconds: 60 * 60 },
);

onImportProgress((progress) => {
  void publish([ADMIN_CHANNEL], SALES_IMPORT_PROGRESS_EVENT, { ...progress });
});

/** Checks and records an uploaded statement with its job (SalesImportRefusal when it is refused). */
export async function submitSalesImport(upload: NewSalesImport) {
  return createSalesImport(upload, {
    onRecorded: (tx, row) => enqueueJob(SALES_IMPORT_JOB, { importId: row.id }, { singletonKey: `sales-import:${row.id}`, tx }),
  });
}
