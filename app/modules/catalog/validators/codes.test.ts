import { describe, expect, it } from "vitest";
import { isrcFromRange, isrcProblem, iswcProblem, normalizeIsrc, normalizeIswc, upcFromRange, upcProblem } from "./codes";

describe("UPC / EAN", () => {
  it.each(["196589000019", "196589000026", "036000291452", "4006381333931", "1965-8900-0019"])("accepts %s", (code) => {
    expect(upcProblem(code)).toBeNull();
  });
  it("names the expected check digit", () => {
    expect(upcProblem("196589000018")).toBe("The UPC's check digit is wrong: expected 9.");
    expect(upcProblem("4006381333932")).toBe("The UPC's check digit is wrong: expected 1.");
  });
  it.each(["", "19658900001", "1965890000190x", "abcdefghijkl"])("refuses the malformed %j", (code) => {
    expect(upcProblem(code)).toBe("A UPC has 12 digits (or an EAN 13).");
  });
  it("assigns valid codes from a range", () => {
    expect(upcFromRange("1965890", 1)).toBe("196589000019");
    expect(upcFromRange("1965890", 2)).toBe("196589000026");
    expect(upcProblem(upcFromRange("1965890", 9_999))).toBeNull();
    expect(() => upcFromRange("1965890", 10_000)).toThrow(RangeError);
  });
});

describe("ISRC", () => {
  it("normalises hyphens, spaces and case", () => {
    expect(normalizeIsrc("us-bl1-26-00001")).toBe("USBL12600001");
    expect(isrcProblem("US-BL1-26-00001")).toBeNull();
  });
  it.each(["USBL1260000", "USBL126000011", "1SBL12600001", "USBL1A600001", "US_BL12600001"])("refuses %s", (code) => {
    expect(isrcProblem(code)).toMatch(/^An ISRC is 12 characters/);
  });
  it("assigns codes from a stem", () => {
    expect(isrcFromRange("USBL126", 5)).toBe("USBL12600005");
    expect(() => isrcFromRange("USBL126", 100_000)).toThrow(RangeError);
  });
});

describe("ISWC", () => {
  // The demo catalogue's works (shared/DEMO.md).
  it.each(["T-345.246.800-3", "T-345.246.801-4", "T-345.246.802-5", "T-345.246.803-6", "T3452468003", " t-345.246.800-3 "])("accepts %j", (code) => {
    expect(iswcProblem(code)).toBeNull();
  });
  it("normalises to the printed form", () => {
    expect(normalizeIswc("T3452468003")).toBe("T-345.246.800-3");
  });
  it("names the expected check digit, and refuses other shapes", () => {
    expect(iswcProblem("T-345.246.800-4")).toBe("The ISWC's check digit is wrong: expected 3.");
    expect(iswcProblem("345.246.800-3")).toBe("An ISWC looks like T-345.246.800-3.");
    expect(iswcProblem("T-345.246.80-3")).toBe("An ISWC looks like T-345.246.800-3.");
  });
});
