import { and, desc, eq, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { publish } from "~/modules/notifications/broadcaster.server";
import { marketplaceMessages, projects, users, workRequests, type MarketplaceMessage } from "~/db/schema";
import { participantOrAdmin, validId, type MarketplaceActor } from "./access.server";
import { MarketplaceError, NO_PROJECT, NO_WORK_REQUEST } from "./marketplace-errors";
import { LIMITS } from "./marketplace-rules";
import { notifyParties, PROJECT_ROUTE, WORK_REQUEST_ROUTE } from "./notify.server";
import { cleanText } from "./work-requests.server";
import { THREAD_EVENT, threadChannel, type ThreadMessage } from "./messages/message-thread";

/**
 * The message thread of a work request, continued by its project. Text and links, stored as plain
 * text exactly as written (control characters dropped, length-limited); pages render it escaped (React text),
 * never as HTML. The client, the provider's owner and administrators may read and write; others get 404.
 */

export type MessageTarget = { workRequestId: number } | { projectId: number };

async function threadOf(actor: MarketplaceActor, target: MessageTarget) {
  if ("projectId" in target) {
    const [row] = validId(target.projectId)
      ? await db()
          .select({ workRequestId: projects.workRequestId, projectId: projects.id, clientId: projects.clientId, providerOwnerId: projects.providerOwnerId })
          .from(projects)
          .where(and(eq(projects.id, target.projectId), participantOrAdmin(projects, actor)))
      : [];
    if (!row) throw new MarketplaceError(404, NO_PROJECT);
    return row;
  }
  const [row] = validId(target.workRequestId)
    ? await db()
        .select({ workRequestId: workRequests.id, clientId: workRequests.clientId, providerOwnerId: workRequests.providerOwnerId })
        .from(workRequests)
        .where(and(eq(workRequests.id, target.workRequestId), participantOrAdmin(workRequests, actor)))
    : [];
  if (!row) throw new MarketplaceError(404, NO_WORK_REQUEST);
  return { ...row, projectId: null };
}

export function messageBody(value: unknown): string {
  const body = cleanText(value);
  if (body.length === 0) throw new MarketplaceError(400, "Write a message.", "body");
  if (body.length > LIMITS.messageMax) throw new MarketplaceError(400, `A message is at most ${LIMITS.messageMax} characters.`, "body");
  return body;
}

/**
 * Posts a message to the thread, sends it to whoever has the thread open (its private realtime channel) and
 * notifies the other side. Two statements (the check, the insert).
 */
export async function postMessage(actor: MarketplaceActor, target: MessageTarget, body: unknown, now = new Date()): Promise<MarketplaceMessage> {
  const text = messageBody(body);
  const thread = await threadOf(actor, target);
  const [row] = await db()
    .insert(marketplaceMessages)
    .values({ workRequestId: thread.workRequestId, projectId: thread.projectId, senderId: actor.id, body: text, createdAt: now })
    .returning();
  const live: ThreadMessage = { id: row!.id, body: row!.body, senderId: actor.id, senderName: actor.name, createdAt: row!.createdAt.toISOString() };
  await publish([`private-${threadChannel(thread.workRequestId)}`], THREAD_EVENT, { ...live });
  await notifyParties([thread.clientId, thread.providerOwnerId], actor.id, {
    type: "MarketplaceMessage",
    message: `New message from ${actor.name} on ${thread.projectId ? `project #${thread.projectId}` : `work request #${thread.workRequestId}`}.`,
    routeName: thread.projectId ? PROJECT_ROUTE : WORK_REQUEST_ROUTE,
    resourceId: thread.projectId ?? thread.workRequestId,
    routeHash: "messages",
  });
  return row!;
}

const THREAD_CHANNEL = /^private-marketplace-thread\.([1-9][0-9]{0,9})$/;

/** Whether `actor` may listen on a thread's private channel: the same people who may read the thread. */
export async function mayJoinThreadChannel(actor: MarketplaceActor, channel: string): Promise<boolean> {
  const id = Number(THREAD_CHANNEL.exec(channel)?.[1]);
  if (!validId(id)) return false;
  const [row] = await db()
    .select({ id: workRequests.id })
    .from(workRequests)
    .where(and(eq(workRequests.id, id), participantOrAdmin(workRequests, actor)));
  return Boolean(row);
}

export interface MessageView {
  id: number;
  body: string;
  senderId: number | null;
  senderName: string | null;
  projectId: number | null;
  createdAt: Date;
}

export const THREAD_PAGE = 100;

/** The thread, oldest first: the newest 100 messages, or the 100 before `beforeId`. Two statements. */
export async function listMessages(actor: MarketplaceActor, target: MessageTarget, beforeId?: number): Promise<MessageView[]> {
  const thread = await threadOf(actor, target);
  const rows = await db()
    .select({
      id: marketplaceMessages.id,
      body: marketplaceMessages.body,
      senderId: marketplaceMessages.senderId,
      senderName: users.name,
      projectId: marketplaceMessages.projectId,
      createdAt: marketplaceMessages.createdAt,
    })
    .from(marketplaceMessages)
    .leftJoin(users, eq(users.id, marketplaceMessages.senderId))
    .where(
      and(
        eq(marketplaceMessages.workRequestId, thread.workRequestId),
        beforeId && Number.isSafeInteger(beforeId) ? lt(marketplaceMessages.id, beforeId) : undefined,
      ),
    )
    .orderBy(desc(marketplaceMessages.id))
    .limit(THREAD_PAGE);
  return rows.reverse();
}
