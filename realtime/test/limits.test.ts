/**
 * Per-address connection limits (decision 009): one anonymous client used to open 3,000 WebSocket connections,
 * and the global limits are off by default. On by default now: at most 100 open connections and 20 new ones a
 * second per address (an IPv6 client's /64), answered with Pusher's over-quota error 4004 (pusher-js does not
 * retry it); an exempt address (the bench's load generator) is exempt by configuration.
 */
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { defaultOptions, loadRealtimeConfig } from "../src/config";
import type { RealtimeServer } from "../src/server";
import { APP, cleanup, startNode } from "./helpers";

afterEach(cleanup);

const clients: WebSocket[] = [];
afterEach(() => {
  for (const ws of clients.splice(0)) ws.terminate();
});

/** Opens one connection; resolves with "open" (connection_established) or the error code it was refused with. */
function attempt(server: RealtimeServer, headers: Record<string, string> = {}): Promise<{ outcome: "open" | number; ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/app/${APP.key}?protocol=7&client=js&version=8.6.0&flash=false`, { headers });
  clients.push(ws);
  ws.on("error", () => {});
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  return new Promise((resolve) => {
    ws.on("message", (raw) => {
      const frame = JSON.parse(raw.toString()) as { event: string; data: string | { code?: number } };
      const data = typeof frame.data === "string" ? (JSON.parse(frame.data) as { code?: number }) : frame.data;
      if (frame.event === "pusher:connection_established") resolve({ outcome: "open", ws, closed });
      if (frame.event === "pusher:error") resolve({ outcome: data.code ?? -1, ws, closed });
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("per-address limits", () => {
  it("are on by default, with their settings read from the environment", () => {
    expect(defaultOptions()).toMatchObject({ maxConnectionsPerAddress: 100, maxConnectsPerSecondPerAddress: 20, exemptAddresses: [], trustProxy: false });
    expect(loadRealtimeConfig({ APP_ENV: "test" })).toMatchObject({ maxConnectionsPerAddress: 100, maxConnectsPerSecondPerAddress: 20 });
    expect(
      loadRealtimeConfig({
        APP_ENV: "test",
        REALTIME_MAX_CONNECTIONS_PER_ADDRESS: "0",
        REALTIME_MAX_CONNECTS_PER_SECOND_PER_ADDRESS: "5",
        REALTIME_LIMIT_EXEMPT_ADDRESSES: "127.0.0.1, 10.0.0.0/8, ::1",
        REALTIME_TRUST_PROXY: "true",
      }),
    ).toMatchObject({ maxConnectionsPerAddress: 0, maxConnectsPerSecondPerAddress: 5, exemptAddresses: ["127.0.0.1", "10.0.0.0/8", "::1"], trustProxy: true });
    expect(() => loadRealtimeConfig({ APP_ENV: "test", REALTIME_LIMIT_EXEMPT_ADDRESSES: "localhost" })).toThrow(/REALTIME_LIMIT_EXEMPT_ADDRESSES/);
  });

  it("with the defaults, the 101st open connection from one address is refused with 4004", async () => {
    const server = await startNode();
    for (let batch = 0; batch < 5; batch++) {
      const opened = await Promise.all(Array.from({ length: 20 }, () => attempt(server)));
      expect(opened.map((o) => o.outcome)).toEqual(Array(20).fill("open"));
      await sleep(1050); // the bucket refills at 20 a second
    }
    expect(server.connectionCount()).toBe(100);
    const refused = await attempt(server);
    expect(refused.outcome).toBe(4004);
    expect(await refused.closed).toBe(4004);
    expect(server.connectionCount()).toBe(100);
  }, 20_000);

  it("counts open connections: one closed makes room for one more", async () => {
    const server = await startNode({ maxConnectionsPerAddress: 3, maxConnectsPerSecondPerAddress: 0 });
    const open = await Promise.all([attempt(server), attempt(server), attempt(server)]);
    expect(open.map((o) => o.outcome)).toEqual(["open", "open", "open"]);
    expect((await attempt(server)).outcome).toBe(4004);
    open[0]!.ws.close();
    await open[0]!.closed;
    await sleep(50);
    expect((await attempt(server)).outcome).toBe("open");
  });

  it("limits new connections a second, then lets them in again as the bucket refills", async () => {
    const server = await startNode({ maxConnectionsPerAddress: 0, maxConnectsPerSecondPerAddress: 5 });
    const burst = await Promise.all(Array.from({ length: 6 }, () => attempt(server)));
    expect(burst.filter((o) => o.outcome === "open")).toHaveLength(5);
    expect(burst.filter((o) => o.outcome === 4004)).toHaveLength(1);
    await sleep(300);
    expect((await attempt(server)).outcome).toBe("open");
  });

  it("leaves an exempt address alone (the bench's load generator, by configuration)", async () => {
    const server = await startNode({ maxConnectionsPerAddress: 2, maxConnectsPerSecondPerAddress: 2, exemptAddresses: ["127.0.0.0/8"] });
    const opened = await Promise.all(Array.from({ length: 10 }, () => attempt(server)));
    expect(opened.every((o) => o.outcome === "open")).toBe(true);
  });

  it("behind a trusted proxy counts the address it forwards, an IPv6 client by its /64; otherwise the header is ignored", async () => {
    const proxied = await startNode({ maxConnectionsPerAddress: 1, maxConnectsPerSecondPerAddress: 0, trustProxy: true });
    const from = (address: string) => attempt(proxied, { "X-Forwarded-For": `203.0.113.9, ${address}` });
    expect((await from("198.51.100.1")).outcome).toBe("open");
    expect((await from("198.51.100.2")).outcome).toBe("open");
    expect((await from("198.51.100.1")).outcome).toBe(4004);
    expect((await from("2001:db8::1")).outcome).toBe("open");
    expect((await from("2001:db8:0:0:ffff::2")).outcome).toBe(4004);
    expect((await from("2001:db8:0:1::1")).outcome).toBe("open");

    const direct = await startNode({ maxConnectionsPerAddress: 1, maxConnectsPerSecondPerAddress: 0 });
    expect((await attempt(direct, { "X-Forwarded-For": "198.51.100.1" })).outcome).toBe("open");
    expect((await attempt(direct, { "X-Forwarded-For": "198.51.100.2" })).outcome).toBe(4004);
  });
});
