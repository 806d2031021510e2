import { and, eq, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { payoutDetailChanges, users, type PayoutDetailChangeKind, type User } from "~/db/schema";
import { env } from "~/env.server";
import { revokeUserSessions } from "~/modules/accounts/session.server";
import { actionMail, sendMail } from "~/modules/mail/mailer.server";
import { notifyAdmins } from "~/modules/notifications/notifications.server";
import { hasValidSignature, signedUrl } from "~/modules/security/signed-url.server";

/**
 * Every change of a member's payout details (method, bank details, tax status) is recorded and emailed to
 * them with a signed link to report it (decision 019). A report marks the change, signs every
 * session of the account out and tells the administrators, who hold the member's payouts while they look.
 */

export const REPORT_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;

const KIND_LABEL: Record<PayoutDetailChangeKind, string> = {
  method: "payout method",
  bank_details: "bank details",
  tax_status: "tax status",
};

export const reportPath = (changeId: number) => `/payout-change-report/${changeId}`;

export async function recordPayoutDetailChange(
  member: Pick<User, "id" | "email" | "name">,
  change: { kind: PayoutDetailChangeKind; summary: string; ip: string },
): Promise<{ id: number; reportUrl: string }> {
  const [row] = await db()
    .insert(payoutDetailChanges)
    .values({ userId: member.id, kind: change.kind, summary: change.summary, ip: change.ip })
    .returning({ id: payoutDetailChanges.id, createdAt: payoutDetailChanges.createdAt });
  const reportUrl = signedUrl(reportPath(row!.id), REPORT_LINK_TTL_SECONDS);
  await sendMail(
    actionMail({
      to: member.email,
      subject: `Your ${env().APP_NAME} ${KIND_LABEL[change.kind]} changed`,
      greetingName: member.name,
      intro: `Your ${KIND_LABEL[change.kind]} changed on ${row!.createdAt.toUTCString()} from the address ${change.ip}. Now: ${change.summary}. If this was you, there is nothing to do.`,
      actionLabel: "This was not me: report it",
      actionUrl: reportUrl,
      outro:
        "If you did not make this change, report it with the link above (it works for 30 days): we sign every session of your account out and hold your payouts until we have checked with you.",
    }),
  );
  return { id: row!.id, reportUrl };
}

export interface ReportableChange {
  id: number;
  kind: PayoutDetailChangeKind;
  summary: string;
  createdAt: Date;
  reportedAt: Date | null;
}

/** The change a signed report link names, or null when the signature is bad or expired or the change is gone. */
export async function changeForReport(changeId: number, url: string): Promise<ReportableChange | null> {
  if (!hasValidSignature(url)) return null;
  const [row] = await db()
    .select({
      id: payoutDetailChanges.id,
      kind: payoutDetailChanges.kind,
      summary: payoutDetailChanges.summary,
      createdAt: payoutDetailChanges.createdAt,
      reportedAt: payoutDetailChanges.reportedAt,
    })
    .from(payoutDetailChanges)
    .where(eq(payoutDetailChanges.id, changeId));
  return row ?? null;
}

/**
 * Records the report once (a second click changes nothing), signs every session of the member out and
 * notifies the administrators. Returns null when the link is not valid.
 */
export async function reportPayoutDetailChange(changeId: number, url: string): Promise<{ firstReport: boolean } | null> {
  if (!(await changeForReport(changeId, url))) return null;
  const [reported] = await db()
    .update(payoutDetailChanges)
    .set({ reportedAt: new Date() })
    .where(and(eq(payoutDetailChanges.id, changeId), isNull(payoutDetailChanges.reportedAt)))
    .returning({ userId: payoutDetailChanges.userId, kind: payoutDetailChanges.kind, summary: payoutDetailChanges.summary });
  if (!reported) return { firstReport: false };
  await revokeUserSessions(reported.userId);
  const [member] = await db().select({ name: users.name, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, reported.userId));
  try {
    await notifyAdmins({
      type: "PayoutChangeReported",
      color: "red",
      message: `${member ? `${member.name} ${member.lastName} (${member.email})` : `Member #${reported.userId}`} reports a change of their ${KIND_LABEL[reported.kind]} they did not make: ${reported.summary}. Hold their payouts and contact them.`,
      routeName: "admin-payment-accounts",
      resourceId: reported.userId,
    });
  } catch (error) {
    // The report is recorded and the sessions are ended; a failed live push must not hide that from the member.
    console.error(JSON.stringify({ level: "error", message: "payout change report: notifying admins failed", error: String(error) }));
  }
  return { firstReport: true };
}
