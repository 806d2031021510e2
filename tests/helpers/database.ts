import crypto from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/db/client.server";
import { registerJobs } from "~/modules/jobs/registry.server";
import { adminQuery, databaseUrl, dropDatabase } from "./database-admin";

/**
 * A new database of its own for a test, copied from the run's migrated template (tests/setup/database-server.ts:
 * the embedded PostgreSQL, or TEST_DATABASE_URL's server). `drop()` removes it.
 */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const { adminUrl, template } = inject("testDatabase");
  const name = `backline_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name} template ${template}`);
  return { name, url: databaseUrl(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * Gives the calling test file its own empty, migrated database, dropped after its tests, and registers every job's
 * handler as boot() does (a service under test may enqueue one).
 */
export function useTestDatabase() {
  let database: Database | undefined;
  let created: Awaited<ReturnType<typeof createTestDatabase>> | undefined;

  beforeAll(async () => {
    registerJobs();
    created = await createTestDatabase();
    database = await openDatabase(created.url);
    setDatabase(database);
  });

  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    await created?.drop();
  });
}
