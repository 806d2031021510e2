/** The HTTP API, called through the real `pusher` SDK (and by hand where the SDK refuses to send). */
import crypto from "node:crypto";
import type PusherServer from "pusher";
import { afterEach, describe, expect, it } from "vitest";
import { APP, RawClient, cleanup, sdk, startNode } from "./helpers";
import type { RealtimeServer } from "../src/server";

afterEach(cleanup);

/** Status and body of a rejected SDK call. */
async function failure(p: Promise<unknown>): Promise<{ status: number; body: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { status: number; body: string };
    return { status: e.status, body: e.body };
  }
  throw new Error("expected the request to fail");
}

/** The SDK's raw POST (it JSON-encodes the body itself, whatever its typings say). */
function post(api: PusherServer, path: string, body: object): ReturnType<PusherServer["post"]> {
  return api.post({ path, body: body as unknown as string });
}

/** A request signed by hand, so the timestamp can be chosen. */
async function signedFetch(server: RealtimeServer, method: string, path: string, body: string, ts: number) {
  const params: Record<string, string> = { auth_key: APP.key, auth_timestamp: String(ts), auth_version: "1.0" };
  if (body) params.body_md5 = crypto.createHash("md5").update(body).digest("hex");
  const query = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  const sig = crypto.createHmac("sha256", APP.secret).update(`${method}\n${path}\n${query}`).digest("hex");
  return fetch(`${server.url}${path}?${query}&auth_signature=${sig}`, {
    method,
    body: body || undefined,
    headers: body ? { "content-type": "application/json" } : {},
  });
}

describe("POST events", () => {
  it("publishes to several channels and answers {}", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    await c.subscribe("a");
    await c.subscribe("b");
    const res = await sdk(server).trigger(["a", "b"], "ev", { x: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await c.nextEvent("ev", "a")).toMatchObject({ data: { x: 1 } });
    expect(await c.nextEvent("ev", "b")).toMatchObject({ data: { x: 1 } });
  });

  it("returns channel info when asked", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribePresence("presence-p", "1");
    await b.subscribePresence("presence-p", "2");
    const res = await sdk(server).trigger("presence-p", "ev", {}, { info: "user_count,subscription_count" });
    expect(await res.json()).toEqual({ channels: { "presence-p": { user_count: 2, subscription_count: 2 } } });
  });

  it("refuses data over 10 KB with 413 and accepts exactly 10 KB", async () => {
    const server = await startNode();
    const api = sdk(server);
    expect((await api.trigger("a", "ev", "x".repeat(10 * 1024))).status).toBe(200);
    expect((await failure(api.trigger("a", "ev", "x".repeat(10 * 1024 + 1)))).status).toBe(413);
  });

  it("refuses more than 100 channels, bad names, bad socket ids and missing fields with 400", async () => {
    const server = await startNode();
    const api = sdk(server);
    const many = Array.from({ length: 101 }, (_, i) => `c${i}`);
    expect((await failure(post(api, "/events", { name: "e", data: "{}", channels: many }))).status).toBe(400);
    expect((await post(api, "/events", { name: "e", data: "{}", channels: many.slice(0, 100) })).status).toBe(200);
    expect((await failure(post(api, "/events", { name: "e", data: "{}", channels: ["bad name"] }))).status).toBe(400);
    expect((await failure(post(api, "/events", { name: "e", data: "{}", channels: ["a"], socket_id: "x" }))).status).toBe(400);
    expect((await failure(post(api, "/events", { data: "{}", channels: ["a"] }))).status).toBe(400);
    expect((await failure(api.trigger("presence-a", "pusher_internal:member_added", { user_id: "x" }))).status).toBe(400);
    expect((await failure(post(api, "/events", { name: "e", data: "{}", channels: ["private-encrypted-a", "b"] }))).status).toBe(400);
  });
});

describe("POST batch_events", () => {
  it("publishes up to 10 events and refuses 11", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    await c.subscribe("batch");
    const api = sdk(server);
    const batch = Array.from({ length: 10 }, (_, i) => ({ channel: "batch", name: "ev", data: { i } }));
    expect((await api.triggerBatch(batch)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await c.nextEvent("ev", "batch")).data).toEqual({ i });
    const eleven = Array.from({ length: 11 }, () => ({ channel: "batch", name: "ev", data: "{}" }));
    expect((await failure(post(api, "/batch_events", { batch: eleven }))).status).toBe(400);
    const big = [{ channel: "batch", name: "ev", data: "x".repeat(10 * 1024 + 1) }];
    expect((await failure(post(api, "/batch_events", { batch: big }))).status).toBe(413);
  });

  it("returns per-event info when asked", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    await c.subscribe("x");
    const res = await sdk(server).triggerBatch([
      { channel: "x", name: "ev", data: "{}", info: "subscription_count" },
      { channel: "y", name: "ev", data: "{}" },
    ]);
    expect(await res.json()).toEqual({ batch: [{ subscription_count: 1 }, {}] });
  });
});

describe("signatures", () => {
  it("refuses a wrong secret, a wrong key and an unknown app", async () => {
    const server = await startNode();
    expect((await failure(sdk(server, { secret: "wrong-secret" }).trigger("a", "e", {}))).status).toBe(401);
    expect((await failure(sdk(server, { key: "wrong-key" }).trigger("a", "e", {}))).status).toBe(401);
    const res = await fetch(`${server.url}/apps/other-app/events`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });

  it("refuses timestamps more than 600 s off", async () => {
    const server = await startNode();
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ name: "e", data: "{}", channels: ["a"] });
    expect((await signedFetch(server, "POST", `/apps/${APP.appId}/events`, body, now - 30)).status).toBe(200);
    expect((await signedFetch(server, "POST", `/apps/${APP.appId}/events`, body, now - 700)).status).toBe(401);
    expect((await signedFetch(server, "POST", `/apps/${APP.appId}/events`, body, now + 700)).status).toBe(401);
    expect((await signedFetch(server, "GET", `/apps/${APP.appId}/channels`, "", now - 700)).status).toBe(401);
  });

  it("refuses a body that does not match body_md5", async () => {
    const server = await startNode();
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ name: "e", data: "{}", channels: ["a"] });
    const md5 = crypto.createHash("md5").update(body).digest("hex");
    const query = `auth_key=${APP.key}&auth_timestamp=${now}&auth_version=1.0&body_md5=${md5}`;
    const sig = crypto.createHmac("sha256", APP.secret).update(`POST\n/apps/${APP.appId}/events\n${query}`).digest("hex");
    const res = await fetch(`${server.url}/apps/${APP.appId}/events?${query}&auth_signature=${sig}`, {
      method: "POST",
      body: body.replace('"e"', '"f"'),
    });
    expect(res.status).toBe(401);
  });
});

describe("channel queries", () => {
  it("lists occupied channels, by prefix, with user_count for presence", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribe("public-1");
    await a.subscribePrivate("private-2");
    await a.subscribePresence("presence-3", "u1");
    await b.subscribePresence("presence-3", "u1");
    await b.subscribePresence("presence-4", "u2");
    const api = sdk(server);
    const all = await (await api.get({ path: "/channels" })).json();
    expect(all).toEqual({ channels: { "public-1": {}, "private-2": {}, "presence-3": {}, "presence-4": {} } });
    const presence = await (await api.get({ path: "/channels", params: { filter_by_prefix: "presence-", info: "user_count" } })).json();
    expect(presence).toEqual({ channels: { "presence-3": { user_count: 1 }, "presence-4": { user_count: 1 } } });
    expect((await failure(api.get({ path: "/channels", params: { info: "user_count" } }))).status).toBe(400);
  });

  it("describes one channel, always with occupied", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribePresence("presence-room", "u1");
    await b.subscribePresence("presence-room", "u1");
    await a.subscribe("plain");
    const api = sdk(server);
    const room = await (await api.get({ path: "/channels/presence-room", params: { info: "user_count,subscription_count" } })).json();
    expect(room).toEqual({ occupied: true, user_count: 1, subscription_count: 2 });
    expect(await (await api.get({ path: "/channels/plain", params: { info: "subscription_count" } })).json()).toEqual({
      occupied: true,
      subscription_count: 1,
    });
    expect(await (await api.get({ path: "/channels/empty" })).json()).toEqual({ occupied: false });
    expect((await failure(api.get({ path: "/channels/plain", params: { info: "user_count" } }))).status).toBe(400);
  });

  it("lists presence users, and answers 400 for other channels", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    await a.subscribePresence("presence-room", "u1");
    await a.subscribePresence("presence-room", "u1");
    const b = await RawClient.connect(server);
    await b.subscribePresence("presence-room", "u2");
    const api = sdk(server);
    const users = await (await api.get({ path: "/channels/presence-room/users" })).json();
    expect(users.users.map((u: { id: string }) => u.id).sort()).toEqual(["u1", "u2"]);
    expect((await failure(api.get({ path: "/channels/private-x/users" }))).status).toBe(400);
  });

  it("forgets channels when their last subscriber leaves", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    await a.subscribePresence("presence-gone", "u1");
    await a.subscribe("gone");
    await a.close();
    const api = sdk(server);
    // The close is processed asynchronously on the server: poll the API (bounded) rather than sleep.
    for (let i = 0; i < 100; i++) {
      const body = await (await api.get({ path: "/channels" })).json();
      if (Object.keys(body.channels).length === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await (await api.get({ path: "/channels" })).json()).toEqual({ channels: {} });
    expect(await (await api.get({ path: "/channels/presence-gone/users" })).json()).toEqual({ users: [] });
  });

  it("answers a health check without a signature", async () => {
    const server = await startNode();
    const res = await fetch(`${server.url}/up`);
    expect(await res.json()).toMatchObject({ status: "ok", connections: 0 });
  });
});
