import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "~/db/client.server";
import { startEmbeddedPostgres, stopAbandonedServer } from "~/db/embedded-postgres.server";
import { adminQuery, databaseUrl, dropDatabase } from "../helpers/database-admin";

/**
 * Vitest's global setup (decision 003): one PostgreSQL server for the whole run and one migrated template
 * database on it; each test file then gets its own database copied from the template
 * (tests/helpers/database.ts). The server is an embedded PostgreSQL in a temporary folder, the engine the
 * product runs on, tuned for throwaway data (no fsync), or TEST_DATABASE_URL's server when it is set.
 */
const FOLDER_PREFIX = "backline-vitest-";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: { adminUrl: string; template: string };
  }
}

export default async function setup(project: TestProject) {
  await removeAbandonedClusters();
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), FOLDER_PREFIX));
    const server = await startEmbeddedPostgres({
      dataDir,
      database: "postgres",
      fastInit: true,
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
    });
    adminUrl = server.adminUrl;
    stopServer = async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const template = `backline_template_${process.pid}`;
  try {
    await adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
    await adminQuery(adminUrl, `create database ${template}`);
    const database = await openDatabase(databaseUrl(adminUrl, template));
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
  } catch (error) {
    await stopServer();
    throw error;
  }
  project.provide("testDatabase", { adminUrl, template });
  return async () => {
    await dropDatabase(adminUrl, template).catch((error) => console.error(error));
    await stopServer();
  };
}

/** Clusters of earlier runs that were killed before their teardown: stopped, and their folders removed. */
async function removeAbandonedClusters() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dataDir = path.join(os.tmpdir(), name);
    try {
      // A folder without an owner file yet may be a run starting right now: only older ones.
      const young = Date.now() - fs.statSync(dataDir).mtimeMs < 10 * 60_000 && !fs.existsSync(path.join(dataDir, "postgres-owner.pid"));
      if (!young && (await stopAbandonedServer(dataDir))) fs.rmSync(dataDir, { recursive: true, force: true });
    } catch {
      // Another run's, or gone already.
    }
  }
}
