import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { memberDashboardStats } from "~/modules/dashboard/member-dashboard.server";
import { systemFinancialSummary } from "~/modules/dashboard/admin-dashboard.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { DIGITAL_HEADER, PRO_HEADER, importStatement } from "../helpers/statements";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember } from "../helpers/factories";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();
const digital = (period: string, isrc: string, net: string) =>
  `API-1,2026-08-15,${period},${period},Spotify,,stream,track,US,Midnight Owls,,,Song,${isrc},10,0.1,USD,${net},${net},USD,`;

/**
 * The income report's API and pages through the real request handler: the contract's shape, the guards (a
 * member never sees another member's figures), the page agreeing with the API to the cent, and what each
 * page costs in statements.
 */
describe("royalties report API and pages", () => {
  let server: AppServer;
  let admin: User;
  let mia: User;
  let paul: User;
  let cookies: { admin: string; mia: string; paul: string; stranger: string };
  let digitalImport: number;

  async function importNow(kind: "digital" | "pro", lines: string[]) {
    return (await importStatement(kind, lines, admin.id)).id;
  }

  beforeAll(async () => {
    await seedDemoData();
    admin = (await findUserByEmail("admin@example.com"))!;
    mia = (await findUserByEmail("member@example.com"))!;
    paul = (await findUserByEmail("producer@example.com"))!;
    const stranger = await createSignedMember("Stranger");
    cookies = {
      admin: await sessionCookieFor(admin.id),
      mia: await sessionCookieFor(mia.id),
      paul: await sessionCookieFor(paul.id),
      stranger: await sessionCookieFor(stranger.id),
    };
    digitalImport = await importNow("digital", [
      DIGITAL_HEADER,
      digital("2026-06", "USBL12600005", "10.00"),
      digital("2026-07", "USBL12600005", "10.00"),
      digital("2026-07", "USBL12600001", "10.00"),
      digital("2026-07", "GBXXX2600001", "3.00"),
    ]);
    await importNow("pro", [
      PRO_HEADER,
      "BMI-API,2026-09-30,Mia Member,00523419871,Writer,Late Trains,T-345.246.800-3,Radio,US,2026-04-01,2026-06-30,100,50,1.23456789,USD,,",
    ]);
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  const get = (p: string, cookie: string) => fetch(`${server.url}${p}`, { headers: { Cookie: cookie, Accept: "application/json" }, redirect: "manual" });

  it("answers the member's own income exactly per docs/money.md, and the same to an admin", async () => {
    const expected = {
      memberId: mia.id,
      currency: "USD",
      // Northbound June 9.00 + July 6.30 + Late Trains 4.50 = 19.80 digital; PRO 1.234568.
      earned: "21.034568",
      held: "0.000000",
      reserved: "0.000000",
      paid_out: "0.000000",
      available: "21.030000",
      by_source: { digital: "19.800000", pro: "1.234568", license: "0.000000", marketplace: "0.000000", affiliate: "0.000000" },
    };
    const own = await get(`/api/members/${mia.id}/royalties-report/income`, cookies.mia);
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toContain("private");
    expect(await own.json()).toEqual({ data: expected });
    const asAdmin = await get(`/api/members/${mia.id}/royalties-report/income`, cookies.admin);
    expect(await asAdmin.json()).toEqual({ data: expected });
    const paulOwn = await (await get(`/api/members/${paul.id}/royalties-report/income`, cookies.paul)).json();
    expect(paulOwn.data).toMatchObject({ memberId: paul.id, earned: "5.400000", by_source: { digital: "5.400000", pro: "0.000000" } });
  });

  it("never shows a member another member's figures: 404 to members, 401 signed out", async () => {
    for (const [cookie, id] of [
      [cookies.paul, mia.id],
      [cookies.stranger, mia.id],
      [cookies.mia, paul.id],
    ] as const) {
      for (const report of ["income", "payments"]) {
        const response = await get(`/api/members/${id}/royalties-report/${report}`, cookie);
        expect(response.status).toBe(404);
        const body = await response.json();
        expect(body).toEqual({ message: "Not found.", errors: "Not found." });
      }
    }
    expect((await get(`/api/members/${mia.id}/royalties-report/income`, "")).status).toBe(401);
    expect((await get(`/api/members/2000000000/royalties-report/income`, cookies.admin)).status).toBe(404);
    // The pages too: another member's Income & Shares is the area's 404, with none of the figures.
    const page = await get(`/member/${mia.id}/member-income`, cookies.paul);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain("21.03");
  });

  it("answers the payments list (empty before payouts)", async () => {
    const response = await get(`/api/members/${mia.id}/royalties-report/payments`, cookies.mia);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [] });
  });

  it("shows the same figures on Income & Shares and the dashboards, to the cent", async () => {
    const html = await (await get(`/member/${mia.id}/member-income`, cookies.mia)).text();
    for (const exact of ["21.034568", "19.800000", "1.234568", "21.030000"]) expect(html).toContain(`data-micros="${exact}"`);
    expect(html).toContain("$21.03");
    // Statements are named by source and period; the administrator's upload file name is not shown to members.
    expect(html).toContain("Digital sales · Jun – Jul 2026");
    expect(html).not.toContain("digital.csv");
    const lines = await (await get(`/member/${mia.id}/member-income?import=${digitalImport}`, cookies.mia)).text();
    expect(lines).toContain('data-micros="9.000000"');
    expect(lines).toContain('data-micros="4.500000"');
    expect(lines).not.toContain("GBXXX2600001");

    const stats = (await memberDashboardStats(mia.id))!;
    expect(stats.balance_cents).toBe(2103);
    expect(stats.income_by_month).toEqual([
      { month: "2026-04", cents: 123 },
      { month: "2026-06", cents: 900 },
      { month: "2026-07", cents: 1080 },
    ]);
    const summary = await systemFinancialSummary();
    // 33.00 digital + 1.234568 PRO imported; commission 10 % of the matched 30.00; 3.00 in suspense; Nina's 1.80 held.
    expect(summary).toMatchObject({
      imported: "34.234568",
      commission: "3.000000",
      suspense: "3.000000",
      held: "1.800000",
      owed_to_members: "26.434568",
      paid_out: "0.000000",
      pending_payouts: "0.000000",
      income_cents: 3423,
      members_with_balance: 2,
    });
  });

  it("shows admins the journal, filtered, with each entry's postings and source", async () => {
    const all = await get("/admin/transactions", cookies.admin);
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain(`/admin/upload-sales/${digitalImport}`);
    expect(html).toContain("statement import");
    const paulOnly = await (await get(`/admin/transactions?member=${paul.id}&account=earnings`, cookies.admin)).text();
    expect(paulOnly).toContain("Paul");
    expect(paulOnly).not.toContain("Mia Member");
    const none = await (await get("/admin/transactions?from=2000-01-01&to=2000-01-31", cookies.admin)).text();
    expect(none).toContain("No entry matches these filters.");
    expect((await get("/admin/transactions", cookies.mia)).status).toBe(302);
  });

  it("costs a fixed number of statements per page", async () => {
    const warm = async (p: string, cookie: string) => {
      await server.statementsOf(p, { headers: { Cookie: cookie } });
      return server.statementsOf(p, { headers: { Cookie: cookie } });
    };
    // session (1), the report (1)
    for (const report of ["income", "payments"]) {
      const { count, status } = await warm(`/api/members/${mia.id}/royalties-report/${report}`, cookies.mia);
      expect(status).toBe(200);
      expect(count).toBeLessThanOrEqual(2);
    }
    // session (1), layout (3), shares (2), income (1), the lines (1)
    const lines = await warm(`/member/${mia.id}/member-income?import=${digitalImport}`, cookies.mia);
    expect(lines.count, lines.sql.join("\n")).toBeLessThanOrEqual(8);
    // session (1), bell and What's new (1-2), the page with its total, its postings, the kinds (3)
    const journal = await warm(`/admin/transactions?member=paul&account=earnings`, cookies.admin);
    expect(journal.count, journal.sql.join("\n")).toBeLessThanOrEqual(6);
  });
});
