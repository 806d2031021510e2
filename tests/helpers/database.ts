import crypto from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { migrateDatabase, openDatabase, setDatabase, type Database } from "~/db/client.server";

/**
 * Gives the calling test file its own empty, migrated database: PGlite in memory, or (in the
 * "postgres" project) a fresh database created beside TEST_DATABASE_URL and dropped afterwards.
 */
export function useTestDatabase() {
  let database: Database | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (process.env.TEST_DB === "postgres") {
      const { default: pg } = await import("pg");
      const adminUrl = process.env.TEST_DATABASE_URL!;
      const name = `backline_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      database = await openDatabase({ databaseUrl: url.toString() });
      await migrateDatabase(database, { databaseUrl: url.toString() });
      dropDatabase = async () => {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        // pool.end() resolves before its sockets are gone; dropping then would kill a closing
        // connection (FATAL 57P01 as an unhandled error). Wait for them to leave, at most ~1 s.
        for (let i = 0; i < 50; i++) {
          const { rows } = await client.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      };
    } else {
      database = await openDatabase({});
      await migrateDatabase(database, {});
    }
    setDatabase(database);
  });

  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    await dropDatabase?.();
  });
}
