import type { z } from "zod";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import type { AnnouncementSchema } from "./announcement-schema";
import { notifyAllMembers, notifyMember, type SendOptions } from "./notifications.server";

export class UnknownMemberError extends Error {
  constructor() {
    super("No member has this email address.");
  }
}

/** An announcement from the administrators: a notification to every member, or to one. */
export async function sendAnnouncement(input: z.infer<typeof AnnouncementSchema>, options: SendOptions = {}): Promise<number> {
  const notification = { type: "Announcement", message: input.message, color: input.color, routeName: "member-dashboard" };
  if (input.audience === "all") return notifyAllMembers(notification, options);
  const member = await findUserByEmail(input.email ?? "");
  if (!member || member.suspendedAt) throw new UnknownMemberError();
  await notifyMember(member.id, notification, options);
  return 1;
}
