/** The browser's stack, unmodified: laravel-echo (broadcaster 'reverb') on pusher-js, against our node. */
import Echo from "laravel-echo";
import Pusher from "pusher-js";
import { afterEach, describe, expect, it } from "vitest";
import type { RealtimeServer } from "../src/server";
import { cleanup, pusherOptions, sdk, startNode } from "./helpers";
import type { ClientIdentity } from "./helpers";

afterEach(cleanup);

const echos: Echo<"reverb">[] = [];
afterEach(() => {
  while (echos.length) echos.pop()!.disconnect();
});

function echo(server: RealtimeServer, who: ClientIdentity = {}): Echo<"reverb"> {
  const o = pusherOptions(server, who);
  const e = new Echo({
    broadcaster: "reverb",
    key: "test-key",
    wsHost: o.wsHost,
    wsPort: o.wsPort,
    forceTLS: false,
    enabledTransports: ["ws"],
    disableStats: true,
    channelAuthorization: o.channelAuthorization,
    Pusher,
  });
  echos.push(e);
  return e;
}

describe("laravel-echo (broadcaster reverb)", () => {
  it("subscribes to a private channel and receives an event", async () => {
    const server = await startNode();
    const e = echo(server);
    const channel = e.private("member-notifications.7");
    await new Promise<void>((resolve) => channel.subscribed(() => resolve()));
    // Echo prefixes the namespace and turns dots into backslashes: "NotificationsChanged" listens for
    // "App\\Events\\NotificationsChanged"; a leading dot listens for the exact name.
    const namespaced = new Promise((resolve) => channel.listen("NotificationsChanged", resolve));
    const exact = new Promise((resolve) => channel.listen(".member.notifications", resolve));
    const api = sdk(server);
    await api.trigger("private-member-notifications.7", "App\\Events\\NotificationsChanged", { unread: 3 });
    await api.trigger("private-member-notifications.7", "member.notifications", { unread: 4 });
    expect(await namespaced).toEqual({ unread: 3 });
    expect(await exact).toEqual({ unread: 4 });
  });

  it("passes a refused subscription to .error() with its status", async () => {
    const server = await startNode();
    const e = echo(server, { badAuth: true });
    const err = await new Promise<{ status: number }>((resolve) => e.private("admin-notifications").error(resolve));
    expect(err).toMatchObject({ status: 401, type: "AuthError" });
  });

  it("tracks presence with here/joining/leaving and relays whispers", async () => {
    const server = await startNode();
    const first = echo(server, { userId: "1", userInfo: { name: "Ann" } });
    const room = first.join("room.1");
    const here = await new Promise<unknown[]>((resolve) => room.here(resolve));
    expect(here).toEqual([{ name: "Ann" }]);
    const joining = new Promise((resolve) => room.joining(resolve));
    const whisper = new Promise((resolve) => room.listenForWhisper("typing", resolve));

    const second = echo(server, { userId: "2", userInfo: { name: "Bob" } });
    const room2 = second.join("room.1");
    await new Promise((resolve) => room2.here(resolve));
    expect(await joining).toEqual({ name: "Bob" });
    room2.whisper("typing", { by: "Bob" });
    expect(await whisper).toEqual({ by: "Bob" });

    const leaving = new Promise((resolve) => room.leaving(resolve));
    second.leave("room.1");
    expect(await leaving).toEqual({ name: "Bob" });
  });
});
