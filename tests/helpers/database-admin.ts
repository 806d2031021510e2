/** Creating and dropping databases on the test server (tests/setup/database-server.ts). */

export async function adminQuery(adminUrl: string, text: string, values?: unknown[]) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The URL of another database on the same server. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops a database once its sessions are gone: pool.end() resolves before its sockets close, and dropping
 * then would kill a closing connection (FATAL 57P01 as an unhandled error). Waits at most ~1 s.
 */
export async function dropDatabase(adminUrl: string, name: string) {
  for (let i = 0; i < 50; i++) {
    const { rows } = await adminQuery(adminUrl, "select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
}
