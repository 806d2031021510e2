import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { payoutAccounts, taxDeclarations, users } from "~/db/schema";
import { encryptBankDetails } from "./bank-details.server";

/**
 * Mia's payout set-up (docs/demo-data.md "People"): a manual bank transfer to an account ending 4242 and a
 * W-9 on file, so a newcomer can request a payout as soon as a statement pays her. Idempotent: an account or
 * a declaration she already has (changed by hand later) is left as it is.
 */
const MIA = {
  email: "member@example.com",
  accountHolder: "Mia Member",
  bankName: "First Demo Bank",
  accountNumber: "000123454242",
  routingCode: "021000021",
  tinLast4: "4242",
};

export async function seedDemoPayouts(tx: Db): Promise<void> {
  const [mia] = await tx.select({ id: users.id }).from(users).where(eq(users.email, MIA.email));
  if (!mia) return;
  const details = { accountHolder: MIA.accountHolder, bankName: MIA.bankName, accountNumber: MIA.accountNumber, routingCode: MIA.routingCode };
  await tx
    .insert(payoutAccounts)
    .values({
      userId: mia.id,
      method: "manual",
      country: "US",
      bankDetailsEncrypted: encryptBankDetails(mia.id, details),
      bankLast4: MIA.accountNumber.slice(-4),
    })
    .onConflictDoNothing();
  const [current] = await tx
    .select({ id: taxDeclarations.id })
    .from(taxDeclarations)
    .where(and(eq(taxDeclarations.userId, mia.id), isNull(taxDeclarations.supersededAt)));
  if (!current) {
    await tx
      .insert(taxDeclarations)
      .values({ userId: mia.id, form: "w9", legalName: "Mia Member", country: "US", tinLast4: MIA.tinLast4, signedIp: "seed" })
      .onConflictDoNothing();
  }
}
