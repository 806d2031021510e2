/**
 * The job registry (decision 016, "One job registry"): every background job of the product, listed once and
 * registered at boot (`boot()`, and the test setup), so that any node can run any job whatever modules it has
 * loaded, and a job queued before a restart finds its handler as soon as the workers start. A feature defines its
 * job (`defineJob`, no side effect) and is added here; no module registers a handler of its own
 * (app/modules/jobs/registry.server.test.ts checks both).
 */
import { salesImportJob } from "~/modules/ledger/imports/sales-import-job.server";
import { importReconcileJob } from "~/modules/ledger/reconcile.server";
import { suspenseMatchJob } from "~/modules/ledger/imports/suspense-match-job.server";
import { checkoutRefundJob } from "~/modules/marketplace/checkout.server";
import { dailyCleanupJob } from "~/modules/jobs/daily-cleanup.server";
import { mailJob } from "~/modules/mail/mailer.server";
import { registerJobHandler, type JobDefinition } from "./queue.server";

export const JOBS: readonly JobDefinition[] = [salesImportJob, importReconcileJob, suspenseMatchJob, checkoutRefundJob, dailyCleanupJob, mailJob];

/** Registers every job's handler with its retry policy. Idempotent. */
export function registerJobs(): void {
  for (const job of JOBS) registerJobHandler(job.name, job.handler, job.options);
}
