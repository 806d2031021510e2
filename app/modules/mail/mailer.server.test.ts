import fs from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { currentDatabase, db } from "~/db/client.server";
import { getJobStatus, runQueuedJobsNow, stopJobWorkers } from "~/modules/jobs/queue.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { startSmtpListener } from "../../../tests/helpers/smtp";
import { useTestSettings } from "../../../tests/setup/settings";
import { MAIL_JOB, outboxDir, sendMail, type MailMessage } from "./mailer.server";

useTestDatabase();
afterAll(() => stopJobWorkers());

const message = (to: string, link = "http://localhost:3999/password-reset/secret-token"): MailMessage => ({
  to,
  subject: "Hello",
  text: `Open ${link}`,
  html: `<p><a href="${link}">Open</a></p>`,
});

async function queuedMailJobs(): Promise<Array<{ id: string; state: string; data: string }>> {
  const { rows } = await currentDatabase()!.pool.query(`SELECT id, state, data::text AS data FROM pgboss.job WHERE name = $1 ORDER BY created_on`, [MAIL_JOB]);
  return rows;
}

async function outboxFiles(): Promise<string[]> {
  return (await fs.readdir(outboxDir()).catch(() => [] as string[])).filter((file) => file.endsWith(".json"));
}

describe("mail is a job", () => {
  it("sendMail only queues the message, sealed: nothing is sent until a worker runs it, and its link is not readable in the queue", async () => {
    useTestSettings();
    const before = await outboxFiles();
    await sendMail(message("queued@example.com"));
    expect(await outboxFiles()).toEqual(before);
    const jobs = (await queuedMailJobs()).filter((job) => job.state === "created");
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).not.toContain("secret-token");
    expect(jobs[0]!.data).not.toContain("queued@example.com");

    expect((await runQueuedJobsNow(MAIL_JOB)).completed).toBe(1);
    const files = (await outboxFiles()).filter((file) => !before.includes(file));
    expect(files).toHaveLength(1);
    const sent = JSON.parse(await fs.readFile(`${outboxDir()}/${files[0]}`, "utf8"));
    expect(sent).toMatchObject({ to: "queued@example.com", subject: "Hello", links: ["http://localhost:3999/password-reset/secret-token"] });
    expect(sent.messageId).toBe(`<${jobs[0]!.id}@backline.localhost>`);
  });

  it("a mail queued in a transaction that rolls back does not exist", async () => {
    useTestSettings();
    const before = (await queuedMailJobs()).length;
    await expect(
      db().transaction(async (tx) => {
        await sendMail(message("rolled-back@example.com"), { tx });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await queuedMailJobs()).toHaveLength(before);
  });

  it("a mail server that is down delays the mail and loses none: the job is retried until the server takes it", async () => {
    const listener = await startSmtpListener();
    try {
      // A port nothing listens on: the run fails, and the job waits for its retry.
      const closed = await startSmtpListener();
      await closed.close();
      useTestSettings({ SMTP_URL: closed.url });
      await sendMail(message("patient@example.com"));
      const [job] = (await queuedMailJobs()).filter((row) => row.state === "created");
      // One run (the drain stops before the retry, which would run at once here).
      await expect(runQueuedJobsNow(MAIL_JOB, { maxRuns: 1 })).rejects.toThrow(/more than 1 runs/);
      expect(await getJobStatus(MAIL_JOB, job!.id)).toMatchObject({ state: "retry", retryLimit: 10 });

      useTestSettings({ SMTP_URL: listener.url });
      expect(await runQueuedJobsNow(MAIL_JOB)).toMatchObject({ completed: 1 });
      expect(await getJobStatus(MAIL_JOB, job!.id)).toMatchObject({ state: "completed" });
      const mail = await listener.next("patient@example.com", 1000);
      expect(mail.links).toEqual(["http://localhost:3999/password-reset/secret-token"]);
    } finally {
      useTestSettings();
      await listener.close();
    }
  });

  it("a message sealed under another session secret is not sent, and the job says why", async () => {
    useTestSettings({ SESSION_SECRET: "another-secret-another-secret-another-0123" });
    await sendMail(message("lost@example.com"));
    const [job] = (await queuedMailJobs()).filter((row) => row.state === "created");
    useTestSettings();
    await expect(runQueuedJobsNow(MAIL_JOB, { maxRuns: 1 })).rejects.toThrow(/more than 1 runs/);
    const status = await getJobStatus(MAIL_JOB, job!.id);
    expect(status).toMatchObject({ state: "retry" });
    expect(JSON.stringify(status!.output)).toContain("SESSION_SECRET changed");
  });
});
