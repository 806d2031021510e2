import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attemptLogin } from "~/modules/accounts/accounts.server";
import { hasAgreedToAllDocuments } from "~/modules/legal/legal.server";
import { useTestDatabase } from "../../tests/helpers/database";
import { db } from "./client.server";
import { legalDocuments, signatures, users } from "./schema";
import { DEMO_PASSWORD, seedDemoData, seedDemoDataOnFirstRun } from "./seed.server";

useTestDatabase();

const count = async (table: typeof users | typeof legalDocuments | typeof signatures) =>
  (await db().select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe("demo data", () => {
  it("is idempotent and gives the documented logins", async () => {
    expect(await seedDemoDataOnFirstRun()).toBe(true);
    const before = [await count(users), await count(legalDocuments), await count(signatures)];
    expect(before).toEqual([3, 2, 4]);
    await seedDemoData();
    expect(await seedDemoDataOnFirstRun()).toBe(false);
    expect([await count(users), await count(legalDocuments), await count(signatures)]).toEqual(before);

    for (const email of ["admin@example.com", "member@example.com", "new@example.com"]) {
      const outcome = await attemptLogin({ email, password: DEMO_PASSWORD, ip: "seed-test" });
      expect(outcome.ok).toBe(true);
    }
    const byEmail = Object.fromEntries((await db().select().from(users)).map((u) => [u.email, u]));
    expect(byEmail["admin@example.com"]).toMatchObject({ acctType: 2, roleId: 1 });
    expect(byEmail["member@example.com"]).toMatchObject({ acctType: 1, roleId: 5 });
    expect(await hasAgreedToAllDocuments(byEmail["admin@example.com"]!.id)).toBe(true);
    expect(await hasAgreedToAllDocuments(byEmail["member@example.com"]!.id)).toBe(true);
    expect(await hasAgreedToAllDocuments(byEmail["new@example.com"]!.id)).toBe(false);
  });
});
