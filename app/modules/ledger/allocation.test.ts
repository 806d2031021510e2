import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocateToSplit, commissionSplit, largestRemainder, type SplitParty } from "./allocation";

/**
 * Property tests run on fast-check: random cases, and when one fails, the smallest failing case it can
 * shrink to (amounts and share lists), printed with the seed that reproduces it.
 */

/** Amounts in micro-units: small ones, exactly 10^15, and anything up to 10^16 - 1, either sign. */
const amountArb = fc
  .oneof(fc.bigInt({ min: 0n, max: 2n }), fc.constant(10n ** 15n), fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }))
  .chain((magnitude) => fc.constantFrom(magnitude, -magnitude));

/** 1..8 parties with whole-bps shares summing to 10,000 (some may be 0). */
const sharesArb: fc.Arbitrary<SplitParty[]> = fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 7 }).map((cuts) => {
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), 10_000];
  return bounds.slice(1).map((bound, i) => ({ key: `p${i}`, shareBps: bound - bounds[i]! }));
});

const RUNS = { numRuns: 2000 };

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
    fc.assert(
      fc.property(amountArb, sharesArb, (amount, shares) => {
        const weights = shares.map((party) => BigInt(party.shareBps));
        const parts = largestRemainder(amount, weights);
        expect(sum(parts)).toBe(amount);
        parts.forEach((part, i) => {
          // |part - amount * w / 10000| < 1  <=>  |part * 10000 - amount * w| < 10000
          expect(abs(part * 10_000n - amount * weights[i]!) < 10_000n).toBe(true);
          if (weights[i] === 0n) expect(part).toBe(0n);
        });
        expect(largestRemainder(-amount, weights)).toEqual(parts.map((part) => -part));
      }),
      { numRuns: 3000 },
    );
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
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 0, max: 10_000 }), (amount, bps) => {
        const { commission, net } = commissionSplit(amount, bps);
        expect(commission + net).toBe(amount);
        expect(abs(commission * 10_000n - amount * BigInt(bps)) <= 5_000n).toBe(true);
        expect(commissionSplit(-amount, bps)).toEqual({ commission: -commission, net: -net });
      }),
      RUNS,
    );
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
    expect(() =>
      allocateToSplit(
        1n,
        [
          { key: "a", shareBps: 5000 },
          { key: "a", shareBps: 5000 },
        ],
        null,
      ),
    ).toThrow(/twice/);
    expect(() => allocateToSplit(1n, [{ key: "a", shareBps: 10_000.5 }], null)).toThrow();
    expect(() =>
      allocateToSplit(
        1n,
        [
          { key: "a", shareBps: 10_001 },
          { key: "b", shareBps: -1 },
        ],
        null,
      ),
    ).toThrow();
    const one = [{ key: "a", shareBps: 10_000 }];
    expect(() => allocateToSplit(1n, one, { partyKey: "z", amountMicros: 1n, recoupedSoFarMicros: 0n })).toThrow(/not one of/);
    expect(() => allocateToSplit(1n, one, { partyKey: "a", amountMicros: -1n, recoupedSoFarMicros: 0n })).toThrow();
    expect(() => allocateToSplit(1n, one, { partyKey: "a", amountMicros: 1n, recoupedSoFarMicros: -1n })).toThrow();
  });

  it("property: parts sum exactly, percentage parts stay within one micro of the exact share", () => {
    const recoupArb = (parties: SplitParty[]) =>
      fc.option(
        fc
          .record({
            party: fc.constantFrom(...parties.map((party) => party.key)),
            amountMicros: fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }),
            soFar: fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }),
          })
          .map(({ party, amountMicros, soFar }) => ({ partyKey: party, amountMicros, recoupedSoFarMicros: soFar % (amountMicros + 1n) })),
        { freq: 2 },
      );
    const caseArb = sharesArb.chain((parties) => fc.tuple(fc.constant(parties), amountArb, recoupArb(parties)));
    fc.assert(
      fc.property(caseArb, ([parties, amount, recoup]) => {
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
      }),
      RUNS,
    );
  });

  it("property: a sale and its full refund net every party to zero and restore the recouped total", () => {
    const caseArb = sharesArb.chain((parties) =>
      fc.record({
        parties: fc.constant(parties),
        sale: amountArb.map(abs),
        partyKey: fc.constantFrom(...parties.map((party) => party.key)),
        recoupAmount: fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }),
        soFarSeed: fc.option(fc.bigInt({ min: 0n, max: 10n ** 16n - 1n })),
      }),
    );
    fc.assert(
      fc.property(caseArb, ({ parties, sale, partyKey, recoupAmount, soFarSeed }) => {
        // The states where the rule promises an exact mirror: nothing recouped yet, or a sale that the
        // open recoup absorbs whole.
        const soFar = soFarSeed === null ? 0n : recoupAmount > sale ? soFarSeed % (recoupAmount - sale + 1n) : 0n;
        const recoup = { partyKey, amountMicros: recoupAmount, recoupedSoFarMicros: soFar };

        const forward = allocateToSplit(sale, parties, recoup);
        const back = allocateToSplit(-sale, parties, { ...recoup, recoupedSoFarMicros: soFar + forward.recoupedMicros });
        forward.parts.forEach((part, i) => {
          expect(part.amountMicros + back.parts[i].amountMicros).toBe(0n);
          expect(part.recoupMicros + back.parts[i].recoupMicros).toBe(0n);
        });
        expect(soFar + forward.recoupedMicros + back.recoupedMicros).toBe(soFar);
      }),
      RUNS,
    );
  });

  it("property: without a recoup, a refund mirrors its sale from any state", () => {
    fc.assert(
      fc.property(sharesArb, amountArb, (parties, amount) => {
        const forward = allocateToSplit(amount, parties, null);
        const back = allocateToSplit(-amount, parties, null);
        forward.parts.forEach((part, i) => expect(part.amountMicros + back.parts[i]!.amountMicros).toBe(0n));
      }),
      { numRuns: 1000 },
    );
  });
});
