/** The WebSocket side, driven by the real pusher-js client, the real `pusher` SDK and a raw client. */
import type { PresenceChannel } from "pusher-js";
import { afterEach, describe, expect, it } from "vitest";
import { APP, RawClient, cleanup, client, collect, connected, once, sdk, sign, startNode, subscribed } from "./helpers";

afterEach(cleanup);

describe("connection", () => {
  it("sends connection_established with a socket id and activity_timeout 120", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    expect(c.socketId).toMatch(/^\d+\.\d+$/);
    const p = client(server);
    const id = await connected(p);
    expect(id).toMatch(/^\d+\.\d+$/);
    expect(p.connection.activityTimeout).toBe(120_000);
  });

  it("refuses an unknown key with 4001 and an unsupported protocol with 4007", async () => {
    const server = await startNode();
    const bad = await RawClient.connect(server, { key: "nope" });
    expect((await bad.nextEvent("pusher:error")).data).toMatchObject({ code: 4001 });
    expect((await bad.closed).code).toBe(4001);
    const old = await RawClient.connect(server, { query: "protocol=4" });
    expect((await old.closed).code).toBe(4007);
  });

  it("answers pusher:ping with pusher:pong", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    c.send({ event: "pusher:ping", data: {} });
    expect((await c.nextEvent("pusher:pong")).event).toBe("pusher:pong");
  });

  it("pings a silent connection and closes it with 4201 when no pong comes", async () => {
    const server = await startNode({ idleTimeoutMs: 150, pongTimeoutMs: 150, pruneIntervalMs: 25 });
    // autoPong off: this client ignores protocol pings too, like a dead peer.
    const c = await RawClient.connect(server, { ws: { autoPong: false } });
    await c.nextEvent("pusher:ping");
    expect(await c.closed).toMatchObject({ code: 4201 });
  });

  // The pong timeout is generous here: these tests prove that answers count, not how fast they come.
  // A second ping is only ever sent once the first was answered, so three pings prove three answers.
  it("keeps a connection that answers pusher:ping", async () => {
    const server = await startNode({ idleTimeoutMs: 100, pongTimeoutMs: 10_000, pruneIntervalMs: 20 });
    const c = await RawClient.connect(server, { ws: { autoPong: false } });
    for (let i = 0; i < 3; i++) {
      await c.nextEvent("pusher:ping");
      c.send({ event: "pusher:pong", data: {} });
    }
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    expect(server.connectionCount()).toBe(1);
  });

  it("counts protocol-level pongs as activity", async () => {
    const server = await startNode({ idleTimeoutMs: 100, pongTimeoutMs: 10_000, pruneIntervalMs: 20 });
    const c = await RawClient.connect(server); // ws answers ping frames by itself
    for (let i = 0; i < 3; i++) await c.nextEvent("pusher:ping");
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it("closes every connection with 4100 on graceful shutdown", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    const closing = server.close({ spreadMs: 100 });
    expect((await a.closed).code).toBe(4100);
    expect((await b.closed).code).toBe(4100);
    await closing;
  });

  it("refuses connections over the configured limits with 4100", async () => {
    const server = await startNode({ maxConnections: 1 });
    await RawClient.connect(server);
    const second = await RawClient.connect(server, { query: "protocol=7" });
    expect((await second.closed).code).toBe(4100);
  });
});

describe("subscriptions", () => {
  it("delivers SDK events on a public channel", async () => {
    const server = await startNode();
    const p = client(server);
    const ch = await subscribed(p, "news");
    const got = once(ch, "published");
    await sdk(server).trigger("news", "published", { id: 1 });
    expect(await got).toEqual({ id: 1 });
  });

  it("authorizes private channels and reports a bad signature on the channel (status 401)", async () => {
    const server = await startNode();
    const good = client(server);
    const ch = await subscribed(good, "private-inbox");
    const got = once(ch, "note");
    await sdk(server).trigger("private-inbox", "note", "plain text");
    expect(await got).toBe("plain text");

    const bad = client(server, { badAuth: true });
    const err = await once<{ type: string; status: number }>(bad.subscribe("private-inbox"), "pusher:subscription_error");
    expect(err).toMatchObject({ status: 401, type: "AuthError" });
  });

  it("rejects invalid, too long and reserved names with a channel-scoped error", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    expect(await c.subscribe("bad name!")).toMatchObject({ event: "pusher:subscription_error", channel: "bad name!", data: { status: 400 } });
    const long = "x".repeat(165);
    expect(await c.subscribe(long)).toMatchObject({ event: "pusher:subscription_error", data: { status: 400 } });
    expect(await c.subscribe("y".repeat(164))).toMatchObject({ event: "pusher_internal:subscription_succeeded" });
    expect(await c.subscribe("#server-to-user-1")).toMatchObject({ event: "pusher:subscription_error", data: { status: 403 } });
    expect(await c.subscribe("#anything")).toMatchObject({ event: "pusher:subscription_error", data: { status: 403 } });
    expect(await c.subscribe("private-x", { auth: `${APP.key}:deadbeef` })).toMatchObject({
      event: "pusher:subscription_error",
      channel: "private-x",
      data: { status: 401 },
    });
  });

  it("skips the socket named in socket_id", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribe("room");
    await b.subscribe("room");
    const api = sdk(server);
    await api.trigger("room", "first", { n: 1 }, { socket_id: a.socketId });
    await api.trigger("room", "second", { n: 2 });
    expect((await b.nextEvent("first")).data).toEqual({ n: 1 });
    expect((await b.nextEvent("second")).data).toEqual({ n: 2 });
    // Events on one channel arrive in order, so `second` coming first proves `first` was skipped.
    expect((await a.next((f) => f.channel === "room")).event).toBe("second");
  });

  it("relays private-encrypted payloads that pusher-js decrypts", async () => {
    const server = await startNode();
    const p = client(server);
    const ch = await subscribed(p, "private-encrypted-vault");
    const got = once(ch, "secret");
    await sdk(server).trigger("private-encrypted-vault", "secret", { code: 42 });
    expect(await got).toEqual({ code: 42 });
  });
});

describe("presence", () => {
  it("announces members once per user, not per connection", async () => {
    const server = await startNode();
    const watcher = client(server, { userId: "w", userInfo: { name: "Watcher" } });
    const room = (await subscribed(watcher, "presence-room")) as PresenceChannel;
    const added = collect<{ id: string; info: unknown }>(room, "pusher:member_added");
    const removed = collect<{ id: string }>(room, "pusher:member_removed");

    const tab1 = client(server, { userId: "u1", userInfo: { name: "Ann" } });
    const r1 = (await subscribed(tab1, "presence-room")) as PresenceChannel;
    expect(await added.next()).toEqual({ id: "u1", info: { name: "Ann" } });
    expect(r1.members.count).toBe(2);
    expect(r1.members.me).toEqual({ id: "u1", info: { name: "Ann" } });

    const tab2 = client(server, { userId: "u1", userInfo: { name: "Ann" } });
    const r2 = (await subscribed(tab2, "presence-room")) as PresenceChannel;
    expect(r2.members.count).toBe(2);

    const u2 = client(server, { userId: "u2" });
    await subscribed(u2, "presence-room");
    expect(await added.next()).toEqual({ id: "u2", info: {} });
    expect(added.seen).toHaveLength(2); // tab2 added nothing

    tab1.disconnect(); // u1 still has tab2
    u2.disconnect();
    expect(await removed.next()).toMatchObject({ id: "u2" });
    tab2.unsubscribe("presence-room");
    expect(await removed.next()).toMatchObject({ id: "u1" });
    expect(removed.seen).toHaveLength(2);
    expect((room as PresenceChannel).members.count).toBe(1);
  });

  it("refuses oversized user_info (413) and a 101st member (403)", async () => {
    // 101 clients from one address: exempt from the per-address limits by configuration (limits.test.ts tests those).
    const server = await startNode({ exemptAddresses: ["127.0.0.1"] });
    const c = await RawClient.connect(server);
    const big = await c.subscribePresence("presence-big", "u", { blob: "x".repeat(1100) });
    expect(big).toMatchObject({ event: "pusher:subscription_error", data: { status: 413 } });

    const clients = await Promise.all(Array.from({ length: 100 }, () => RawClient.connect(server)));
    const joined = await Promise.all(clients.map((cl, i) => cl.subscribePresence("presence-full", `user-${i}`)));
    expect(joined.every((f) => f.event === "pusher_internal:subscription_succeeded")).toBe(true);
    expect(joined[99].data.presence.count).toBe(100);
    const extra = await c.subscribePresence("presence-full", "user-100");
    expect(extra).toMatchObject({ event: "pusher:subscription_error", channel: "presence-full", data: { status: 403 } });
    // An existing member opening another tab is not a new member.
    const again = await c.subscribePresence("presence-full", "user-5");
    expect(again.event).toBe("pusher_internal:subscription_succeeded");
  });
});

describe("client events", () => {
  it("relays on private channels to the others, never back to the sender", async () => {
    const server = await startNode();
    const a = client(server);
    const b = client(server);
    const chA = await subscribed(a, "private-chat");
    const chB = await subscribed(b, "private-chat");
    const echoes = collect(chA, "client-typing");
    const got = once(chB, "client-typing");
    chA.trigger("client-typing", { who: "a" });
    expect(await got).toEqual({ who: "a" });
    // A server event after it: when it reaches A, A would already have seen an echo.
    const marker = once(chA, "marker");
    await sdk(server).trigger("private-chat", "marker", {});
    await marker;
    expect(echoes.seen).toHaveLength(0);
  });

  it("adds user_id on presence channels", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribePresence("presence-chat", "alice");
    await b.subscribePresence("presence-chat", "bob");
    a.send({ event: "client-hello", channel: "presence-chat", data: { hi: 1 } });
    expect(await b.nextEvent("client-hello")).toMatchObject({ user_id: "alice", data: { hi: 1 } });
  });

  it("refuses public, encrypted and unsubscribed channels", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    await a.subscribe("public");
    await a.subscribePrivate("private-encrypted-x");
    a.send({ event: "client-x", channel: "public", data: {} });
    expect((await a.nextEvent("pusher:error")).data.message).toMatch(/private and presence/);
    a.send({ event: "client-x", channel: "private-encrypted-x", data: {} });
    expect((await a.nextEvent("pusher:error")).data.message).toMatch(/private and presence/);
    a.send({ event: "client-x", channel: "private-never-joined", data: {} });
    expect((await a.nextEvent("pusher:error")).data.message).toMatch(/not subscribed/);
  });

  it("allows 10 per second per connection, then answers 4301", async () => {
    const server = await startNode();
    const a = await RawClient.connect(server);
    const b = await RawClient.connect(server);
    await a.subscribePrivate("private-rate");
    await b.subscribePrivate("private-rate");
    for (let i = 0; i < 11; i++) a.send({ event: "client-n", channel: "private-rate", data: { i } });
    expect((await a.nextEvent("pusher:error")).data).toMatchObject({ code: 4301 });
    for (let i = 0; i < 10; i++) expect((await b.nextEvent("client-n")).data).toEqual({ i });
    // The 11th never arrives: a later server event is the next thing B sees on the channel.
    await sdk(server).trigger("private-rate", "after", {});
    expect((await b.next((f) => f.channel === "private-rate")).event).toBe("after");
  });
});

describe("user sign-in", () => {
  it("signs in and receives events sent to the user", async () => {
    const server = await startNode();
    const p = client(server, { userId: "42", userInfo: { name: "Zed" } });
    p.signin();
    await p.user.signinDonePromise;
    expect(p.user.user_data).toMatchObject({ id: "42" });
    const got = once(p.user, "greeting");
    // pusher-js subscribes to #server-to-user-42 after sign-in; wait for that before publishing.
    await once(p.user.serverToUserChannel!, "pusher:subscription_succeeded");
    await sdk(server).sendToUser("42", "greeting", { hello: "you" });
    expect(await got).toEqual({ hello: "you" });
  });

  it("closes with 4009 on a bad sign-in signature", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    c.send({ event: "pusher:signin", data: { auth: `${APP.key}:00`, user_data: JSON.stringify({ id: "1" }) } });
    expect((await c.closed).code).toBe(4009);
  });

  it("terminates a user's connections through the HTTP API", async () => {
    const server = await startNode();
    const c = await RawClient.connect(server);
    const userData = JSON.stringify({ id: "7" });
    c.send({ event: "pusher:signin", data: { auth: sign(`${c.socketId}::user::${userData}`), user_data: userData } });
    expect((await c.nextEvent("pusher:signin_success")).data.user_data).toBe(userData);
    const other = await RawClient.connect(server);
    await sdk(server).terminateUserConnections("7");
    expect((await c.closed).code).toBe(4009);
    expect(other.ws.readyState).toBe(other.ws.OPEN);
  });
});
