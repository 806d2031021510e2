import { describe, expect, it } from "vitest";
import { periodName, statementName } from "./statement-name";

describe("a statement's name for members", () => {
  it("says where the money came from and which months, never the uploaded file", () => {
    expect(statementName({ kind: "digital", layout: "distrokid", statementId: null, firstMonth: "2026-03", lastMonth: "2026-03" })).toBe(
      "DistroKid · March 2026",
    );
    expect(statementName({ kind: "digital", layout: "canonical-digital", statementId: "BL-2026-03", firstMonth: "2026-01", lastMonth: "2026-03" })).toBe(
      "Digital sales · Jan – Mar 2026",
    );
    expect(statementName({ kind: "pro", layout: "bmi", statementId: null, firstMonth: "2025-11", lastMonth: "2026-02" })).toBe("BMI · Nov 2025 – Feb 2026");
    expect(statementName({ kind: "license", layout: "canonical-license", statementId: null, firstMonth: null, lastMonth: null })).toBe("Licensing");
    expect(statementName({ kind: null, layout: null, statementId: null, firstMonth: null, lastMonth: null })).toBe("Statement");
  });

  it("names a period of one month, months of one year and months across years", () => {
    expect(periodName("2026-07", "2026-07")).toBe("July 2026");
    expect(periodName("2026-07", null)).toBe("July 2026");
    expect(periodName("2026-06", "2026-12")).toBe("Jun – Dec 2026");
    expect(periodName("2026-12", "2027-01")).toBe("Dec 2026 – Jan 2027");
    expect(periodName(null, null)).toBeNull();
  });
});
