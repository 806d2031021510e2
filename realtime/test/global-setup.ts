/**
 * The scale-out suite needs Redis (REDIS_URL, default redis://127.0.0.1:6379). When it is down and
 * redis-server is installed, start it the way this machine's services are started. Set
 * REALTIME_SKIP_REDIS_TESTS=1 to run without Redis (the scale-out suite is then skipped).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { Redis } from "ioredis";

async function ping(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on("error", () => {});
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

export default async function setup(): Promise<void> {
  if (process.env.REALTIME_SKIP_REDIS_TESTS === "1") return;
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  if (await ping(url)) return;
  if (url === "redis://127.0.0.1:6379") {
    try {
      for (const dir of ["/var/lib/redis", "/var/log/redis"]) fs.mkdirSync(dir, { recursive: true });
      execFileSync("redis-server", [
        "--daemonize",
        "yes",
        "--bind",
        "127.0.0.1",
        "-::1",
        "--port",
        "6379",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        "/var/lib/redis",
        "--logfile",
        "/var/log/redis/ci.log",
      ]);
      for (let i = 0; i < 50 && !(await ping(url)); i++) await new Promise((r) => setTimeout(r, 100));
    } catch {
      // reported below
    }
  }
  if (!(await ping(url))) {
    throw new Error(`Redis is not reachable at ${url}; start it, or set REALTIME_SKIP_REDIS_TESTS=1 to skip the scale-out suite.`);
  }
}
