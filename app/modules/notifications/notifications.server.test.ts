import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { nextEvent, startRealtime, subscribed } from "../../../tests/helpers/realtime";
import { contextFor, sessionCookieFor } from "../../../tests/helpers/requests";
import { authenticateUserRequest, authorizeChannelRequest } from "./channel-auth.server";
import {
  adminNotifications,
  deleteAdminNotification,
  deleteAllMemberNotifications,
  deleteMemberNotification,
  memberNotifications,
  notifyAdmins,
  notifyAllMembers,
  notifyMember,
} from "./notifications.server";
import { handleNotificationAction } from "./notification-actions.server";

/** Calls a broadcasting handler with the request context the root middleware would give it. */
const withContext = (handler: (request: Request, context: Awaited<ReturnType<typeof contextFor>>) => Promise<Response>) => async (request: Request) =>
  handler(request, await contextFor(request));

useTestDatabase();
let realtime: Awaited<ReturnType<typeof startRealtime>>;

beforeAll(async () => {
  realtime = await startRealtime();
});
afterAll(() => realtime.close());

/** The app's own /broadcasting/auth, called as a browser with that session would. */
function authAs(cookie: string) {
  return async (socketId: string, channel: string) => {
    const response = await withContext(authorizeChannelRequest)(
      new Request("http://localhost:3999/broadcasting/auth", {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ socket_id: socketId, channel_name: channel }),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
}

describe("channel authorisation", () => {
  it("lets a member join only their own channel, and an admin also the admin channel", async () => {
    const member = await createUser();
    const other = await createUser();
    const admin = await createUser({ acctType: 2, roleId: 2 });
    const asMember = realtime.client(authAs(await sessionCookieFor(member.id)));
    const asAdmin = realtime.client(authAs(await sessionCookieFor(admin.id)));
    expect(await subscribed(asMember, `private-member-notifications.${member.id}`)).toBe("ok");
    expect(await subscribed(asMember, `private-member-notifications.${other.id}`)).toMatchObject({ error: expect.anything() });
    expect(await subscribed(asMember, "private-admin-notifications")).toMatchObject({ error: expect.anything() });
    expect(await subscribed(asAdmin, "private-admin-notifications")).toBe("ok");
    expect(await subscribed(asAdmin, `private-member-notifications.${member.id}`)).toMatchObject({ error: expect.anything() });
  });

  it("answers 401 without a session and 422 without a socket id", async () => {
    const anonymous = await withContext(authorizeChannelRequest)(
      new Request("http://x/broadcasting/auth", { method: "POST", body: new URLSearchParams({ socket_id: "1.1", channel_name: "private-x" }) }),
    );
    expect(anonymous.status).toBe(401);
    const user = await createUser();
    const bad = await withContext(authorizeChannelRequest)(
      new Request("http://x/broadcasting/auth", {
        method: "POST",
        headers: { Cookie: await sessionCookieFor(user.id) },
        body: new URLSearchParams({ socket_id: "abc", channel_name: `private-member-notifications.${user.id}` }),
      }),
    );
    expect(bad.status).toBe(422);
  });

  it.each(["null", "42", "[1,2]", '"text"', "{not json"])("answers 422, not 500, to the JSON body %s", async (body) => {
    const user = await createUser();
    const cookie = await sessionCookieFor(user.id);
    for (const handler of [withContext(authorizeChannelRequest), withContext(authenticateUserRequest)]) {
      const response = await handler(
        new Request("http://x/broadcasting/auth", { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body }),
      );
      expect(response.status).toBe(422);
    }
  });

  it("accepts the session token as a bearer header", async () => {
    const user = await createUser();
    const token = (await sessionCookieFor(user.id)).split("=")[1]!;
    const response = await withContext(authorizeChannelRequest)(
      new Request("http://x/api/broadcasting/auth", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body: new URLSearchParams({ socket_id: "123.456", channel_name: `private-member-notifications.${user.id}` }),
      }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { auth: string }).auth).toMatch(/^backline-key:[0-9a-f]{64}$/);
  });
});

describe("notifications", () => {
  it("stores a member's notification and delivers the event to their open page", async () => {
    const member = await createUser();
    const client = realtime.client(authAs(await sessionCookieFor(member.id)));
    const channel = `private-member-notifications.${member.id}`;
    expect(await subscribed(client, channel)).toBe("ok");
    const arrived = nextEvent(client, channel, "member.notifications");
    const sent = await notifyMember(member.id, { type: "Announcement", message: "Hello", color: "green", routeName: "member-dashboard" });
    expect(await arrived).toMatchObject({ id: sent.id, type: "Announcement" });
    const list = await memberNotifications(member.id);
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({
      id: sent.id,
      type: { name: "Announcement" },
      data: { message: "Hello", color: "green", route_name: "member-dashboard", resource_id: null, route_hash: null },
    });
  });

  it("deletes only the owner's notification, one or all", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const a = await notifyMember(owner.id, { type: "T", message: "a" });
    await notifyMember(owner.id, { type: "T", message: "b" });
    expect(await deleteMemberNotification(stranger.id, a.id)).toBeNull();
    expect(await deleteMemberNotification(owner.id, "not-a-uuid")).toBeNull();
    expect((await deleteMemberNotification(owner.id, a.id))?.id).toBe(a.id);
    expect((await memberNotifications(owner.id)).meta.total).toBe(1);
    expect(await deleteAllMemberNotifications(owner.id)).toBe(1);
    expect((await memberNotifications(owner.id)).meta.total).toBe(0);
  });

  it("an announcement reaches every active member, and no one else", async () => {
    const active = await createUser();
    const suspended = await createUser({ suspendedAt: new Date() });
    const pending = await createUser({ activatedAt: null });
    const admin = await createUser({ acctType: 2, roleId: 2 });
    const reached = await notifyAllMembers({ type: "Announcement", message: "Maintenance tonight" });
    expect(reached).toBeGreaterThanOrEqual(1);
    expect((await memberNotifications(active.id)).data[0]?.data.message).toBe("Maintenance tonight");
    for (const user of [suspended, pending, admin]) expect((await memberNotifications(user.id)).meta.total).toBe(0);
  });

  it("keeps the administrators' list apart and publishes to the admin channel", async () => {
    const admin = await createUser({ acctType: 2, roleId: 1 });
    const member = await createUser();
    const client = realtime.client(authAs(await sessionCookieFor(admin.id)));
    expect(await subscribed(client, "private-admin-notifications")).toBe("ok");
    const arrived = nextEvent(client, "private-admin-notifications", "admin.notifications");
    const sent = await notifyAdmins({ type: "ContactMessage", message: "New message", routeName: "admin-member", resourceId: member.id });
    expect(await arrived).toMatchObject({ id: sent.id });
    expect((await memberNotifications(member.id)).data.map((n) => n.id)).not.toContain(sent.id);
    expect((await adminNotifications()).data.map((n) => n.id)).toContain(sent.id);
    expect((await deleteAdminNotification(sent.id))?.id).toBe(sent.id);
  });
});

describe("the bell's form action", () => {
  const post = (fields: Record<string, string>) =>
    new Request("http://localhost:3999/member/1/notifications", { method: "POST", body: new URLSearchParams(fields) });

  it("open: deletes and goes to the named route with its id and hash", async () => {
    const admin = await createUser({ acctType: 2, roleId: 1 });
    const sent = await notifyAdmins({ type: "T", message: "x", routeName: "admin-member", resourceId: 42, routeHash: "access" });
    const response = await handleNotificationAction(post({ intent: "open", id: sent.id, redirectTo: "/admin/dashboard" }), {
      memberId: admin.id,
      deleteOne: deleteAdminNotification,
      deleteAll: async () => 0,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/member/42#access");
    expect((await adminNotifications()).data.map((n) => n.id)).not.toContain(sent.id);
  });

  it("a notification that is not there comes back with 'Error processing your request'", async () => {
    const response = await handleNotificationAction(post({ intent: "delete", id: crypto.randomUUID(), redirectTo: "//evil.example" }), {
      memberId: 1,
      deleteOne: async () => null,
      deleteAll: async () => 0,
    });
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toContain("backline_flash=");
  });
});
