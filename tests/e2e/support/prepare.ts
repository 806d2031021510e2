/**
 * Runs before the server starts (see playwright.config.ts webServer.command), in the same DATA_DIR:
 * opens the database (the embedded PostgreSQL, started here: migrations and demo data), creates the
 * accounts that cannot be made through the UI yet, and stops it again for the server to start.
 */
import { eq } from "drizzle-orm";
import { boot, shutdown } from "../../../app/boot.server";
import { db } from "../../../app/db/client.server";
import { users } from "../../../app/db/schema";
import { createPendingAccount, registerMember } from "../../../app/modules/accounts/accounts.server";
import { PENDING, UNSIGNED, UNSIGNED_PASSWORD } from "./accounts";
import { prepareAccountAdminAccounts } from "./prepare-account-admin";
import { prepareNotificationAccounts } from "./prepare-notifications";
import { prepareVersionAccounts } from "./prepare-versions";
import { prepareBandData } from "./prepare-band";
import { prepareDirectoryData } from "./prepare-directory";
import { prepareModerationData } from "./prepare-moderation";
import { prepareProfilesData } from "./prepare-profiles";
import { prepareReleasesData } from "./prepare-releases";
import { prepareSongsData } from "./prepare-songs";
import { prepareCreditsData } from "./prepare-credits";
import { prepareProjectData } from "./project-fixtures";
import { prepareWorkRequestData } from "./prepare-work-requests";
import { prepareLegalAdminData } from "./prepare-legal-admin";
import { preparePostProductionData } from "./prepare-post-production";
import { prepareAffiliatesData } from "./prepare-affiliates";

await boot();
try {
  for (const [key, email] of Object.entries(PENDING)) {
    await createPendingAccount({ name: "Pat", lastName: `Pending ${key}`, email, invitedBy: "The e2e suite" });
  }
  for (const [key, email] of Object.entries(UNSIGNED)) {
    const user = await registerMember({ name: "Uma", lastName: `Unsigned ${key}`, email, password: UNSIGNED_PASSWORD });
    await db().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
  }
  console.log(`[e2e] prepared ${await prepareAccountAdminAccounts()}`);
  console.log(`[e2e] prepared ${await prepareNotificationAccounts()}`);
  console.log(`[e2e] prepared ${await prepareVersionAccounts()}`);
  for (const prepareCommunity of [prepareProfilesData, prepareModerationData, prepareBandData, prepareDirectoryData]) {
    console.log(`[e2e] prepared ${await prepareCommunity()}`);
  }
  for (const prepareCatalog of [prepareReleasesData, prepareSongsData, prepareCreditsData]) {
    console.log(`[e2e] prepared ${await prepareCatalog()}`);
  }
  console.log(`[e2e] prepared ${await prepareProjectData()}`);
  console.log(`[e2e] prepared ${await prepareWorkRequestData()}`);
  console.log(`[e2e] prepared ${await preparePostProductionData()}`);
  console.log(`[e2e] prepared ${await prepareAffiliatesData()}`);
  console.log(`[e2e] prepared ${Object.keys(PENDING).length} pending and ${Object.keys(UNSIGNED).length} unsigned accounts`);
  // Last: its gate document's next version is agreed to ahead by every account prepared above (legal-admin/accounts.ts).
  console.log(`[e2e] prepared ${await prepareLegalAdminData()}`);
} finally {
  await shutdown();
}
process.exit(0);
