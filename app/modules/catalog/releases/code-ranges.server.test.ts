import { describe, expect, it } from "vitest";
import { setConfigValue } from "~/modules/config/config.server";
import { isrcProblem, upcProblem } from "~/modules/catalog/validators/codes";
import { useTestDatabase } from "../../../../tests/helpers/database";
import { assignIsrc, assignUpc } from "./code-ranges.server";

useTestDatabase();

describe("assignUpc / assignIsrc", () => {
  it("hands out consecutive valid codes from the configured ranges", async () => {
    await setConfigValue("catalog_upc_prefix", "196589");
    await setConfigValue("catalog_upc_last_number", 41);
    const upc = await assignUpc();
    expect(upc.slice(0, 11)).toBe("19658900042");
    expect(upcProblem(upc)).toBeNull();
    await setConfigValue("catalog_isrc_stem", "USBL126");
    await setConfigValue("catalog_isrc_last_number", "7");
    expect(await assignIsrc()).toBe("USBL12600008");
    expect(isrcProblem(await assignIsrc())).toBeNull();
  });

  it("never hands out the same code twice to concurrent callers", async () => {
    const upcs = await Promise.all(Array.from({ length: 12 }, () => assignUpc()));
    expect(new Set(upcs).size).toBe(12);
    const isrcs = await Promise.all(Array.from({ length: 12 }, () => assignIsrc()));
    expect(new Set(isrcs).size).toBe(12);
  });
});
