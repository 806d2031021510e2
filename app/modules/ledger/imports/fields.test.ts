import { describe, expect, it } from "vitest";
import { normaliseHeader, normaliseIpi, normaliseIsrc, normaliseIswc, normaliseUpc, parseDay, parseMonth, parseQuarter } from "./fields";

describe("identifier normalisation (the matching keys)", () => {
  it("ISRC: hyphens, spaces and case ignored; anything else is not an ISRC", () => {
    expect(normaliseIsrc("us-bl1-26-00001")).toBe("USBL12600001");
    expect(normaliseIsrc(" US BL1 26 00001 ")).toBe("USBL12600001");
    expect(normaliseIsrc("USBL1260001")).toBeNull(); // 11 characters
    expect(normaliseIsrc("USBL12600001X")).toBeNull();
    expect(normaliseIsrc("U1BL12600001")).toBeNull(); // country code must be letters
  });

  it("UPC/EAN: leading zeros ignored; all zeros is none", () => {
    expect(normaliseUpc("00602557123456")).toBe("602557123456");
    expect(normaliseUpc("0602557123456")).toBe(normaliseUpc("602557123456"));
    expect(normaliseUpc("000000")).toBe("");
    expect(normaliseUpc("6.02557E+11")).toBeNull();
  });

  it("ISWC: separators and case ignored", () => {
    expect(normaliseIswc("T-345.246.800-1")).toBe("T3452468001");
    expect(normaliseIswc("t3452468001")).toBe("T3452468001");
    expect(normaliseIswc("T-345.246.800")).toBeNull();
  });

  it("IPI/CAE: the 11-digit name number, a CAE number or dropped zeros padded", () => {
    expect(normaliseIpi("00523456789")).toBe("00523456789");
    expect(normaliseIpi("523456789")).toBe("00523456789");
    expect(normaliseIpi("005.234.567-89")).toBe("00523456789");
    expect(normaliseIpi("123456789012")).toBeNull(); // 12 digits
    expect(normaliseIpi("I-000000229-7")).toBeNull(); // an IPI base number, not a name number
    expect(normaliseIpi("0")).toBeNull();
  });

  it("headers: case, spacing and BOM ignored", () => {
    expect(normaliseHeader("\uFEFF  Earnings   (USD) ")).toBe("earnings (usd)");
  });
});

describe("dates and periods", () => {
  it("reads ISO days, with US days only when asked", () => {
    expect(parseDay("2026-03-31")).toBe("2026-03-31");
    expect(parseDay("2026-03-01T00:00:00Z")).toBe("2026-03-01");
    expect(parseDay("2026-02-29")).toBeNull();
    expect(parseDay("2028-02-29")).toBe("2028-02-29");
    expect(parseDay("3/31/2026")).toBeNull();
    expect(parseDay("3/31/2026", { us: true })).toBe("2026-03-31");
    expect(parseDay("7/31/2023 12:00:00 AM", { us: true })).toBe("2023-07-31");
    expect(parseDay("03-31-2026", { us: true })).toBe("2026-03-31");
    expect(parseDay("31/03/2026", { us: true })).toBeNull();
  });

  it("reads YYYY-MM months as the whole month", () => {
    expect(parseMonth("2026-02")).toEqual({ start: "2026-02-01", end: "2026-02-28" });
    expect(parseMonth("2028-02")).toEqual({ start: "2028-02-01", end: "2028-02-29" });
    expect(parseMonth("2026-12")).toEqual({ start: "2026-12-01", end: "2026-12-31" });
    expect(parseMonth("2026-13")).toBeNull();
  });

  it("reads quarters as BMI and ASCAP write them", () => {
    const q1 = { start: "2026-01-01", end: "2026-03-31" };
    for (const text of ["20261", "2026Q1", "2026-Q1", "1Q2026", "Q1 2026"]) expect(parseQuarter(text)).toEqual(q1);
    expect(parseQuarter("20234")).toEqual({ start: "2023-10-01", end: "2023-12-31" });
    expect(parseQuarter("20265")).toBeNull();
    expect(parseQuarter("12026")).toBeNull(); // ambiguous without a Q
  });
});
