import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attemptLogin } from "~/modules/accounts/accounts.server";
import { hasAgreedToAllDocuments } from "~/modules/legal/legal.server";
import { decryptBankDetails } from "~/modules/payouts/bank-details.server";
import { taxStatusOf } from "~/modules/payouts/payout-accounts.server";
import { payoutAccounts, taxDeclarations } from "./schema";
import { useTestDatabase } from "../../tests/helpers/database";
import { db } from "./client.server";
import { artistMembers, profileRates, profileReferenceValues, profiles, referenceValues, legalDocuments, signatures, users } from "./schema";
import { DEMO_PASSWORD, seedDemoData, seedDemoDataOnFirstRun } from "./seed.server";

useTestDatabase();

type Counted =
  | typeof users
  | typeof legalDocuments
  | typeof signatures
  | typeof profiles
  | typeof referenceValues
  | typeof profileReferenceValues
  | typeof profileRates
  | typeof artistMembers;
const count = async (table: Counted) =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
  )[0]!.n;

describe("demo data", () => {
  it("is idempotent and gives the documented logins", async () => {
    expect(await seedDemoDataOnFirstRun()).toBe(true);
    const before = [await count(users), await count(legalDocuments), await count(signatures)];
    expect(before).toEqual([4, 2, 6]);
    await seedDemoData();
    expect(await seedDemoDataOnFirstRun()).toBe(false);
    expect([await count(users), await count(legalDocuments), await count(signatures)]).toEqual(before);

    for (const email of ["admin@example.com", "member@example.com", "producer@example.com", "new@example.com"]) {
      const outcome = await attemptLogin({ email, password: DEMO_PASSWORD, ip: "seed-test" });
      expect(outcome.ok).toBe(true);
    }
    const byEmail = Object.fromEntries((await db().select().from(users)).map((u) => [u.email, u]));
    expect(byEmail["admin@example.com"]).toMatchObject({ acctType: 2, roleId: 1 });
    expect(byEmail["member@example.com"]).toMatchObject({ acctType: 1, roleId: 5 });
    expect(byEmail["producer@example.com"]).toMatchObject({ acctType: 1, roleId: 5, name: "Paul", lastName: "Producer" });
    expect(await hasAgreedToAllDocuments(byEmail["producer@example.com"]!.id)).toBe(true);
    expect(await hasAgreedToAllDocuments(byEmail["admin@example.com"]!.id)).toBe(true);
    expect(await hasAgreedToAllDocuments(byEmail["member@example.com"]!.id)).toBe(true);
    expect(await hasAgreedToAllDocuments(byEmail["new@example.com"]!.id)).toBe(false);
  });

  it("gives the demo member a published artist page and musician profile, with the seeded reference lists", async () => {
    await seedDemoData();
    const community = async () => Promise.all([profiles, referenceValues, profileReferenceValues, profileRates, artistMembers].map((t) => count(t)));
    const first = await community();
    await seedDemoData();
    expect(await community()).toEqual(first);

    const pros = await db()
      .select()
      .from(referenceValues)
      .where(sql`${referenceValues.kind} = 'pro'`);
    expect(pros.map((p) => p.code)).toEqual(expect.arrayContaining(["ASCAP", "BMI", "SESAC", "GMR", "SOCAN", "PRS", "GEMA", "SACEM", "JASRAC"]));
    const seeded = await db().select().from(profiles);
    expect(seeded.map((p) => [p.type, p.username, p.status]).sort()).toEqual([
      ["artist", "midnight-owls", "published"],
      ["music_producer", "paul-beats", "published"],
      ["musician", "mia", "published"],
    ]);
  });

  it("gives Mia her manual bank transfer ending 4242 and a W-9 on file, once (docs/demo-data.md)", async () => {
    await seedDemoData();
    await seedDemoData();
    const [mia] = await db()
      .select()
      .from(users)
      .where(sql`${users.email} = 'member@example.com'`);
    const accounts = await db()
      .select()
      .from(payoutAccounts)
      .where(sql`${payoutAccounts.userId} = ${mia!.id}`);
    expect(accounts.map((a) => [a.method, a.country, a.bankLast4])).toEqual([["manual", "US", "4242"]]);
    expect(decryptBankDetails(mia!.id, accounts[0]!.bankDetailsEncrypted!).accountNumber).toBe("000123454242");
    const forms = await db()
      .select()
      .from(taxDeclarations)
      .where(sql`${taxDeclarations.userId} = ${mia!.id}`);
    expect(forms.map((f) => [f.form, f.country, f.supersededAt])).toEqual([["w9", "US", null]]);
    // So a payout pays her without withholding, by manual transfer.
    expect(await taxStatusOf(mia!.id)).toMatchObject({ method: "manual", country: "US", declaration: { form: "w9", country: "US" } });
    // Paul has no tax form (docs/demo-data.md).
    const [paul] = await db()
      .select()
      .from(users)
      .where(sql`${users.email} = 'producer@example.com'`);
    expect(
      await db()
        .select()
        .from(taxDeclarations)
        .where(sql`${taxDeclarations.userId} = ${paul!.id}`),
    ).toEqual([]);
  });
});
