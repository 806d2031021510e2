import type { NotificationColor } from "~/db/schema";
import { notifyMember } from "~/modules/notifications/notifications.server";

/**
 * Marketplace notifications: the same helper payouts use (a stored notification and a realtime publish on
 * the member's private channel), sent after the change has committed. `to` skips the acting member.
 */
export async function notifyParties(
  to: Array<number | null | undefined>,
  actorId: number,
  input: { type: string; message: string; color?: NotificationColor; routeName: string; resourceId: number; routeHash?: string | null },
): Promise<void> {
  for (const userId of new Set(to)) {
    if (!userId || userId === actorId) continue;
    await notifyMember(userId, { color: "blue", ...input });
  }
}

export const WORK_REQUEST_ROUTE = "member-work-request";
export const ESTIMATE_ROUTE = "member-work-request-estimate";
export const PROJECT_ROUTE = "member-project";
