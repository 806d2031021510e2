import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.server";

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "backline-env-"));

describe("settings", () => {
  it("has safe defaults and a generated, persisted secret outside production", () => {
    const dir = dataDir();
    const first = loadEnv({ APP_ENV: "local", DATA_DIR: dir } as NodeJS.ProcessEnv);
    expect(first.PORT).toBe(3000);
    expect(first.APP_NAME).toBe("Backline");
    expect(first.APP_URL).toBe("http://localhost:3000");
    expect(first.DATABASE_URL).toBeUndefined();
    expect(first.SEED_DEMO_DATA).toBe(true);
    expect(first.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
    const second = loadEnv({ APP_ENV: "local", DATA_DIR: dir } as NodeJS.ProcessEnv);
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
  });

  it("requires the secrets in production and never seeds demo data there by default", () => {
    expect(() => loadEnv({ DATA_DIR: dataDir() } as NodeJS.ProcessEnv)).toThrow(
      /SESSION_SECRET: required when APP_ENV=production[\s\S]*REALTIME_SECRET: required/,
    );
    expect(() => loadEnv({ SESSION_SECRET: "x".repeat(32), DATA_DIR: dataDir() } as NodeJS.ProcessEnv)).toThrow(/REALTIME_SECRET: required/);
    const prod = loadEnv({ SESSION_SECRET: "x".repeat(32), REALTIME_SECRET: "r".repeat(16), DATA_DIR: dataDir() } as NodeJS.ProcessEnv);
    expect(prod.isProduction).toBe(true);
    expect(prod.SEED_DEMO_DATA).toBe(false);
  });

  it("names every bad value in one message", () => {
    expect(() => loadEnv({ APP_ENV: "local", PORT: "abc", APP_URL: "not a url", SESSION_SECRET: "short", DATA_DIR: dataDir() } as NodeJS.ProcessEnv)).toThrow(
      /PORT:[\s\S]*APP_URL:[\s\S]*SESSION_SECRET: must be at least 32 characters/,
    );
  });

  it("treats blank values as unset", () => {
    const e = loadEnv({ APP_ENV: "local", DATABASE_URL: "", SMTP_URL: " ", DATA_DIR: dataDir() } as NodeJS.ProcessEnv);
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.SMTP_URL).toBeUndefined();
  });
});
