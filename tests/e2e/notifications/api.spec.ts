import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { NOTIFY, NOTIFY_PASSWORD } from "../support/notification-accounts";
import { expect, test } from "../support/test";
import { ADMIN_CHANNEL, announce, memberChannel, memberList, signedIn, uniqueMessage } from "./helpers";

/**
 * Channel authorisation (POST /broadcasting/auth, app/modules/notifications/channel-auth.server.ts) and
 * the notifications JSON API (app/routes/api.members.$id.notifications*.ts, api.notifications-admin*.ts).
 */

const SOCKET_ID = "123.456";

async function channelAuth(api: APIRequestContext, channel: string, socketId = SOCKET_ID) {
  const response = await api.post("/broadcasting/auth", { form: { socket_id: socketId, channel_name: channel } });
  return { status: response.status(), body: await response.json().catch(() => null) };
}

async function expectJsonError(response: { status(): number; json(): Promise<unknown> }, status: number, message: string) {
  expect(response.status()).toBe(status);
  expect(await response.json()).toEqual({ message, errors: message });
}

test.describe("POST /broadcasting/auth", () => {
  test("without a session: 401", async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL });
    expect(await channelAuth(anonymous, memberChannel(DEMO_IDS.member))).toEqual({
      status: 401,
      body: { message: "Unauthenticated.", errors: "Unauthenticated." },
    });
    expect((await channelAuth(anonymous, ADMIN_CHANNEL)).status).toBe(401);
    await anonymous.dispose();
  });

  test("a member: their own channel only; an administrator: the admin channel", async () => {
    const member = await signedIn(DEMO.member, DEMO_PASSWORD);
    const own = await channelAuth(member.api, memberChannel(DEMO_IDS.member));
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ auth: expect.stringMatching(/^[^:]+:[0-9a-f]{64}$/) });
    // Signed for this socket and channel: another socket gets another signature.
    const otherSocket = await channelAuth(member.api, memberChannel(DEMO_IDS.member), "123.457");
    expect(otherSocket.body.auth).not.toBe(own.body.auth);

    const forbidden = { status: 403, body: { message: "This action is unauthorized.", errors: "This action is unauthorized." } };
    expect(await channelAuth(member.api, memberChannel(DEMO_IDS.admin))).toEqual(forbidden);
    expect(await channelAuth(member.api, memberChannel(DEMO_IDS.newcomer))).toEqual(forbidden);
    expect(await channelAuth(member.api, ADMIN_CHANNEL)).toEqual(forbidden);
    expect(await channelAuth(member.api, `${memberChannel(DEMO_IDS.member)}0`)).toEqual(forbidden);
    expect((await channelAuth(member.api, memberChannel(DEMO_IDS.member), "not-a-socket")).status).toBe(422);
    await member.api.dispose();

    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    const adminChannel = await channelAuth(admin.api, ADMIN_CHANNEL);
    expect(adminChannel.status).toBe(200);
    expect(adminChannel.body).toEqual({ auth: expect.stringMatching(/^[^:]+:[0-9a-f]{64}$/) });
    expect((await channelAuth(admin.api, memberChannel(DEMO_IDS.admin))).status).toBe(200);
    // Not other members' channels, even for an administrator.
    expect((await channelAuth(admin.api, memberChannel(DEMO_IDS.member))).status).toBe(403);
    await admin.api.dispose();
  });
});

test.describe("the notifications API", () => {
  test("without a session: 401", async () => {
    const anonymous = await playwrightRequest.newContext({ baseURL: process.env.E2E_BASE_URL });
    await expectJsonError(await anonymous.get(`/api/members/${DEMO_IDS.member}/notifications`), 401, "Unauthenticated.");
    await expectJsonError(await anonymous.get("/api/notifications-admin"), 401, "Unauthenticated.");
    await expectJsonError(await anonymous.delete(`/api/members/${DEMO_IDS.member}/notifications/all`), 401, "Unauthenticated.");
    await anonymous.dispose();
  });

  test("member 2 reads their own list; someone else's is 404; the admins' list is 403", async () => {
    const member = await signedIn(DEMO.member, DEMO_PASSWORD);
    const own = await member.api.get(`/api/members/${DEMO_IDS.member}/notifications`);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toMatch(/^application\/json/);
    const body = await own.json();
    expect(Object.keys(body).sort()).toEqual(["data", "meta"]);
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.meta.total).toEqual(expect.any(Number));
    expect(body.meta.total).toBeGreaterThanOrEqual(body.data.length);

    await expectJsonError(await member.api.get(`/api/members/${DEMO_IDS.admin}/notifications`), 404, "Not found.");
    await expectJsonError(await member.api.get("/api/notifications-admin"), 403, "This action is unauthorized.");
    await expectJsonError(await member.api.delete("/api/notifications-admin/all"), 403, "This action is unauthorized.");
    await member.api.dispose();

    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    const adminList = await admin.api.get("/api/notifications-admin");
    expect(adminList.status()).toBe(200);
    expect(await adminList.json()).toEqual({ data: expect.any(Array), meta: { total: expect.any(Number) } });
    await admin.api.dispose();
  });

  test("a member's list has the spec's shape; DELETE one, then all; never someone else's", async () => {
    const admin = await signedIn(DEMO.admin, DEMO_PASSWORD);
    const messages = [uniqueMessage("Api one"), uniqueMessage("Api two"), uniqueMessage("Api three")];
    await announce(admin.api, NOTIFY.api, messages[0]!, "orange");
    await announce(admin.api, NOTIFY.api, messages[1]!);
    await announce(admin.api, NOTIFY.api, messages[2]!);
    await admin.api.dispose();

    const member = await signedIn(NOTIFY.api, NOTIFY_PASSWORD);
    const id = member.id;
    const list = await memberList(member.api, id);
    expect(list.meta.total).toBe(3);
    expect(list.data.map((n) => n.data.message)).toEqual([messages[2], messages[1], messages[0]]);
    expect(list.data[2]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      type: { name: "Announcement" },
      data: { message: messages[0], color: "orange", route_name: "member-dashboard", resource_id: null, route_hash: null },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });

    // Someone else's notification id, or someone else's path: 404, nothing deleted.
    const demo = await signedIn(DEMO.member, DEMO_PASSWORD);
    await expectJsonError(await demo.api.delete(`/api/members/${DEMO_IDS.member}/notifications/${list.data[0]!.id}`), 404, "Not found.");
    await expectJsonError(await demo.api.delete(`/api/members/${id}/notifications/${list.data[0]!.id}`), 404, "Not found.");
    await expectJsonError(await demo.api.delete(`/api/members/${id}/notifications/all`), 404, "Not found.");
    await demo.api.dispose();
    expect((await memberList(member.api, id)).meta.total).toBe(3);

    const one = await member.api.delete(`/api/members/${id}/notifications/${list.data[1]!.id}`);
    expect(one.status()).toBe(200);
    expect(await one.json()).toEqual({ deleted: 1 });
    await expectJsonError(await member.api.delete(`/api/members/${id}/notifications/${list.data[1]!.id}`), 404, "Not found.");
    await expectJsonError(await member.api.delete(`/api/members/${id}/notifications/not-a-uuid`), 404, "Not found.");
    expect((await memberList(member.api, id)).data.map((n) => n.data.message)).toEqual([messages[2], messages[0]]);
    // Only DELETE.
    expect((await member.api.post(`/api/members/${id}/notifications/all`)).status()).toBe(405);
    expect((await memberList(member.api, id)).meta.total).toBe(2);

    const all = await member.api.delete(`/api/members/${id}/notifications/all`);
    expect(all.status()).toBe(200);
    expect(await all.json()).toEqual({ deleted: 2 });
    expect(await memberList(member.api, id)).toEqual({ data: [], meta: { total: 0 } });
    expect(await (await member.api.delete(`/api/members/${id}/notifications/all`)).json()).toEqual({ deleted: 0 });
    await member.api.dispose();
  });
});
