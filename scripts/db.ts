// `npm run db:migrate` / `npm run db:seed`: the same boot the server runs, then stop. With the embedded
// PostgreSQL they use the server's running database when it runs (and leave it running), or start it.
import { boot, databaseDescription, shutdown } from "../app/boot.server";
import { seedDemoData } from "../app/db/seed.server";

const command = process.argv[2];
process.env.SEED_DEMO_DATA ??= "false";
process.env.APP_ENV ??= "local";
await boot();
if (command === "seed") {
  await seedDemoData();
  console.log(`Demo data is in place (${databaseDescription()}).`);
} else if (command === "migrate") {
  console.log("Migrations applied.");
} else {
  console.error("usage: tsx scripts/db.ts migrate|seed");
  process.exitCode = 2;
}
await shutdown();
