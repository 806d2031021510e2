import { runQueuedJobsNow } from "~/modules/jobs/queue.server";
import { MAIL_JOB } from "~/modules/mail/mailer.server";

/**
 * Mail is a job (app/modules/mail): a service queues it and a worker sends it. Tests run no workers, so this
 * delivers, in the test's process and through the configured way out (SMTP_URL or the outbox), every message
 * queued so far, awaiting each. Returns how many were sent.
 */
export async function deliverQueuedMail(): Promise<number> {
  const { completed } = await runQueuedJobsNow(MAIL_JOB);
  return completed;
}
