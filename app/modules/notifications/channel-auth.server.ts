import type { RouterContextProvider } from "react-router";
import type { User } from "~/db/schema";
import { getOptionalUser, fullName } from "~/modules/accounts/current-user.server";
import { readSessionUser } from "~/modules/accounts/session-user.server";
import { isAdminAccount } from "~/modules/accounts/roles";
import { apiError } from "~/modules/api/api.server";
import { mayJoinThreadChannel } from "~/modules/marketplace/messages.server";
import { ADMIN_CHANNEL, memberChannel, pusherClient } from "./broadcaster.server";

const SOCKET_ID = /^\d+\.\d+$/;

/**
 * The user behind a broadcasting request: the session cookie (read by the root middleware), or the
 * same signed session token sent as `Authorization: Bearer …` (clients that hold no cookie). A bearer
 * header is never sent by a browser on its own, so it cannot be used for a cross-site request.
 */
export async function broadcastingUser(request: Request, context: Readonly<RouterContextProvider>): Promise<User | null> {
  const header = request.headers.get("authorization");
  if (header?.startsWith("Bearer ")) return (await readSessionUser(`backline_session=${header.slice(7).trim()}`)).user;
  return getOptionalUser(context);
}

/** Which private channels a user may join: their own member channel; admins also the admin channel. */
export function mayJoin(user: Pick<User, "id" | "acctType">, channel: string): boolean {
  if (channel === memberChannel(user.id)) return true;
  return channel === ADMIN_CHANNEL && isAdminAccount(user);
}

async function readFields(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    // Any JSON may arrive: null, a number or an array carry no fields (and must not throw).
    const body: unknown = await request.json().catch(() => null);
    if (!body || typeof body !== "object" || Array.isArray(body)) return {};
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : String(v ?? "")]));
  }
  const form = await request.formData().catch(() => new FormData());
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
}

/** POST /broadcasting/auth: `{ auth }` for a channel this user may join; 401 without a user, 403 otherwise. */
export async function authorizeChannelRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const user = await broadcastingUser(request, context);
  if (!user) return apiError(401, "Unauthenticated.");
  const fields = await readFields(request);
  const socketId = fields.socket_id ?? "";
  const channel = fields.channel_name ?? "";
  if (!SOCKET_ID.test(socketId) || !channel) return apiError(422, "socket_id and channel_name are required.");
  // A marketplace thread's channel: the thread's two parties and administrators (one statement).
  if (!mayJoin(user, channel) && !(await mayJoinThreadChannel(user, channel))) return apiError(403, "This action is unauthorized.");
  return Response.json(pusherClient().authorizeChannel(socketId, channel));
}

/** POST /broadcasting/user-auth: signs the user in on the socket (`pusher:signin`). */
export async function authenticateUserRequest(request: Request, context: Readonly<RouterContextProvider>): Promise<Response> {
  const user = await broadcastingUser(request, context);
  if (!user) return apiError(401, "Unauthenticated.");
  const socketId = (await readFields(request)).socket_id ?? "";
  if (!SOCKET_ID.test(socketId)) return apiError(422, "socket_id is required.");
  return Response.json(pusherClient().authenticateUser(socketId, { id: String(user.id), user_info: { name: fullName(user) } }));
}
