import { and, eq, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { contactMessages, users } from "~/db/schema";
import { env } from "~/env.server";
import { ACCT_ADMIN } from "~/modules/accounts/accounts.server";
import { fullName } from "~/modules/accounts/current-user.server";
import { escapeHtml, sendMail, type MailMessage } from "~/modules/mail/mailer.server";
import { notifyAdmins } from "~/modules/notifications/notifications.server";
import { describeWait, hitRateLimit } from "~/modules/security/rate-limit.server";

/**
 * Contact us: a member's message is kept in contact_messages for the administrators and emailed to every
 * administrator account that is not suspended, with the member's name and address; replies go to the member.
 */

export const CONTACT_LIMIT = { count: 10, windowSeconds: 60 * 60 };

export class ContactRateLimitedError extends Error {
  constructor(retryAfterSeconds: number) {
    super(`You have sent a lot of messages in the last hour. Please try again in ${describeWait(retryAfterSeconds)}.`);
    this.name = "ContactRateLimitedError";
  }
}

export interface ContactResult {
  id: number;
  /** How many administrators the message was emailed to. */
  notified: number;
}

/** `subject` and `message` are already validated (ContactSchema). Throws ContactRateLimitedError past the limit. */
export async function sendContactMessage(input: { userId: number; subject: string; message: string }): Promise<ContactResult> {
  const limit = await hitRateLimit(`contact:user:${input.userId}`, CONTACT_LIMIT.count, CONTACT_LIMIT.windowSeconds);
  if (!limit.allowed) throw new ContactRateLimitedError(limit.retryAfterSeconds);

  const [author] = await db().select().from(users).where(eq(users.id, input.userId)).limit(1);
  if (!author) throw new Error(`No user ${input.userId}`);
  const [saved] = await db()
    .insert(contactMessages)
    .values({ userId: author.id, subject: input.subject, message: input.message })
    .returning({ id: contactMessages.id });

  const admins = await db()
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.acctType, ACCT_ADMIN), isNull(users.suspendedAt)));
  const from = { id: author.id, name: fullName(author), email: author.email };
  // The message is saved whatever happens to the mail; one failing address does not stop the others.
  const results = await Promise.allSettled(admins.map((admin) => sendMail(contactMail(admin.email, from, input.subject, input.message))));
  results.forEach((result, i) => {
    if (result.status !== "rejected") return;
    const reason = result.reason instanceof Error ? result.reason : new Error(String(result.reason));
    console.error(
      JSON.stringify({
        level: "error",
        message: `Contact us mail to ${admins[i]!.email} failed: ${reason.message}`,
        contactMessageId: saved!.id,
        stack: reason.stack,
      }),
    );
  });
  // The administrators' bell too: opening it leads to the member's page.
  await notifyAdmins({
    type: "ContactMessage",
    message: `${from.name} wrote: ${input.subject}`,
    color: "purple",
    routeName: "admin-member",
    resourceId: author.id,
  });
  return { id: saved!.id, notified: results.filter((r) => r.status === "fulfilled").length };
}

function contactMail(to: string, from: { id: number; name: string; email: string }, subject: string, message: string): MailMessage {
  const appName = env().APP_NAME;
  const memberUrl = `${env().APP_URL}/admin/member/${from.id}`;
  const text = [
    `${from.name} <${from.email}> wrote through Contact us:`,
    "",
    `Subject: ${subject}`,
    "",
    message,
    "",
    "---",
    `Reply to this email to answer ${from.name}.`,
    `Member: ${memberUrl}`,
    "",
    `— ${appName}`,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<p><strong>${escapeHtml(from.name)}</strong> &lt;<a href="mailto:${escapeHtml(from.email)}">${escapeHtml(from.email)}</a>&gt; wrote through Contact us:</p>
<p><strong>Subject:</strong> ${escapeHtml(subject)}</p>
<div style="white-space:pre-wrap;border-left:3px solid #d6d3d1;padding-left:12px">${escapeHtml(message)}</div>
<p style="font-size:13px;color:#57534e">Reply to this email to answer ${escapeHtml(from.name)}. <a href="${escapeHtml(memberUrl)}">Open the member</a></p>
<p>— ${escapeHtml(appName)}</p></body></html>`;
  return { to, subject: `Contact us: ${subject}`, text, html, replyTo: `"${from.name.replace(/["\\\r\n]/g, "")}" <${from.email}>` };
}
