import { describe, expect, it } from "vitest";
import { continuousMonths, formatChartValue, monthTick, niceTicks, sharePercent, spacedTicks, ticksThatFit, truncateLabel, valueAxis } from "./chart-scales";

describe("chart values", () => {
  it("shows cents as dollars with thousands separators, and counts grouped", () => {
    expect(formatChartValue(4_319_243, "cents", { locale: "en-US" })).toBe("$43,192.43");
    expect(formatChartValue(4_500_000, "cents", { locale: "en-US", whole: true })).toBe("$45,000");
    expect(formatChartValue(-99, "cents", { locale: "en-US" })).toBe("-$0.99");
    expect(formatChartValue(150_216, "count", { locale: "en-US" })).toBe("150,216");
    expect(formatChartValue(4_500_000, "cents", { locale: "de-DE", whole: true })).toMatch(/^45\.000\s\$$/);
  });
});

describe("ticks", () => {
  it("are round dollars, never more than asked, and reach past the largest value", () => {
    const ticks = niceTicks(0, 4_519_243, 6, "cents");
    expect(ticks).toEqual([0, 1_000_000, 2_000_000, 3_000_000, 4_000_000, 5_000_000]);
    expect(niceTicks(0, 4_519_243, 3, "cents")).toEqual([0, 5_000_000]);
    expect(niceTicks(0, 50, 6, "cents")).toEqual([0, 100]);
    expect(niceTicks(-12_000, 50_000, 8, "cents")).toEqual([-20_000, -10_000, 0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    expect(niceTicks(-12_000, 50_000, 5, "cents")).toEqual([-20_000, 0, 20_000, 40_000, 60_000]);
  });

  it("count whole things", () => {
    expect(niceTicks(0, 3, 10, "count")).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0, 0, 10, "count")).toEqual([0, 1]);
    expect(niceTicks(0, 7, 3, "count")).toEqual([0, 5, 10]);
  });

  it("fit their labels: fewer on a phone", () => {
    expect(ticksThatFit(300, 60)).toBe(4);
    expect(ticksThatFit(900, 60)).toBe(12);
    expect(ticksThatFit(10, 60)).toBe(2);
    const phone = valueAxis([15_300_000, 100], "cents", 220, true);
    const desktop = valueAxis([15_300_000, 100], "cents", 700, true);
    expect(phone.ticks.length).toBeLessThan(desktop.ticks.length);
    expect(phone.max).toBeGreaterThanOrEqual(15_300_000);
  });

  it("label every k-th month so labels never touch", () => {
    const months = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07"];
    expect(spacedTicks(months, 100, 56)).toEqual(months);
    expect(spacedTicks(months, 40, 56)).toEqual(["2026-01", "2026-03", "2026-05", "2026-07"]);
    expect(spacedTicks(months, 20, 56)).toEqual(["2026-01", "2026-05"]);
    // 600 months on 218 px: keys a third of a pixel apart still get labels 72 px apart.
    const decades = Array.from({ length: 600 }, (_, i) => String(i));
    const shown = spacedTicks(decades, 218 / 599, 56).map(Number);
    expect(shown.length).toBe(1 + Math.floor(599 / 198));
    expect((shown[1]! - shown[0]!) * (218 / 599)).toBeGreaterThanOrEqual(56 + 16);
  });
});

describe("months", () => {
  it("run without gaps: the months between carry zeros", () => {
    const rows = [
      { month: "2026-04", v: 1 },
      { month: "2025-11", v: 2 },
      { month: "2026-02", v: 3 },
    ];
    expect(
      continuousMonths(
        rows,
        (r) => r.month,
        (month) => ({ month, v: 0 }),
      ),
    ).toEqual([
      { month: "2025-11", v: 2 },
      { month: "2025-12", v: 0 },
      { month: "2026-01", v: 0 },
      { month: "2026-02", v: 3 },
      { month: "2026-03", v: 0 },
      { month: "2026-04", v: 1 },
    ]);
    const names = [{ k: "Spotify" }, { k: "Tidal" }];
    expect(
      continuousMonths(
        names,
        (r) => r.k,
        (k) => ({ k }),
      ),
    ).toBe(names);
  });

  it("carry their year on the first tick and on January", () => {
    expect(monthTick("2026-03", true, "en-US")).toBe("Mar 2026");
    expect(monthTick("2026-03", false, "en-US")).toBe("Mar");
    expect(monthTick("2027-01", false, "en-US")).toBe("Jan 2027");
    expect(monthTick("Spotify", false, "en-US")).toBe("Spotify");
  });
});

it("cuts a long name to its room with an ellipsis", () => {
  expect(truncateLabel("Apple Music", 140)).toBe("Apple Music");
  expect(truncateLabel("A Very Long Track Title (Extended Club Mix)", 105)).toBe("A Very Long Tr…");
});

it("gives a tiny slice a share that is not zero", () => {
  expect(sharePercent(98, 100)).toBe("98%");
  expect(sharePercent(1, 1000)).toBe("<1%");
  expect(sharePercent(0, 1000)).toBe("0%");
});
