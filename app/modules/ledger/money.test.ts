import BigJs from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MICROS_PER_UNIT,
  MoneyParseError,
  centsToMicros,
  convertToHomeMicros,
  formatCents,
  formatMicros,
  microsToCentsFloor,
  parseDecimalToMicros,
  parseDollarsToCents,
  DECIMAL_COMMA_MESSAGE,
  dollarsField,
  parseExchangeRate,
} from "./money";

describe("parseDecimalToMicros", () => {
  it("parses plain decimals to micro-units", () => {
    expect(MICROS_PER_UNIT).toBe(1_000_000n);
    expect(parseDecimalToMicros("12")).toBe(12_000_000n);
    expect(parseDecimalToMicros("12.345678")).toBe(12_345_678n);
    expect(parseDecimalToMicros("-0.000001")).toBe(-1n);
    expect(parseDecimalToMicros("+3.5")).toBe(3_500_000n);
    expect(parseDecimalToMicros(".5")).toBe(500_000n);
    expect(parseDecimalToMicros("-.25")).toBe(-250_000n);
    expect(parseDecimalToMicros("  7.1  ")).toBe(7_100_000n);
    expect(parseDecimalToMicros("0")).toBe(0n);
    expect(parseDecimalToMicros("-0")).toBe(0n);
    expect(parseDecimalToMicros("000012.50")).toBe(12_500_000n);
  });

  it("rounds the 7th+ decimal half-to-even on the magnitude, once", () => {
    expect(parseDecimalToMicros("0.0000005")).toBe(0n); // tie, 0 is even
    expect(parseDecimalToMicros("0.0000015")).toBe(2n); // tie, 1 is odd -> 2
    expect(parseDecimalToMicros("0.0000025")).toBe(2n); // tie, 2 is even
    expect(parseDecimalToMicros("0.00000051")).toBe(1n); // above the tie
    expect(parseDecimalToMicros("0.00000049999")).toBe(0n);
    expect(parseDecimalToMicros("-1.2345675")).toBe(-1_234_568n); // sign mirrored: ...7|5 -> ...8
    expect(parseDecimalToMicros("-1.2345685")).toBe(-1_234_568n); // ...8|5 stays even
    expect(parseDecimalToMicros("-0.0000005")).toBe(0n);
    expect(parseDecimalToMicros("-0.0000015")).toBe(-2n);
    // Rounded once on the full string, not digit by digit: 0.00000149 would become 1 here, not 2.
    expect(parseDecimalToMicros("0.00000149")).toBe(1n);
  });

  it("keeps full precision for large amounts (no float in the way)", () => {
    expect(parseDecimalToMicros("9007199254740993.123457")).toBe(9_007_199_254_740_993_123_457n);
    expect(parseDecimalToMicros("123456789012345678901234.5")).toBe(123_456_789_012_345_678_901_234_500_000n);
  });

  it.each(["", "   ", "1e3", "1E-2", "1,000.00", "12,50", "$12", "12 000", "abc", "--1", "+-1", "0x10", "Infinity", "NaN", ".", "-", "1.2.3"])(
    "refuses %j with a MoneyParseError naming the value",
    (input) => {
      expect(() => parseDecimalToMicros(input)).toThrow(MoneyParseError);
      try {
        parseDecimalToMicros(input);
      } catch (error) {
        expect((error as MoneyParseError).message).toContain(`“${input.trim()}”`);
        expect((error as MoneyParseError).value).toBe(input);
      }
    },
  );
});

describe("the exact parser against big.js", () => {
  // The reference: big.js rounds the magnitude half-to-even (rounding mode 2) and keeps the sign.
  const Reference = BigJs();
  Reference.strict = true;
  const reference = (text: string) => BigInt(new Reference(text.replace(/^\+/, "")).round(6, 2).times("1000000").toFixed(0));
  const referenceConvert = (micros: bigint, rate: string) => BigInt(new Reference(micros.toString()).times(rate).round(0, 2).toFixed(0));

  /** Decimal texts: an optional sign, whole digits (or none), up to 12 decimals, with half-way ties made often. */
  const decimalArb = fc
    .record({
      sign: fc.constantFrom("", "-", "+"),
      whole: fc.option(fc.bigInt({ min: 0n, max: 10n ** 10n }).map(String), { freq: 4 }),
      fraction: fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 12 }),
      tie: fc.option(fc.nat(3)),
    })
    .map(({ sign, whole, fraction, tie }) => {
      const digits = tie !== null && fraction.length > 6 ? fraction.slice(0, 6) + "5" + "0".repeat(tie) : fraction;
      if (whole === null && digits === "") return "0";
      return whole === null ? `${sign}.${digits || "0"}` : `${sign}${whole}${digits ? `.${digits}` : ""}`;
    });

  it("agrees with big.js on random decimals (up to 12 decimals, ties included)", () => {
    fc.assert(
      fc.property(decimalArb, (text) => {
        expect(parseDecimalToMicros(text), text).toBe(reference(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it("converts like big.js on random amounts and rates", () => {
    const rateArb = fc
      .tuple(fc.nat(2), fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 9 }))
      .map(([whole, fraction]) => `${whole}.${fraction}`)
      .filter((rate) => Number(rate) !== 0);
    fc.assert(
      fc.property(fc.bigInt({ min: -1_000_000_000n, max: 1_000_000_000n }), rateArb, (micros, rate) => {
        expect(convertToHomeMicros(micros, rate), `${micros} x ${rate}`).toBe(referenceConvert(micros, rate));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("exchange rates", () => {
  it("converts to home micro-units, rounding half-to-even once", () => {
    expect(convertToHomeMicros(10_000_000n, "1.0832")).toBe(10_832_000n);
    expect(convertToHomeMicros(1n, "0.5")).toBe(0n); // 0.5 -> 0 (even)
    expect(convertToHomeMicros(3n, "0.5")).toBe(2n); // 1.5 -> 2
    expect(convertToHomeMicros(-3n, "0.5")).toBe(-2n); // mirrored
    expect(convertToHomeMicros(-1n, "0.5")).toBe(0n);
    expect(convertToHomeMicros(123_456_789n, "1.23456789")).toBe(152_415_788n); // 152415787.50190521 -> up
    expect(convertToHomeMicros(0n, "1.1")).toBe(0n);
  });

  it.each(["0", "-1.1", "", "1e2", "1,08", "abc"])("refuses the rate %j", (rate) => {
    expect(() => convertToHomeMicros(1_000_000n, rate)).toThrow(MoneyParseError);
  });

  it("normalises a checked rate", () => {
    expect(parseExchangeRate(" +1.0832 ")).toBe("1.0832");
    expect(parseExchangeRate(".79")).toBe(".79");
  });
});

describe("formatMicros", () => {
  it("always shows six decimals", () => {
    expect(formatMicros(12_345_678n)).toBe("12.345678");
    expect(formatMicros(-1n)).toBe("-0.000001");
    expect(formatMicros(0n)).toBe("0.000000");
    expect(formatMicros(-12_000_000n)).toBe("-12.000000");
    expect(formatMicros(10n ** 24n + 5n)).toBe("1000000000000000000.000005");
  });

  it("round-trips with parseDecimalToMicros", () => {
    for (const micros of [0n, 1n, -1n, 999_999n, 1_000_000n, -123_456_789_012n]) {
      expect(parseDecimalToMicros(formatMicros(micros))).toBe(micros);
    }
  });
});

describe("cents", () => {
  it("floors micro-units to whole cents toward negative infinity", () => {
    expect(microsToCentsFloor(12_349_999n)).toBe(1234n);
    expect(microsToCentsFloor(12_340_000n)).toBe(1234n);
    expect(microsToCentsFloor(9_999n)).toBe(0n);
    expect(microsToCentsFloor(0n)).toBe(0n);
    expect(microsToCentsFloor(-1n)).toBe(-1n);
    expect(microsToCentsFloor(-10_000n)).toBe(-1n);
    expect(microsToCentsFloor(-10_001n)).toBe(-2n);
  });

  it("converts cents back to micro-units", () => {
    expect(centsToMicros(1234n)).toBe(12_340_000n);
    expect(centsToMicros(-1n)).toBe(-10_000n);
  });

  it("parses a money form field: dollars and cents, a dollar sign, thousands separators", () => {
    expect(parseDollarsToCents("12.34")).toBe(1234n);
    expect(parseDollarsToCents("12")).toBe(1200n);
    expect(parseDollarsToCents("12.3")).toBe(1230n);
    expect(parseDollarsToCents(" 0.05 ")).toBe(5n);
    expect(parseDollarsToCents("0")).toBe(0n);
    expect(parseDollarsToCents("$12")).toBe(1200n);
    expect(parseDollarsToCents("1,000")).toBe(100_000n);
    expect(parseDollarsToCents("$1,234,567.89")).toBe(123_456_789n);
  });

  it.each(["", " ", "-1", "+1", "12.345", ".5", "12.", "1e2", "12 USD", "abc", "$", "$$1"])("refuses the amount %j with a user-facing message", (input) => {
    expect(() => parseDollarsToCents(input)).toThrow(new MoneyParseError("Enter an amount such as 12.34.", input));
  });

  it.each(["10,00", "12,34", "1,00,000", "1,0000", ",100", "100,", "1,000,00", "1.000,00", "1,000.5,0"])(
    "refuses %j: a comma that is not a thousands separator is never read as a point or dropped",
    (input) => {
      expect(() => parseDollarsToCents(input)).toThrow(new MoneyParseError(DECIMAL_COMMA_MESSAGE, input));
    },
  );

  it("gives a schema a field's cents or its message", () => {
    expect(dollarsField("1,500.50", "Enter a budget.")).toEqual({ cents: 150_050n });
    expect(dollarsField("10,00", "Enter a budget.")).toEqual({ error: DECIMAL_COMMA_MESSAGE });
    expect(dollarsField("ten", "Enter a budget.")).toEqual({ error: "Enter a budget." });
    expect(dollarsField("", "Enter a budget.")).toEqual({ error: "Enter a budget." });
    expect(dollarsField("0", "Enter a budget.", { min: 1n })).toEqual({ error: "Enter a budget." });
  });

  it("formats cents with integer arithmetic", () => {
    expect(formatCents(123_456n)).toBe("$1,234.56");
    expect(formatCents(-100n)).toBe("-$1.00");
    expect(formatCents(0n)).toBe("$0.00");
    expect(formatCents(5n)).toBe("$0.05");
    expect(formatCents(123_456_789_012n)).toBe("$1,234,567,890.12");
    expect(formatCents(100_000n, "EUR")).toBe("€1,000.00");
    expect(formatCents(-250n, "cad")).toBe("-CAD 2.50");
  });
});
