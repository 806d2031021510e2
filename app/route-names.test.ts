import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pathForRoute, ROUTE_NAMES } from "./route-names";

describe("route names", () => {
  it("builds paths with the member id, resource id and hash", () => {
    expect(pathForRoute("member-dashboard", { memberId: 7 })).toBe("/member/7/dashboard");
    expect(pathForRoute("admin-member", { id: 12, hash: "access" })).toBe("/admin/member/12#access");
    expect(pathForRoute("legal-terms-document", { id: "privacy-policy" })).toBe("/legal-terms/privacy-policy");
  });

  it("gives nothing for an unknown name or a missing parameter", () => {
    expect(pathForRoute("no-such-page", { memberId: 7 })).toBeNull();
    expect(pathForRoute("admin-member", {})).toBeNull();
    expect(pathForRoute(null)).toBeNull();
  });

  it("names only routes that exist (each is some route module's handle.routeName)", () => {
    const dir = path.join(__dirname, "routes");
    const declared = new Set(
      fs
        .readdirSync(dir)
        .map((file) => fs.readFileSync(path.join(dir, file), "utf8").match(/routeName: "([^"]+)"/)?.[1])
        .filter(Boolean),
    );
    for (const name of ROUTE_NAMES) expect(declared, name).toContain(name);
  });
});
