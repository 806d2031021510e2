import { describe, expect, it } from "vitest";
import {
  bpsOfCents,
  DEFAULT_PAYOUT_CONFIG,
  nextPayDate,
  parseMethodFees,
  parseMinPayoutCents,
  parsePaySchedule,
  simulatePayout,
  withholdingBps,
  type TaxStatus,
} from "./payout-math";

const us = (form: "w9" | "w8" | null = null): TaxStatus => ({ country: "US", declaration: form ? { form, country: form === "w9" ? "US" : "DE" } : null });
const de = (form: "w9" | "w8" | null = null): TaxStatus => ({ country: "DE", declaration: form ? { form, country: form === "w9" ? "US" : "DE" } : null });
// Friday 2026-07-10, Wednesday 2026-07-08.
const wednesday = new Date("2026-07-08T23:30:00Z");
const friday = new Date("2026-07-10T09:00:00Z");

describe("withholding", () => {
  it("is 0% with the declaration that fits the residence, 24% for the US without a W-9, 30% otherwise", () => {
    expect(withholdingBps(us("w9"))).toBe(0);
    expect(withholdingBps(us())).toBe(2400);
    expect(withholdingBps(de("w8"))).toBe(0);
    expect(withholdingBps(de())).toBe(3000);
    // A declaration for another country than the residence does not count.
    expect(withholdingBps(us("w8"))).toBe(2400);
    expect(withholdingBps(de("w9"))).toBe(3000);
    // Residence unknown: the declaration's country decides; nothing at all: the higher, 30%.
    expect(withholdingBps({ country: null, declaration: { form: "w9", country: "US" } })).toBe(0);
    expect(withholdingBps({ country: null, declaration: null })).toBe(3000);
  });

  it("rounds a percentage of cents half-to-even", () => {
    expect(bpsOfCents(1_000n, 2400)).toBe(240n);
    expect(bpsOfCents(1_234n, 2400)).toBe(296n); // 296.16
    expect(bpsOfCents(50n, 100)).toBe(0n); // 0.5 -> 0 (even)
    expect(bpsOfCents(150n, 100)).toBe(2n); // 1.5 -> 2 (even)
    expect(bpsOfCents(1_001n, 25)).toBe(3n); // 2.5025 -> 3
    expect(() => bpsOfCents(-1n, 100)).toThrow();
  });
});

describe("simulatePayout", () => {
  it("gives amount, fee, withholding, net and the next pay date; the parts add up to the amount", () => {
    const manual = simulatePayout(12_345n, "manual", us(), DEFAULT_PAYOUT_CONFIG, wednesday);
    expect(manual).toEqual({
      amountCents: 12_345n,
      method: "manual",
      feeCents: 0n,
      withholdingBps: 2400,
      withholdingCents: 2_963n,
      netCents: 9_382n,
      nextPayDate: "2026-07-10",
    });
    const stripe = simulatePayout(12_345n, "stripe", de("w8"), DEFAULT_PAYOUT_CONFIG, wednesday);
    // Stripe: $0.25 + 0.25% of $123.45 (30.8625 cents -> 31).
    expect(stripe).toMatchObject({ feeCents: 56n, withholdingBps: 0, withholdingCents: 0n, netCents: 12_289n });
    const foreign = simulatePayout(10_000n, "stripe", de(), DEFAULT_PAYOUT_CONFIG, wednesday);
    expect(foreign).toMatchObject({ feeCents: 50n, withholdingCents: 3_000n, netCents: 6_950n });
    for (const s of [manual, stripe, foreign]) expect(s.feeCents + s.withholdingCents + s.netCents).toBe(s.amountCents);
  });

  it("never takes more than the amount", () => {
    const tiny = simulatePayout(20n, "stripe", de(), DEFAULT_PAYOUT_CONFIG, wednesday);
    expect(tiny).toMatchObject({ feeCents: 20n, withholdingCents: 0n, netCents: 0n });
    expect(() => simulatePayout(-1n, "manual", us(), DEFAULT_PAYOUT_CONFIG, wednesday)).toThrow();
  });
});

describe("pay dates", () => {
  it("weekly on Friday by default: the first Friday after today (UTC)", () => {
    expect(nextPayDate(DEFAULT_PAYOUT_CONFIG.schedule, wednesday)).toBe("2026-07-10");
    expect(nextPayDate(DEFAULT_PAYOUT_CONFIG.schedule, friday)).toBe("2026-07-17");
    expect(nextPayDate({ frequency: "weekly", weekday: 1 }, friday)).toBe("2026-07-13");
  });

  it("monthly on a day of the month", () => {
    expect(nextPayDate({ frequency: "monthly", day: 15 }, wednesday)).toBe("2026-07-15");
    expect(nextPayDate({ frequency: "monthly", day: 8 }, wednesday)).toBe("2026-08-08");
    expect(nextPayDate({ frequency: "monthly", day: 1 }, new Date("2026-12-20T00:00:00Z"))).toBe("2027-01-01");
  });
});

describe("config values", () => {
  it("reads the minimum, fees and schedule, falling back to the defaults on anything else", () => {
    expect(parseMinPayoutCents(undefined)).toBe(1_000n);
    expect(parseMinPayoutCents(2_500)).toBe(2_500n);
    expect(parseMinPayoutCents("2500")).toBe(2_500n);
    expect(parseMinPayoutCents(12.5)).toBe(1_000n);
    expect(parseMinPayoutCents(-5)).toBe(1_000n);
    expect(parsePaySchedule(undefined)).toEqual({ frequency: "weekly", weekday: 5 });
    expect(parsePaySchedule({ frequency: "monthly", day: 28 })).toEqual({ frequency: "monthly", day: 28 });
    expect(parsePaySchedule({ frequency: "monthly", day: 31 })).toEqual({ frequency: "weekly", weekday: 5 });
    expect(parsePaySchedule({ frequency: "weekly", weekday: 7 })).toEqual({ frequency: "weekly", weekday: 5 });
    expect(parseMethodFees({ manual: { fixed_cents: 100, bps: 0 } })).toEqual({ manual: { fixedCents: 100n, bps: 0 }, stripe: { fixedCents: 25n, bps: 25 } });
    expect(parseMethodFees({ stripe: { fixed_cents: -1, bps: 0 } }).stripe).toEqual({ fixedCents: 25n, bps: 25 });
  });
});
