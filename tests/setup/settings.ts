import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { loadEnv, resetEnvForTests } from "~/env.server";
import { resetDeviceCookieForTests } from "~/modules/accounts/device-cookie.server";
import { resetSessionStorageForTests } from "~/modules/accounts/session.server";
import { resetMailerForTests } from "~/modules/mail/mailer.server";

/** Every test file starts with the same known settings and its own DATA_DIR. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-test-"));

export const TEST_SETTINGS = {
  APP_ENV: "test",
  APP_URL: "http://localhost:3999",
  DATA_DIR: dataDir,
  STORAGE_DIR: path.join(dataDir, "storage"),
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
};

export function useTestSettings(extra: Record<string, string> = {}) {
  resetEnvForTests(loadEnv({ ...TEST_SETTINGS, ...extra } as NodeJS.ProcessEnv));
  resetMailerForTests();
  resetSessionStorageForTests();
  resetDeviceCookieForTests();
}

useTestSettings();

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
