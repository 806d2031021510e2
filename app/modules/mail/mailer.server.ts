import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "~/env.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where answers go (e.g. the member who wrote through Contact us). */
  replyTo?: string;
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
 * Sends over SMTP when SMTP_URL is set; otherwise writes the message to the outbox folder under
 * DATA_DIR and logs its links, so a local run needs no mail server.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const from = env().MAIL_FROM;
  const smtp = smtpTransport();
  if (smtp) {
    await smtp.sendMail({ from, ...message });
    return;
  }
  const links = [...message.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
  const dir = outboxDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.json`);
  await fs.writeFile(file, JSON.stringify({ from, ...message, links, sentAt: new Date().toISOString() }, null, 2));
  console.log(`[mail] to=${message.to} subject="${message.subject}"${links.map((l) => `\n  ${l}`).join("")}`);
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
