/**
 * Scale-out through Redis: two in-process nodes and one real child process share one Redis. Each test
 * uses its own key prefix, so tests never see each other's state.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import type { PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REAP, SEQ_TTL_MS } from "../src/redis-adapter";
import type { RealtimeServer } from "../src/server";
import { APP, RawClient, cleanup, client, collect, once, sdk, sign, startNode, subscribed } from "./helpers";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const skip = process.env.REALTIME_SKIP_REDIS_TESTS === "1";
const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Short liveness settings so a dead node is noticed within about two seconds (loose enough for a busy CI). */
const LIVENESS = { nodeTtlMs: 2000, heartbeatIntervalMs: 250 };

describe.skipIf(skip)("scale-out through Redis", () => {
  let redis: Redis;
  let prefix: string;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });
  beforeEach(() => {
    prefix = `rt-test-${crypto.randomBytes(4).toString("hex")}:`;
  });
  afterEach(async () => {
    await cleanup();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  });

  const node = () => startNode({ redisUrl: REDIS_URL, redisPrefix: prefix, ...LIVENESS });

  it("delivers an event published on one node to subscribers on every node", async () => {
    const [a, b] = [await node(), await node()];
    const onA = client(a);
    const onB = client(b);
    const chA = await subscribed(onA, "news");
    const chB = await subscribed(onB, "news");
    const gotA = once(chA, "flash");
    const gotB = once(chB, "flash");
    await sdk(b).trigger("news", "flash", { n: 1 });
    expect(await gotA).toEqual({ n: 1 });
    expect(await gotB).toEqual({ n: 1 });
  });

  it("skips the excluded socket on another node, and relays client events across nodes", async () => {
    const [a, b] = [await node(), await node()];
    const x = await RawClient.connect(a);
    const y = await RawClient.connect(b);
    await x.subscribePrivate("private-doc");
    await y.subscribePrivate("private-doc");
    await sdk(b).trigger("private-doc", "first", {}, { socket_id: x.socketId });
    await sdk(b).trigger("private-doc", "second", {});
    expect((await x.next((f) => f.channel === "private-doc")).event).toBe("second");
    x.send({ event: "client-cursor", channel: "private-doc", data: { at: 3 } });
    expect((await y.nextEvent("client-cursor")).data).toEqual({ at: 3 });
  });

  it("keeps one presence membership across nodes: members, events once per user, counts, API", async () => {
    const [a, b] = [await node(), await node()];
    const watcher = client(a, { userId: "w" });
    const room = (await subscribed(watcher, "presence-team")) as PresenceChannel;
    const added = collect<{ id: string }>(room, "pusher:member_added");
    const removed = collect<{ id: string }>(room, "pusher:member_removed");

    const ann1 = client(b, { userId: "ann", userInfo: { name: "Ann" } });
    const annRoom = (await subscribed(ann1, "presence-team")) as PresenceChannel;
    expect(await added.next()).toEqual({ id: "ann", info: { name: "Ann" } });
    expect(Object.keys(annRoom.members.members).sort()).toEqual(["ann", "w"]); // w lives on node A

    const ann2 = client(a, { userId: "ann", userInfo: { name: "Ann" } }); // second tab, other node
    await subscribed(ann2, "presence-team");
    const bob = client(b, { userId: "bob" });
    await subscribed(bob, "presence-team");
    expect(await added.next()).toMatchObject({ id: "bob" });
    expect(added.seen.map((m) => m.id)).toEqual(["ann", "bob"]); // the second tab added nothing

    for (const n of [a, b]) {
      const api = sdk(n);
      const users = await (await api.get({ path: "/channels/presence-team/users" })).json();
      expect(users.users.map((u: { id: string }) => u.id).sort()).toEqual(["ann", "bob", "w"]);
      const info = await (await api.get({ path: "/channels/presence-team", params: { info: "user_count,subscription_count" } })).json();
      expect(info).toEqual({ occupied: true, user_count: 3, subscription_count: 4 });
      const list = await (await api.get({ path: "/channels", params: { filter_by_prefix: "presence-", info: "user_count" } })).json();
      expect(list).toEqual({ channels: { "presence-team": { user_count: 3 } } });
    }

    ann1.disconnect(); // Ann still has a tab on node A
    bob.disconnect();
    expect(await removed.next()).toMatchObject({ id: "bob" });
    ann2.unsubscribe("presence-team");
    expect(await removed.next()).toMatchObject({ id: "ann" });
    expect(removed.seen.map((m) => m.id)).toEqual(["bob", "ann"]);
  });

  it("enforces the 100-member limit across nodes", async () => {
    // 101 clients from one address: exempt from the per-address limits by configuration (limits.test.ts tests those).
    const exempt = () => startNode({ redisUrl: REDIS_URL, redisPrefix: prefix, ...LIVENESS, exemptAddresses: ["127.0.0.1"] });
    const [a, b] = [await exempt(), await exempt()];
    const clients = await Promise.all(Array.from({ length: 100 }, (_, i) => RawClient.connect(i % 2 ? a : b)));
    const joined = await Promise.all(clients.map((c, i) => c.subscribePresence("presence-big", `u${i}`)));
    expect(joined.every((f) => f.event === "pusher_internal:subscription_succeeded")).toBe(true);
    const extra = await RawClient.connect(a);
    expect(await extra.subscribePresence("presence-big", "u100")).toMatchObject({ data: { status: 403 } });
  });

  it("terminates a user's connections on every node", async () => {
    const [a, b] = [await node(), await node()];
    const c = await RawClient.connect(a);
    const userData = JSON.stringify({ id: "9" });
    c.send({ event: "pusher:signin", data: { auth: sign(`${c.socketId}::user::${userData}`), user_data: userData } });
    await c.nextEvent("pusher:signin_success");
    await sdk(b).terminateUserConnections("9");
    expect((await c.closed).code).toBe(4009);
  });

  it("sends to a signed-in user on another node", async () => {
    const [a, b] = [await node(), await node()];
    const p = client(a, { userId: "55" });
    p.signin();
    await p.user.signinDonePromise;
    await once(p.user.serverToUserChannel!, "pusher:subscription_succeeded");
    const got = once(p.user, "ping-user");
    await sdk(b).sendToUser("55", "ping-user", { ok: true });
    expect(await got).toEqual({ ok: true });
  });

  it("removes the members of a node that dies, once, within its TTL", async () => {
    const a = await node();
    const child = await startChildNode(prefix);
    try {
      const watcher = await RawClient.connect(a);
      await watcher.subscribePresence("presence-ops", "watcher");
      const doomed = await RawClient.connect(child.server);
      await doomed.subscribePresence("presence-ops", "ghost", { name: "Ghost" });
      await doomed.subscribe("only-on-child");
      expect(await watcher.nextEvent("pusher_internal:member_added", "presence-ops")).toMatchObject({
        data: { user_id: "ghost", user_info: { name: "Ghost" } },
      });
      const api = sdk(a);
      expect((await (await api.get({ path: "/channels" })).json()).channels).toHaveProperty("only-on-child");

      const killedAt = Date.now();
      child.process.kill("SIGKILL");
      const gone = await watcher.nextEvent("pusher_internal:member_removed", "presence-ops");
      expect(gone.data).toEqual({ user_id: "ghost" });
      // Bounded: the TTL plus a heartbeat of the survivor, with generous room for a loaded machine.
      expect(Date.now() - killedAt).toBeLessThan(LIVENESS.nodeTtlMs + LIVENESS.heartbeatIntervalMs + 5000);

      const users = await (await api.get({ path: "/channels/presence-ops/users" })).json();
      expect(users).toEqual({ users: [{ id: "watcher" }] });
      expect((await (await api.get({ path: "/channels" })).json()).channels).not.toHaveProperty("only-on-child");
      // Exactly once: a later event is the next thing the watcher sees on the channel.
      await api.trigger("presence-ops", "after", {});
      expect((await watcher.next((f) => f.channel === "presence-ops")).event).toBe("after");
    } finally {
      child.process.kill("SIGKILL");
    }
  });

  it("re-registers a live node that its peers wrongly declared dead", async () => {
    const [a, b] = [await node(), await node()];
    const watcher = await RawClient.connect(b);
    await watcher.subscribePresence("presence-live", "watcher");
    const member = await RawClient.connect(a);
    await member.subscribePresence("presence-live", "alive");
    await watcher.nextEvent("pusher_internal:member_added", "presence-live");
    // Pretend A missed its heartbeats and a peer reaped it (atomically, so A's own heartbeat cannot
    // slip in between); A notices on its next heartbeat and registers its members again.
    const ns = `${prefix}${APP.appId}:`;
    await redis.multi().zadd(`${ns}nodes`, 1, a.nodeId).eval(REAP, 1, `${ns}nodes`, ns, a.nodeId, `${ns}bus`, "test", SEQ_TTL_MS).exec();
    expect((await watcher.nextEvent("pusher_internal:member_removed", "presence-live")).data).toEqual({ user_id: "alive" });
    expect((await watcher.nextEvent("pusher_internal:member_added", "presence-live")).data).toMatchObject({ user_id: "alive" });
    const users = await (await sdk(b).get({ path: "/channels/presence-live/users" })).json();
    expect(users.users.map((u: { id: string }) => u.id).sort()).toEqual(["alive", "watcher"]);
  });

  it("leaves the cluster cleanly on close: members removed, clients told to back off", async () => {
    const [a, b] = [await node(), await node()];
    const watcher = await RawClient.connect(a);
    await watcher.subscribePresence("presence-bye", "watcher");
    const leaving = await RawClient.connect(b);
    await leaving.subscribePresence("presence-bye", "leaver");
    await watcher.nextEvent("pusher_internal:member_added", "presence-bye");
    await b.close({ spreadMs: 0 });
    expect((await leaving.closed).code).toBe(4100);
    expect((await watcher.nextEvent("pusher_internal:member_removed", "presence-bye")).data).toEqual({ user_id: "leaver" });
    expect(await redis.zscore(`${prefix}${APP.appId}:nodes`, b.nodeId)).toBeNull();
    const body = await (await sdk(a).get({ path: "/channels/presence-bye", params: { info: "user_count,subscription_count" } })).json();
    expect(body).toEqual({ occupied: true, user_count: 1, subscription_count: 1 });
  });
});

/** Starts `node --import tsx realtime/src/main.ts` and waits for its "listening" line. */
async function startChildNode(prefix: string): Promise<{ process: ReturnType<typeof spawn>; server: RealtimeServer }> {
  const proc = spawn(process.execPath, ["--import", "tsx", "realtime/src/main.ts"], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      APP_ENV: "test",
      REALTIME_APP_ID: APP.appId,
      REALTIME_KEY: APP.key,
      REALTIME_SECRET: APP.secret,
      REALTIME_HOST: "127.0.0.1",
      REALTIME_PORT: "0",
      REDIS_URL,
      REALTIME_REDIS_PREFIX: prefix,
      REALTIME_NODE_TTL_MS: String(LIVENESS.nodeTtlMs),
      REALTIME_HEARTBEAT_MS: String(LIVENESS.heartbeatIntervalMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`child node exited (${code}): ${output}`)));
  });
  return { process: proc, server: { port } as RealtimeServer };
}
