import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberProIdentities, users } from "~/db/schema";

/**
 * The demo members' performing-rights identities (docs/demo-data.md "People"): PRO statements match Mia
 * and Paul by these IPI/CAE numbers. The ledger itself starts empty (DEMO.md "Money").
 */
const DEMO_PRO_IDENTITIES = [
  { email: "member@example.com", ipiCae: "00523419871", pro: "BMI" },
  { email: "producer@example.com", ipiCae: "00611887234", pro: "ASCAP" },
];

export async function seedDemoProIdentities(tx: Db): Promise<void> {
  const people = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_PRO_IDENTITIES.map((p) => p.email),
      ),
    );
  const rows = DEMO_PRO_IDENTITIES.flatMap((identity) => {
    const user = people.find((p) => p.email === identity.email);
    return user ? [{ userId: user.id, ipiCae: identity.ipiCae, pro: identity.pro }] : [];
  });
  if (rows.length) await tx.insert(memberProIdentities).values(rows).onConflictDoNothing();
}
