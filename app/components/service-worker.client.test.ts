import { describe, expect, it } from "vitest";
import { isLogoutAction } from "./service-worker.client";

describe("isLogoutAction", () => {
  it("matches form actions that end with /logout", () => {
    expect(isLogoutAction("/logout")).toBe(true);
    expect(isLogoutAction("http://localhost:3000/logout")).toBe(true);
    expect(isLogoutAction("https://backline.example/admin/logout/")).toBe(true);
    expect(isLogoutAction("/logout?redirect=%2F")).toBe(true);
  });

  it("ignores every other form", () => {
    expect(isLogoutAction("/login")).toBe(false);
    expect(isLogoutAction("/logout-everywhere")).toBe(false);
    expect(isLogoutAction("/member/3/profile?logout")).toBe(false);
    expect(isLogoutAction("")).toBe(false);
    expect(isLogoutAction(null)).toBe(false);
  });
});
