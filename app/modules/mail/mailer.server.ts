import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "~/db/client.server";
import { env } from "~/env.server";
import { defineJob, enqueueJob } from "~/modules/jobs/queue.server";

/**
 * Outgoing mail is a job (decision 035): `sendMail` records the message in the job queue (pg-boss, decision 016),
 * inside the caller's transaction when it passes one, and a worker on any node delivers it with retries. So a
 * request never waits on the mail server, a failing mail server delays mail and loses none, and a mail is not
 * lost when the node that decided it stops.
 *
 * Two ways out, chosen by SMTP_URL: SMTP when it is set; otherwise the outbox folder under DATA_DIR (one JSON
 * file a message, its links logged), so a local run needs no mail server.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where answers go (e.g. the member who wrote through Contact us). */
  replyTo?: string;
}

export const MAIL_JOB = "mail.send";

/** What the job carries: the message sealed (its links are sign-in material), and when it was decided. */
interface MailJobData {
  sealed: string;
  queuedAt: string;
}

let transport: Transporter | undefined;

function smtpTransport(): Transporter | undefined {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  transport ??= nodemailer.createTransport(url);
  return transport;
}

export function resetMailerForTests() {
  transport = undefined;
}

export function outboxDir(): string {
  return path.join(env().DATA_DIR, "outbox");
}

/**
 * Queues `message` for delivery. With `tx`, the mail exists if and only if that transaction commits (the link it
 * carries and the token behind it go together). Resolves once the mail is recorded, not sent.
 */
export async function sendMail(message: MailMessage, options: { tx?: Db } = {}): Promise<void> {
  const data: MailJobData = { sealed: sealMessage(message), queuedAt: new Date().toISOString() };
  await enqueueJob(MAIL_JOB, data, { tx: options.tx });
}

/**
 * Delivers one queued message. Delivery is at least once: a run cut off after the mail server accepted the
 * message is run again, so the Message-ID is the job's (receivers and the outbox file treat a repeat as the same
 * message).
 */
export async function deliverMail(message: MailMessage, delivery: { id: string; queuedAt: string }): Promise<void> {
  const from = env().MAIL_FROM;
  const messageId = `<${delivery.id}@${mailDomain(from)}>`;
  const smtp = smtpTransport();
  if (smtp) {
    await smtp.sendMail({ from, ...message, messageId });
    return;
  }
  const links = [...message.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
  const dir = outboxDir();
  await fs.mkdir(dir, { recursive: true });
  // Named by when it was queued (files sort in that order) and by the job: a repeated run writes the same file.
  const file = path.join(dir, `${delivery.queuedAt.replace(/[:.]/g, "-")}-${delivery.id}.json`);
  const temporary = `${file}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  await fs.writeFile(temporary, JSON.stringify({ from, ...message, messageId, links, sentAt: new Date().toISOString() }, null, 2));
  await fs.rename(temporary, file);
  console.log(`[mail] to=${message.to} subject="${message.subject}"${links.map((l) => `\n  ${l}`).join("")}`);
}

/**
 * The mail job: 10 retries with exponential backoff from 30 s (the last about 8 hours after the first try), so
 * a mail server that is down for a while delays mail and loses none. A message that no longer opens (the
 * session secret changed) is not sent; its job's error says why.
 */
export const mailJob = defineJob<MailJobData>(
  MAIL_JOB,
  async (data, job) => {
    let message: MailMessage;
    try {
      message = openMessage(data.sealed);
    } catch {
      throw new Error("The queued message cannot be opened (SESSION_SECRET changed since it was queued); it is not sent.");
    }
    await deliverMail(message, { id: job.id, queuedAt: data.queuedAt });
  },
  { retryLimit: 10, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 5 * 60, concurrency: 4 },
);

function mailDomain(from: string): string {
  return /@([^>\s]+)/.exec(from)?.[1] ?? "backline.localhost";
}

// The job table keeps a message until its retention ends (decision 016): reset and sign-in links must not sit
// there readable. Sealed with a key derived from SESSION_SECRET, which every node shares.
function mailKey(): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", env().SESSION_SECRET, "", "backline mail job", 32));
}

function sealMessage(message: MailMessage): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", mailKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(message), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

function openMessage(sealed: string): MailMessage {
  const raw = Buffer.from(sealed, "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", mailKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as MailMessage;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A plain transactional message: a greeting, a paragraph, one action link. */
export function actionMail(input: {
  to: string;
  subject: string;
  greetingName: string;
  intro: string;
  actionLabel: string;
  actionUrl: string;
  outro: string;
}): MailMessage {
  const { appName } = { appName: env().APP_NAME };
  const text = [`Hello ${input.greetingName},`, "", input.intro, "", `${input.actionLabel}: ${input.actionUrl}`, "", input.outro, "", `— ${appName}`].join(
    "\n",
  );
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<p>Hello ${escapeHtml(input.greetingName)},</p>
<p>${escapeHtml(input.intro)}</p>
<p><a href="${escapeHtml(input.actionUrl)}" style="display:inline-block;padding:10px 16px;background:#14532d;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(input.actionLabel)}</a></p>
<p style="font-size:13px;color:#57534e">${escapeHtml(input.outro)}</p>
<p>— ${escapeHtml(appName)}</p></body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}
