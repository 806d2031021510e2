import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "../../../tests/helpers/database";
import { hitRateLimit, peekRateLimit, resetRateLimit } from "./rate-limit.server";

useTestDatabase();

describe("rate limits", () => {
  afterEach(() => vi.useRealTimers());

  it("allows up to the limit inside a window, then refuses with a wait", async () => {
    expect((await hitRateLimit("k1", 2, 60)).allowed).toBe(true);
    expect((await hitRateLimit("k1", 2, 60)).allowed).toBe(true);
    const third = await hitRateLimit("k1", 2, 60);
    expect(third).toMatchObject({ allowed: false, count: 3 });
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect(third.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await peekRateLimit("k1", 2, 60)).allowed).toBe(false);
    await resetRateLimit("k1");
    expect(await peekRateLimit("k1", 2, 60)).toMatchObject({ allowed: true, count: 0 });
  });

  it("keeps keys apart and counts concurrent hits exactly", async () => {
    await Promise.all(Array.from({ length: 10 }, () => hitRateLimit("k2", 100, 60)));
    expect((await peekRateLimit("k2", 100, 60)).count).toBe(10);
    expect((await peekRateLimit("k3", 100, 60)).count).toBe(0);
  });

  it("starts a new window once the old one is over", async () => {
    await hitRateLimit("k4", 1, 1);
    expect((await hitRateLimit("k4", 1, 1)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await hitRateLimit("k4", 1, 1)).toMatchObject({ allowed: true, count: 1 });
  });
});
