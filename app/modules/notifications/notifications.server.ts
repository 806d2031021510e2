import { and, desc, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { notifications, users, type NotificationColor, type NotificationData } from "~/db/schema";
import { ADMIN_CHANNEL, ADMIN_EVENT, MEMBER_EVENT, memberChannel, publish } from "./broadcaster.server";

/** How a notification looks to clients: id, type.name, data.*. */
export interface NotificationView {
  id: string;
  type: { name: string };
  data: NotificationData;
  created_at: string;
}

export interface NotificationList {
  data: NotificationView[];
  meta: { total: number };
}

export interface NewNotification {
  type: string;
  message: string;
  color?: NotificationColor;
  routeName?: string | null;
  resourceId?: string | number | null;
  routeHash?: string | null;
}

/** The options every sender may pass: the socket to skip (the request's X-Socket-Id). */
export interface SendOptions {
  socketId?: string;
}

const LIST_LIMIT = 30;

function toData(input: NewNotification): NotificationData {
  return {
    message: input.message.slice(0, 500),
    color: input.color ?? "gray",
    route_name: input.routeName ?? null,
    resource_id: input.resourceId ?? null,
    route_hash: input.routeHash ?? null,
  };
}

function toView(row: typeof notifications.$inferSelect): NotificationView {
  return { id: row.id, type: { name: row.type }, data: row.data, created_at: row.createdAt.toISOString() };
}

/** Stores a notification for one member and tells their open pages. */
export async function notifyMember(userId: number, input: NewNotification, options: SendOptions = {}): Promise<NotificationView> {
  const [row] = await db()
    .insert(notifications)
    .values({ audience: "member", userId, type: input.type, data: toData(input) })
    .returning();
  await publish([memberChannel(userId)], MEMBER_EVENT, { id: row!.id, type: input.type }, options);
  return toView(row!);
}

/**
 * Stores one notification per active member in a single statement (no per-member round trips) and
 * publishes in batches of 100 channels. Returns how many members it reached.
 */
export async function notifyAllMembers(input: NewNotification, options: SendOptions = {}): Promise<number> {
  const data = toData(input);
  const rows = await db()
    .insert(notifications)
    .select(
      db()
        .select({
          id: sql`gen_random_uuid()`.as("id"),
          audience: sql`'member'`.as("audience"),
          userId: users.id,
          type: sql`${input.type}`.as("type"),
          data: sql`${JSON.stringify(data)}::jsonb`.as("data"),
          createdAt: sql`now()`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.acctType, 1), sql`${users.suspendedAt} is null`, sql`${users.activatedAt} is not null`)),
    )
    .returning({ userId: notifications.userId });
  const ids = rows.map((r) => r.userId!).filter(Boolean);
  await publish(ids.map(memberChannel), MEMBER_EVENT, { type: input.type }, options);
  return ids.length;
}

/** Stores a notification in the administrators' shared list and tells every admin page. */
export async function notifyAdmins(input: NewNotification, options: SendOptions = {}): Promise<NotificationView> {
  const [row] = await db()
    .insert(notifications)
    .values({ audience: "admin", type: input.type, data: toData(input) })
    .returning();
  await publish([ADMIN_CHANNEL], ADMIN_EVENT, { id: row!.id, type: input.type }, options);
  return toView(row!);
}

/** The newest notifications and the total (the bell's badge), in one query. */
async function list(where: ReturnType<typeof eq>): Promise<NotificationList> {
  const rows = await db()
    .select({ row: notifications, total: sql<number>`count(*) over ()::int` })
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIST_LIMIT);
  return { data: rows.map((r) => toView(r.row)), meta: { total: rows[0]?.total ?? 0 } };
}

export function memberNotifications(userId: number): Promise<NotificationList> {
  return list(and(eq(notifications.audience, "member"), eq(notifications.userId, userId))!);
}

export function adminNotifications(): Promise<NotificationList> {
  return list(eq(notifications.audience, "admin"));
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/*
 * Deleting also tells the other open pages of the same list (other tabs, the other administrators),
 * skipping the socket that asked.
 */

/** Deletes one of this member's notifications; null when it is not theirs (or does not exist). */
export async function deleteMemberNotification(userId: number, id: string, options: SendOptions = {}): Promise<NotificationView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db()
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.audience, "member"), eq(notifications.userId, userId)))
    .returning();
  if (row) await publish([memberChannel(userId)], MEMBER_EVENT, { deleted: [id] }, options);
  return row ? toView(row) : null;
}

export async function deleteAllMemberNotifications(userId: number, options: SendOptions = {}): Promise<number> {
  const rows = await db()
    .delete(notifications)
    .where(and(eq(notifications.audience, "member"), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (rows.length) await publish([memberChannel(userId)], MEMBER_EVENT, { deleted: "all" }, options);
  return rows.length;
}

export async function deleteAdminNotification(id: string, options: SendOptions = {}): Promise<NotificationView | null> {
  if (!isUuid(id)) return null;
  const [row] = await db()
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.audience, "admin")))
    .returning();
  if (row) await publish([ADMIN_CHANNEL], ADMIN_EVENT, { deleted: [id] }, options);
  return row ? toView(row) : null;
}

export async function deleteAllAdminNotifications(options: SendOptions = {}): Promise<number> {
  const rows = await db().delete(notifications).where(eq(notifications.audience, "admin")).returning({ id: notifications.id });
  if (rows.length) await publish([ADMIN_CHANNEL], ADMIN_EVENT, { deleted: "all" }, options);
  return rows.length;
}
