import { beforeAll, describe, expect, it } from "vitest";
import { countQueries } from "~/db/client.server";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import * as adminLayout from "~/routes/admin";
import * as adminDashboard from "~/routes/admin.dashboard";
import * as memberLayout from "~/routes/member.$memberId";
import * as memberDashboard from "~/routes/member.$memberId.dashboard";
import * as root from "~/root";
import { createUser } from "../helpers/factories";
import { useTestDatabase } from "../helpers/database";
import { loadContext, requestAs, sessionCookieFor } from "../helpers/requests";

useTestDatabase();

type AnyLoader = (args: { request: Request; params: Record<string, string>; context: typeof loadContext }) => Promise<unknown>;

/** Runs a page's loaders the way React Router does for one document request (same Request, in parallel). */
async function pageQueries(path: string, cookie: string, loaders: AnyLoader[], params: Record<string, string> = {}) {
  const request = requestAs(cookie, path);
  return countQueries(() => Promise.all(loaders.map((loader) => loader({ request, params, context: loadContext } as never))));
}

describe("dashboard pages run a bounded number of queries", () => {
  let memberCookie: string;
  let adminCookie: string;
  let memberId: number;

  beforeAll(async () => {
    await seedDemoData();
    const member = (await findUserByEmail("member@example.com"))!;
    memberId = member.id;
    memberCookie = await sessionCookieFor(member.id);
    adminCookie = await sessionCookieFor((await findUserByEmail("admin@example.com"))!.id);
  });

  it("member dashboard: root + layout + page", async () => {
    const loaders = [root.loader, memberLayout.loader, memberDashboard.loader] as unknown as AnyLoader[];
    const { count } = await pageQueries(`/member/${memberId}/dashboard`, memberCookie, loaders, { memberId: String(memberId) });
    // The layout and the page each read the member's profiles (one query apiece: the page's copy is cached
    // per member on its own, spec section 7), so 10 in all; the count must not depend on how many there are.
    expect(count).toBeLessThanOrEqual(10);
  });

  it("the count does not grow with the number of members", async () => {
    const loaders = [root.loader, adminLayout.loader, adminDashboard.loader] as unknown as AnyLoader[];
    const before = (await pageQueries("/admin/dashboard", adminCookie, loaders)).count;
    for (let i = 0; i < 30; i++) await createUser();
    const after = (await pageQueries("/admin/dashboard", adminCookie, loaders)).count;
    expect(after).toBe(before);
    expect(after).toBeLessThanOrEqual(8);
  });

  it("reads the session and user once per request however many loaders ask", async () => {
    const loaders = [root.loader, memberLayout.loader, memberDashboard.loader] as unknown as AnyLoader[];
    const { sql } = await pageQueries(`/member/${memberId}/dashboard`, memberCookie, loaders, { memberId: String(memberId) });
    expect(sql.filter((q) => q.includes('from "sessions"')).length).toBe(1);
    expect(sql.filter((q) => q.includes('from "legal_documents"') && q.includes("not exists")).length).toBe(1);
  });
});
