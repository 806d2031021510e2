import { and, eq, inArray } from "drizzle-orm";
import { hashPassword } from "~/modules/accounts/password.server";
import { readConfigValue, setConfigValue } from "~/modules/config/config.server";
import { seedDemoCatalog } from "~/modules/catalog/catalog-seed.server";
import { seedDemoSplits } from "~/modules/splits/split-seed.server";
import { seedDemoProIdentities } from "~/modules/ledger/ledger-seed.server";
import { seedDemoPayouts } from "~/modules/payouts/payout-seed.server";
import { seedDemoProfiles } from "~/modules/profiles/profile-seed.server";
import { seedReferenceData } from "~/modules/reference/reference-seed.server";
import { recordVersionsInForce } from "~/modules/legal/documents/documents.server";
import { db } from "./client.server";
import { legalDocuments, signatures, users } from "./schema";

export const DEMO_PASSWORD = "backline-demo";

export const DEMO_USERS = [
  { email: "admin@example.com", name: "Ada", lastName: "Admin", acctType: 2, roleId: 1, signs: true },
  { email: "member@example.com", name: "Mia", lastName: "Member", acctType: 1, roleId: 5, signs: true },
  { email: "new@example.com", name: "Noah", lastName: "Newcomer", acctType: 1, roleId: 5, signs: false },
  // Added with the catalogue, after the others so that their ids stay 1-3.
  { email: "producer@example.com", name: "Paul", lastName: "Producer", acctType: 1, roleId: 5, signs: true },
] as const;

const TERMS = `<h2>1. Who we are</h2>
<p>Backline is a platform for the music industry run for artists, musicians, audio engineers, music producers and studios.
These terms govern your use of it.</p>
<h2>2. Your account</h2>
<p>You are responsible for what happens under your account. Keep your password private and tell us at once if you suspect misuse.</p>
<h2>3. Your content and royalties</h2>
<p>You keep every right to the music and material you upload. You grant us the licence needed to host, distribute and
report on it as you instruct. Royalty shares you agree with collaborators are paid as recorded on the platform.</p>
<h2>4. Payments</h2>
<p>Figures are kept in US dollars. Payouts are made to the payment account you connect, after any applicable fees.</p>
<h2>5. Ending the agreement</h2>
<p>You may close your account at any time. We may suspend accounts that break these terms.</p>`;

const PRIVACY = `<h2>What we collect</h2>
<p>Your name, email address, profile details you choose to publish, and the sales and royalty data needed to pay you.</p>
<h2>How we use it</h2>
<p>To run your account, pay royalties, prevent fraud and send you the messages you ask for. We do not sell personal data.</p>
<h2>Your rights</h2>
<p>You can see, correct, export or delete your data from your account, or by contacting us.</p>
<h2>Cookies</h2>
<p>We use one session cookie to keep you logged in. Analytics, when enabled, record page views without advertising cookies.</p>`;

export const DEMO_DOCUMENTS = [
  { name: "Terms of Service", slug: "terms-of-service", content: TERMS },
  { name: "Privacy Policy", slug: "privacy-policy", content: PRIVACY },
] as const;

/** Idempotent: inserts whatever of the demo data is missing and leaves the rest untouched. */
export async function seedDemoData(): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = new Date();
  await db().transaction(async (tx) => {
    await tx
      .insert(users)
      .values(
        DEMO_USERS.map((u) => ({
          email: u.email,
          name: u.name,
          lastName: u.lastName,
          acctType: u.acctType,
          roleId: u.roleId,
          passwordHash,
          emailVerifiedAt: now,
          activatedAt: now,
        })),
      )
      .onConflictDoNothing();
    await tx
      .insert(legalDocuments)
      .values(DEMO_DOCUMENTS.map((d) => ({ ...d, version: 1, required: true, published: true })))
      .onConflictDoNothing();
    // Their text in force is version 1 on record (what a later version's diff compares with).
    await recordVersionsInForce(tx);

    const signers = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_USERS.filter((u) => u.signs).map((u) => u.email),
        ),
      );
    const docs = await tx
      .select({ id: legalDocuments.id, version: legalDocuments.version })
      .from(legalDocuments)
      .where(
        and(
          inArray(
            legalDocuments.slug,
            DEMO_DOCUMENTS.map((d) => d.slug),
          ),
          eq(legalDocuments.published, true),
        ),
      );
    const rows = signers.flatMap((u) => docs.map((d) => ({ userId: u.id, documentId: d.id, documentVersion: d.version, ip: "seed", userAgent: "seed" })));
    if (rows.length) await tx.insert(signatures).values(rows).onConflictDoNothing();
    await seedReferenceData(tx);
    await seedDemoProfiles(tx);
    await seedDemoCatalog(tx);
    await seedDemoSplits(tx);
    await seedDemoProIdentities(tx);
    await seedDemoPayouts(tx);
  });
  await setConfigValue("display_currency", "USD");
}

/** Seeds once per database, so data an administrator later removes does not come back at the next start. */
export async function seedDemoDataOnFirstRun(): Promise<boolean> {
  if (await readConfigValue("demo_seeded_at")) return false;
  await seedDemoData();
  await setConfigValue("demo_seeded_at", new Date().toISOString());
  return true;
}
