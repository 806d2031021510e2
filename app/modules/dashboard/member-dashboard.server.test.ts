import { describe, expect, it } from "vitest";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { memberDashboardStats } from "./member-dashboard.server";
import { systemProfilesSummary } from "./admin-dashboard.server";

useTestDatabase();

describe("member dashboard stats", () => {
  it("counts the documents this member agreed to, not anyone else's", async () => {
    await seedDemoData();
    const member = (await findUserByEmail("member@example.com"))!;
    const newcomer = (await findUserByEmail("new@example.com"))!;
    expect(await memberDashboardStats(member.id)).toMatchObject({
      documents_agreed: 2,
      documents_required: 2,
      email_verified: true,
      has_avatar: false,
      balance_cents: 0,
      currency: "USD",
    });
    expect(await memberDashboardStats(newcomer.id)).toMatchObject({ documents_agreed: 0, documents_required: 2 });
    expect(await memberDashboardStats(987654)).toBeNull();
  });
});

describe("system profiles summary", () => {
  it("counts accounts by type, status, role and month", async () => {
    const before = await systemProfilesSummary();
    await createUser({ emailVerifiedAt: null });
    await createUser({ activatedAt: null, emailVerifiedAt: null });
    await createUser({ suspendedAt: new Date(), roleId: 3 });
    await createUser({ acctType: 2, roleId: 2 });
    const after = await systemProfilesSummary();
    expect(after.members - before.members).toBe(3);
    expect(after.admins - before.admins).toBe(1);
    expect(after.unverified - before.unverified).toBe(1);
    expect(after.pending_activation - before.pending_activation).toBe(1);
    expect(after.suspended - before.suspended).toBe(1);
    const role = (s: typeof after, id: number) => s.by_role.find((r) => r.role_id === id)!.count;
    expect(role(after, 3) - role(before, 3)).toBe(1);
    expect(role(after, 2) - role(before, 2)).toBe(1);
    expect(after.signups_by_month).toHaveLength(12);
    expect(after.signups_by_month.at(-1)!.month).toBe(new Date().toISOString().slice(0, 7));
    expect(after.signups_by_month.at(-1)!.count - before.signups_by_month.at(-1)!.count).toBe(4);
  });
});
