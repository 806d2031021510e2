import crypto from "node:crypto";
import { invalidateProcessCache, invalidateProcessCaches, setProcessCacheBroadcast } from "~/db/process-cache.server";

/**
 * The cache bus (decision 035, "Caches told across nodes"): when a value kept in a process cache changes, every
 * app node on the database drops its copy at once, through PostgreSQL's LISTEN/NOTIFY on one channel. Each node
 * holds one connection of its own that listens; a change is published on it as `pg_notify(channel, payload)`,
 * the payload being the node's id and the cache's name. A node ignores its own messages (it dropped its copy when
 * it made the change).
 *
 * While the listening connection is lost, messages are missed: on reconnecting, the node drops every cache
 * (`onReconnect`). The caches' own expiry (app/db/process-cache.server.ts) stays as the last resort.
 */

export const CACHE_BUS_CHANNEL = "backline_cache";

export interface CacheBus {
  /** This node's id, carried by what it publishes. */
  readonly nodeId: string;
  /** Tells every other node to drop the cache named `name`. Never throws (a lost message expires with the cache). */
  publish(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface CacheBusOptions {
  /** Another node published a change of the cache named `name`. */
  onInvalidate(name: string): void;
  /** The listening connection came back after a loss: messages may have been missed. */
  onReconnect?(): void;
  /** Wait before reconnecting after a loss. Default 1 s. */
  reconnectDelayMs?: number;
}

/** Opens a bus on the database at `url` and listens; resolves once it listens. */
export async function openCacheBus(url: string, options: CacheBusOptions): Promise<CacheBus> {
  const { default: pg } = await import("pg");
  const nodeId = crypto.randomBytes(6).toString("hex");
  const reconnectDelayMs = options.reconnectDelayMs ?? 1000;
  let client: import("pg").Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, application_name: "backline cache bus" });
    next.on("notification", (message) => {
      if (message.channel !== CACHE_BUS_CHANNEL || !message.payload) return;
      const separator = message.payload.indexOf(":");
      const from = message.payload.slice(0, separator);
      const name = message.payload.slice(separator + 1);
      if (from !== nodeId && name) options.onInvalidate(name);
    });
    next.on("error", (error) => {
      console.error("[cache-bus] connection lost:", error.message);
      lost(next);
    });
    next.on("end", () => lost(next));
    await next.connect();
    await next.query(`LISTEN ${CACHE_BUS_CHANNEL}`);
    client = next;
  };

  const lost = (which: import("pg").Client) => {
    if (client !== which || closed) return;
    client = undefined;
    which.end().catch(() => undefined);
    const attempt = () => {
      retry = undefined;
      if (closed) return;
      connect().then(
        () => options.onReconnect?.(),
        (error) => {
          console.error("[cache-bus] could not reconnect:", error instanceof Error ? error.message : error);
          retry = setTimeout(attempt, reconnectDelayMs);
          retry.unref();
        },
      );
    };
    retry = setTimeout(attempt, reconnectDelayMs);
    retry.unref();
  };

  await connect();
  return {
    nodeId,
    async publish(name) {
      const current = client;
      if (!current) return;
      try {
        await current.query("SELECT pg_notify($1, $2)", [CACHE_BUS_CHANNEL, `${nodeId}:${name}`]);
      } catch (error) {
        console.error(`[cache-bus] could not publish ${name}:`, error instanceof Error ? error.message : error);
      }
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

let running: CacheBus | undefined;

/**
 * Starts this process's bus (boot): the process caches' `invalidate()` then tells every node, and what other nodes
 * publish drops the cache here. Idempotent per process; `stopCacheBus()` ends it.
 */
export async function startCacheBus(url: string): Promise<CacheBus> {
  if (running) return running;
  const bus = await openCacheBus(url, { onInvalidate: invalidateProcessCache, onReconnect: invalidateProcessCaches });
  running = bus;
  setProcessCacheBroadcast((name) => void bus.publish(name));
  return bus;
}

export async function stopCacheBus(): Promise<void> {
  const bus = running;
  running = undefined;
  if (!bus) return;
  setProcessCacheBroadcast(undefined);
  await bus.close();
}
