/**
 * A process that uses the embedded PostgreSQL in a DATA_DIR (tests/integration/embedded-postgres.test.ts):
 * starts it (or uses the one running), prints one JSON line, then stops on a line on stdin (or is killed).
 *
 *   node --import tsx tests/integration/support/embedded-child.ts <dataDir>
 */
import { startEmbeddedPostgres } from "../../../app/db/embedded-postgres.server";

const server = await startEmbeddedPostgres({ dataDir: process.argv[2]!, fastInit: true });
process.stdout.write(`${JSON.stringify({ url: server.url, owned: server.owned, notes: server.notes })}\n`);
process.stdin.once("data", async () => {
  await server.stop();
  process.exit(0);
});
