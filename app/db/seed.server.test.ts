import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attemptLogin } from "~/modules/accounts/accounts.server";
import { hasAgreedToAllDocuments } from "~/modules/legal/legal.server";
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
  (await db().select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

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
    const community = async () =>
      Promise.all([profiles, referenceValues, profileReferenceValues, profileRates, artistMembers].map((t) => count(t)));
    const first = await community();
    await seedDemoData();
    expect(await community()).toEqual(first);

    const pros = await db().select().from(referenceValues).where(sql`${referenceValues.kind} = 'pro'`);
    expect(pros.map((p) => p.code)).toEqual(expect.arrayContaining(["ASCAP", "BMI", "SESAC", "GMR", "SOCAN", "PRS", "GEMA", "SACEM", "JASRAC"]));
    const seeded = await db().select().from(profiles);
    expect(seeded.map((p) => [p.type, p.username, p.status]).sort()).toEqual([
      ["artist", "midnight-owls", "published"],
      ["music_producer", "paul-beats", "published"],
      ["musician", "mia", "published"],
    ]);
  });
});
