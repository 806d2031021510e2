import { describe, expect, it } from "vitest";
import { allocateToSplit, commissionSplit, largestRemainder, type SplitParty } from "./allocation";

/** mulberry32: a tiny seeded PRNG so the property tests are reproducible without a dependency. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomInt(random: () => number, maxExclusive: number): number {
  return Math.floor(random() * maxExclusive);
}

/** A bigint in [0, 10^digits) built digit by digit, so large values are not limited by float precision. */
function randomBigint(random: () => number, digits: number): bigint {
  let value = 0n;
  for (let i = 0; i < digits; i++) value = value * 10n + BigInt(randomInt(random, 10));
  return value;
}

function randomAmount(random: () => number): bigint {
  const pick = randomInt(random, 6);
  const magnitude =
    pick === 0 ? BigInt(randomInt(random, 3)) // 0, 1, 2
    : pick === 1 ? 10n ** 15n // exactly 10^15
    : randomBigint(random, 1 + randomInt(random, 16)); // up to 10^16 - 1
  return random() < 0.5 ? -magnitude : magnitude;
}

/** 1..8 parties with whole-bps shares summing to 10,000 (some may be 0). */
function randomShares(random: () => number): SplitParty[] {
  const count = 1 + randomInt(random, 8);
  const cuts = Array.from({ length: count - 1 }, () => randomInt(random, 10_001)).sort((a, b) => a - b);
  const bounds = [0, ...cuts, 10_000];
  return Array.from({ length: count }, (_, i) => ({ key: `p${i}`, shareBps: bounds[i + 1] - bounds[i] }));
}

const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);

describe("largestRemainder", () => {
  it("splits exactly, leftovers to the largest remainders, ties to the lower index", () => {
    expect(largestRemainder(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(largestRemainder(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
    expect(largestRemainder(10n, [3333n, 3333n, 3334n])).toEqual([3n, 3n, 4n]);
    expect(largestRemainder(1n, [5000n, 5000n])).toEqual([1n, 0n]);
    expect(largestRemainder(7n, [0n, 1n, 0n])).toEqual([0n, 7n, 0n]);
    expect(largestRemainder(0n, [1n, 2n])).toEqual([0n, 0n]);
    // Remainders 0.6, 0.3, 0.1 of a unit: the single leftover goes to the largest, not the first.
    expect(largestRemainder(1n, [3n, 6n, 1n])).toEqual([0n, 1n, 0n]);
  });

  it("mirrors a negative amount exactly", () => {
    expect(largestRemainder(-100n, [1n, 1n, 1n])).toEqual([-34n, -33n, -33n]);
    expect(largestRemainder(-1n, [5000n, 5000n])).toEqual([-1n, 0n]);
  });

  it("refuses bad weights", () => {
    expect(() => largestRemainder(1n, [])).toThrow();
    expect(() => largestRemainder(1n, [0n, 0n])).toThrow();
    expect(() => largestRemainder(1n, [2n, -1n])).toThrow();
  });

  it("sums exactly and stays within one unit of the exact share, for many random cases", () => {
    const random = prng(20_260_301);
    for (let run = 0; run < 3000; run++) {
      const amount = randomAmount(random);
      const weights = randomShares(random).map((party) => BigInt(party.shareBps));
      const parts = largestRemainder(amount, weights);
      expect(sum(parts)).toBe(amount);
      parts.forEach((part, i) => {
        // |part - amount * w / 10000| < 1  <=>  |part * 10000 - amount * w| < 10000
        expect(abs(part * 10_000n - amount * weights[i]) < 10_000n).toBe(true);
        if (weights[i] === 0n) expect(part).toBe(0n);
      });
      expect(largestRemainder(-amount, weights)).toEqual(parts.map((part) => -part));
    }
  });
});

describe("commissionSplit", () => {
  it("rounds the commission half-to-even and keeps the net exact", () => {
    expect(commissionSplit(1_000_000n, 1000)).toEqual({ commission: 100_000n, net: 900_000n });
    expect(commissionSplit(5n, 1000)).toEqual({ commission: 0n, net: 5n }); // 0.5 -> 0
    expect(commissionSplit(15n, 1000)).toEqual({ commission: 2n, net: 13n }); // 1.5 -> 2
    expect(commissionSplit(25n, 1000)).toEqual({ commission: 2n, net: 23n }); // 2.5 -> 2
    expect(commissionSplit(26n, 1000)).toEqual({ commission: 3n, net: 23n }); // 2.6 -> 3
    expect(commissionSplit(-15n, 1000)).toEqual({ commission: -2n, net: -13n });
    expect(commissionSplit(-25n, 1000)).toEqual({ commission: -2n, net: -23n });
    expect(commissionSplit(123n, 0)).toEqual({ commission: 0n, net: 123n });
    expect(commissionSplit(123n, 10_000)).toEqual({ commission: 123n, net: 0n });
    expect(commissionSplit(0n, 1000)).toEqual({ commission: 0n, net: 0n });
  });

  it.each([-1, 10_001, 12.5, Number.NaN])("refuses %s bps", (bps) => {
    expect(() => commissionSplit(100n, bps)).toThrow();
  });

  it("always sums to the line and mirrors refunds", () => {
    const random = prng(7);
    for (let run = 0; run < 2000; run++) {
      const amount = randomAmount(random);
      const bps = randomInt(random, 10_001);
      const { commission, net } = commissionSplit(amount, bps);
      expect(commission + net).toBe(amount);
      expect(abs(commission * 10_000n - amount * BigInt(bps)) <= 5_000n).toBe(true);
      expect(commissionSplit(-amount, bps)).toEqual({ commission: -commission, net: -net });
    }
  });
});

describe("allocateToSplit", () => {
  const trio: SplitParty[] = [
    { key: "artist", shareBps: 5000 },
    { key: "producer", shareBps: 3000 },
    { key: "label", shareBps: 2000 },
  ];

  it("shares by percentage when there is no recoup", () => {
    const result = allocateToSplit(1_000_001n, trio, null);
    expect(result).toEqual({
      parts: [
        { key: "artist", amountMicros: 500_001n, recoupMicros: 0n },
        { key: "producer", amountMicros: 300_000n, recoupMicros: 0n },
        { key: "label", amountMicros: 200_000n, recoupMicros: 0n },
      ],
      recoupedMicros: 0n,
    });
  });

  it("fills the remaining recoup first, then shares the rest", () => {
    const recoup = { partyKey: "label", amountMicros: 1_000_000n, recoupedSoFarMicros: 400_000n };
    const result = allocateToSplit(1_600_000n, trio, recoup);
    expect(result.recoupedMicros).toBe(600_000n);
    expect(result.parts).toEqual([
      { key: "artist", amountMicros: 500_000n, recoupMicros: 0n },
      { key: "producer", amountMicros: 300_000n, recoupMicros: 0n },
      { key: "label", amountMicros: 600_000n + 200_000n, recoupMicros: 600_000n },
    ]);
  });

  it("gives a line wholly to recoup while the recoup is open", () => {
    const recoup = { partyKey: "producer", amountMicros: 1_000_000n, recoupedSoFarMicros: 0n };
    const result = allocateToSplit(250_000n, trio, recoup);
    expect(result.recoupedMicros).toBe(250_000n);
    expect(result.parts.map((p) => p.amountMicros)).toEqual([0n, 250_000n, 0n]);
  });

  it("shares by percentage once the recoup is complete (or over-recouped)", () => {
    for (const soFar of [1_000_000n, 1_500_000n]) {
      const result = allocateToSplit(100n, trio, { partyKey: "label", amountMicros: 1_000_000n, recoupedSoFarMicros: soFar });
      expect(result.recoupedMicros).toBe(0n);
      expect(result.parts.map((p) => p.amountMicros)).toEqual([50n, 30n, 20n]);
    }
  });

  it("takes a refund back from the recouped total first, then by percentage", () => {
    const recoup = { partyKey: "label", amountMicros: 1_000_000n, recoupedSoFarMicros: 300_000n };
    const result = allocateToSplit(-500_000n, trio, recoup);
    expect(result.recoupedMicros).toBe(-300_000n);
    expect(result.parts).toEqual([
      { key: "artist", amountMicros: -100_000n, recoupMicros: 0n },
      { key: "producer", amountMicros: -60_000n, recoupMicros: 0n },
      { key: "label", amountMicros: -300_000n - 40_000n, recoupMicros: -300_000n },
    ]);
  });

  it("reopens a completed recoup on a refund, and the next income refills it", () => {
    // The documented asymmetry: a sale after the recoup completed, then its refund.
    const recoup = { partyKey: "label", amountMicros: 1_000_000n, recoupedSoFarMicros: 1_000_000n };
    const sale = allocateToSplit(100_000n, trio, recoup);
    expect(sale.recoupedMicros).toBe(0n);
    const refund = allocateToSplit(-100_000n, trio, { ...recoup, recoupedSoFarMicros: 1_000_000n + sale.recoupedMicros });
    expect(refund.recoupedMicros).toBe(-100_000n);
    const next = allocateToSplit(100_000n, trio, { ...recoup, recoupedSoFarMicros: 900_000n });
    expect(next.recoupedMicros).toBe(100_000n);
    // After the refill, the label has recovered exactly 1,000,000 and the percentages shared the one net sale.
    const totals = trio.map((_, i) => sale.parts[i].amountMicros + refund.parts[i].amountMicros + next.parts[i].amountMicros);
    expect(totals).toEqual([50_000n, 30_000n, 20_000n]);
  });

  it("keeps a zero-share recoup-only party and a zero line", () => {
    const parties: SplitParty[] = [
      { key: "artist", shareBps: 10_000 },
      { key: "investor", shareBps: 0 },
    ];
    const recoup = { partyKey: "investor", amountMicros: 10n, recoupedSoFarMicros: 4n };
    expect(allocateToSplit(9n, parties, recoup).parts.map((p) => p.amountMicros)).toEqual([3n, 6n]);
    expect(allocateToSplit(0n, parties, recoup)).toEqual({
      parts: [
        { key: "artist", amountMicros: 0n, recoupMicros: 0n },
        { key: "investor", amountMicros: 0n, recoupMicros: 0n },
      ],
      recoupedMicros: 0n,
    });
  });

  it("refuses invalid splits and recoups", () => {
    expect(() => allocateToSplit(1n, [], null)).toThrow();
    expect(() => allocateToSplit(1n, [{ key: "a", shareBps: 9999 }], null)).toThrow(/10000/);
    expect(() => allocateToSplit(1n, [{ key: "a", shareBps: 5000 }, { key: "a", shareBps: 5000 }], null)).toThrow(/twice/);
    expect(() => allocateToSplit(1n, [{ key: "a", shareBps: 10_000.5 }], null)).toThrow();
    expect(() => allocateToSplit(1n, [{ key: "a", shareBps: 10_001 }, { key: "b", shareBps: -1 }], null)).toThrow();
    const one = [{ key: "a", shareBps: 10_000 }];
    expect(() => allocateToSplit(1n, one, { partyKey: "z", amountMicros: 1n, recoupedSoFarMicros: 0n })).toThrow(/not one of/);
    expect(() => allocateToSplit(1n, one, { partyKey: "a", amountMicros: -1n, recoupedSoFarMicros: 0n })).toThrow();
    expect(() => allocateToSplit(1n, one, { partyKey: "a", amountMicros: 1n, recoupedSoFarMicros: -1n })).toThrow();
  });

  it("property: parts sum exactly, percentage parts stay within one micro of the exact share", () => {
    const random = prng(42);
    for (let run = 0; run < 2000; run++) {
      const parties = randomShares(random);
      const amount = randomAmount(random);
      const withRecoup = random() < 0.6;
      const recoupParty = parties[randomInt(random, parties.length)].key;
      const recoupAmount = randomBigint(random, 1 + randomInt(random, 16));
      const recoup = withRecoup
        ? { partyKey: recoupParty, amountMicros: recoupAmount, recoupedSoFarMicros: randomBigint(random, 16) % (recoupAmount + 1n) }
        : null;

      const result = allocateToSplit(amount, parties, recoup);
      expect(sum(result.parts.map((p) => p.amountMicros))).toBe(amount);
      expect(sum(result.parts.map((p) => p.recoupMicros))).toBe(result.recoupedMicros);

      const shared = amount - result.recoupedMicros;
      result.parts.forEach((part, i) => {
        const percentagePart = part.amountMicros - part.recoupMicros;
        expect(abs(percentagePart * 10_000n - shared * BigInt(parties[i].shareBps)) < 10_000n).toBe(true);
        if (part.key !== recoup?.partyKey) expect(part.recoupMicros).toBe(0n);
      });
      if (recoup) {
        const after = recoup.recoupedSoFarMicros + result.recoupedMicros;
        expect(after >= 0n && after <= recoup.amountMicros).toBe(true);
        // A line never moves recoup against its own sign.
        expect(result.recoupedMicros === 0n || result.recoupedMicros > 0n === amount > 0n).toBe(true);
      }
    }
  });

  it("property: a sale and its full refund net every party to zero and restore the recouped total", () => {
    const random = prng(1234);
    for (let run = 0; run < 2000; run++) {
      const parties = randomShares(random);
      const sale = abs(randomAmount(random));
      const recoupAmount = randomBigint(random, 1 + randomInt(random, 16));
      // The states where the rule promises an exact mirror: nothing recouped yet, or a sale that the
      // open recoup absorbs whole.
      const soFar = run % 2 === 0 ? 0n : recoupAmount > sale ? randomBigint(random, 16) % (recoupAmount - sale + 1n) : 0n;
      const recoup = { partyKey: parties[randomInt(random, parties.length)].key, amountMicros: recoupAmount, recoupedSoFarMicros: soFar };

      const forward = allocateToSplit(sale, parties, recoup);
      const back = allocateToSplit(-sale, parties, { ...recoup, recoupedSoFarMicros: soFar + forward.recoupedMicros });
      forward.parts.forEach((part, i) => {
        expect(part.amountMicros + back.parts[i].amountMicros).toBe(0n);
        expect(part.recoupMicros + back.parts[i].recoupMicros).toBe(0n);
      });
      expect(soFar + forward.recoupedMicros + back.recoupedMicros).toBe(soFar);
    }
  });

  it("property: without a recoup, a refund mirrors its sale from any state", () => {
    const random = prng(99);
    for (let run = 0; run < 1000; run++) {
      const parties = randomShares(random);
      const amount = randomAmount(random);
      const forward = allocateToSplit(amount, parties, null);
      const back = allocateToSplit(-amount, parties, null);
      forward.parts.forEach((part, i) => expect(part.amountMicros + back.parts[i].amountMicros).toBe(0n));
    }
  });
});
