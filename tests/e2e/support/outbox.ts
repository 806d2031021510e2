import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

/**
 * One message as received by the suite's SMTP listener (smtp-mailbox.mjs), which files it in
 * DATA_DIR/outbox in the shape the app's own outbox transport uses when SMTP_URL is unset.
 */
export interface Mail {
  file: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sentAt: string;
}

export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the suite through playwright.config.ts");
  return dir;
}

function outboxDir() {
  return path.join(dataDir(), "outbox");
}

/** Every message sent to `to` (case-insensitive), oldest first; optionally only those whose subject matches. */
export function mailsTo(to: string, subject?: RegExp): Mail[] {
  let files: string[];
  try {
    files = fs.readdirSync(outboxDir()).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  return files
    .sort()
    .map((file) => ({ file, ...(JSON.parse(fs.readFileSync(path.join(outboxDir(), file), "utf8")) as Omit<Mail, "file">) }))
    .filter((m) => m.to.toLowerCase() === to.toLowerCase() && (!subject || subject.test(m.subject)));
}

/**
 * The newest message to `to`, waiting briefly until there are more than `after` of them
 * (pass the count seen before the action that sends it, to be sure it is a new one).
 */
export async function waitForMail(to: string, options: { subject?: RegExp; after?: number; timeout?: number } = {}): Promise<Mail> {
  const after = options.after ?? 0;
  await expect
    .poll(() => mailsTo(to, options.subject).length, {
      message: `a new message to ${to}${options.subject ? ` matching ${options.subject}` : ""} in the outbox`,
      timeout: options.timeout ?? 5_000,
      intervals: [50, 100, 200, 250],
    })
    .toBeGreaterThan(after);
  const mails = mailsTo(to, options.subject);
  return mails[mails.length - 1]!;
}

/** The single action link of a message (verification, reset, activation). */
export function actionLink(mail: Mail): string {
  expect(mail.links, `links in "${mail.subject}"`).toHaveLength(1);
  return mail.links[0]!;
}

/**
 * That no (further) message to `to` arrives: mail is a job, sent by the server's worker a moment after the request
 * that queued it (at once when queued outside a transaction, within the workers' 2 s poll when queued inside one),
 * so the count is watched for 2.5 s and must stay `count`.
 */
export async function expectNoMail(to: string, subject?: RegExp, count = 0): Promise<void> {
  const deadline = Date.now() + 2_500;
  while (Date.now() < deadline) {
    expect(mailsTo(to, subject), `no new message to ${to}${subject ? ` matching ${subject}` : ""}`).toHaveLength(count);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(mailsTo(to, subject)).toHaveLength(count);
}
