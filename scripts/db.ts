// `npm run db:migrate` / `npm run db:seed`: the same boot the server runs, then stop.
// PGlite admits one process at a time: stop the server before running these against DATA_DIR.
import { boot, shutdown } from "../app/boot.server";
import { seedDemoData } from "../app/db/seed.server";

const command = process.argv[2];
process.env.SEED_DEMO_DATA ??= "false";
process.env.APP_ENV ??= "local";
const { env } = await boot();
if (command === "seed") {
  await seedDemoData();
  console.log(`Demo data is in place (${env.DATABASE_URL ? "PostgreSQL" : `PGlite in ${env.DATA_DIR}`}).`);
} else if (command === "migrate") {
  console.log("Migrations applied.");
} else {
  console.error("usage: tsx scripts/db.ts migrate|seed");
  process.exitCode = 2;
}
await shutdown();
