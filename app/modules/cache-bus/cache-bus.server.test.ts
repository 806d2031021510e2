import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { currentDatabase, db } from "~/db/client.server";
import { appConfig } from "~/db/schema";
import { readConfig, setConfigValue } from "~/modules/config/config.server";
import { useTestDatabase } from "../../../tests/helpers/database";
import { openCacheBus, startCacheBus, stopCacheBus, type CacheBus } from "./cache-bus.server";

useTestDatabase();
afterAll(() => stopCacheBus());

const url = () => currentDatabase()!.url;

/** Resolves when `check` holds, polling every 10 ms; fails after `timeoutMs`. */
async function within<T>(timeoutMs: number, check: () => Promise<T> | T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Another app node: a bus of its own on the same database, recording what it is told. */
async function otherNode(): Promise<{ bus: CacheBus; told: string[]; reconnects: number }> {
  const node = { told: [] as string[], reconnects: 0, bus: undefined as unknown as CacheBus };
  node.bus = await openCacheBus(url(), { onInvalidate: (name) => node.told.push(name), onReconnect: () => (node.reconnects += 1), reconnectDelayMs: 50 });
  return node;
}

describe("the cache bus (two connections on one database)", () => {
  it("what one node publishes reaches the other within a second, and not itself", async () => {
    const a = await otherNode();
    const b = await otherNode();
    try {
      await a.bus.publish("config");
      await within(1000, () => b.told.includes("config"));
      expect(b.told).toEqual(["config"]);
      await b.bus.publish("reference-options");
      await within(1000, () => a.told.includes("reference-options"));
      expect(a.told).toEqual(["reference-options"]);
    } finally {
      await a.bus.close();
      await b.bus.close();
    }
  });

  it("a config change made on another node clears this node's cached config, and one made here tells the others", async () => {
    await startCacheBus(url());
    const other = await otherNode();
    try {
      await setConfigValue("cache_bus_probe", "before");
      expect((await readConfig()).cache_bus_probe).toBe("before");

      // The other node writes the row and publishes; this node had the old value cached.
      await db().update(appConfig).set({ value: "after" }).where(eq(appConfig.key, "cache_bus_probe"));
      expect((await readConfig()).cache_bus_probe).toBe("before");
      await other.bus.publish("config");
      await within(1000, async () => (await readConfig()).cache_bus_probe === "after");

      // This node's change reaches the other one.
      await setConfigValue("cache_bus_probe", "again");
      await within(1000, () => other.told.includes("config"));
    } finally {
      await other.bus.close();
      await stopCacheBus();
    }
  });

  it("a node whose listening connection is cut reconnects, drops every cache (it may have missed a message), and hears again", async () => {
    const a = await otherNode();
    const b = await otherNode();
    try {
      await db().execute(
        sql.raw(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'backline cache bus' AND datname = current_database() AND pid <> pg_backend_pid()`,
        ),
      );
      await within(3000, () => a.reconnects > 0 && b.reconnects > 0);
      await a.bus.publish("latest-version");
      await within(1000, () => b.told.includes("latest-version"));
    } finally {
      await a.bus.close();
      await b.bus.close();
    }
  });
});
