import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { sessionCookieFor } from "../helpers/requests";
import { openProject } from "../helpers/marketplace";
import { uploadDeliverable } from "~/modules/marketplace/projects.server";
import { postMessage } from "~/modules/marketplace/messages.server";
import { applyAsAffiliate, approveAffiliate } from "~/modules/affiliates/affiliates.server";

useTestDatabase();

/**
 * What a page costs, counted through the real request handler (Express, React Router, the root
 * middleware and every loader of the page), on the demo data. Counts are taken warm: the first request
 * of a run also loads the in-memory caches (config, the latest app version, reference options).
 * Every page the product adds gets a line here.
 */
describe("statements per page request", () => {
  let server: AppServer;
  let member: { id: number; cookie: string };
  let admin: { cookie: string };
  let projectId = 0;
  let affiliateId = 0;

  beforeAll(async () => {
    await seedDemoData();
    const demoMember = (await findUserByEmail("member@example.com"))!;
    member = { id: demoMember.id, cookie: await sessionCookieFor(demoMember.id) };
    const demoAdmin = (await findUserByEmail("admin@example.com"))!;
    admin = { cookie: await sessionCookieFor(demoAdmin.id) };
    // A funded project of the demo member's with a delivery and messages, for the project pages' budgets.
    const producer = (await findUserByEmail("producer@example.com"))!;
    const { project } = await openProject(demoMember, producer, { admin: demoAdmin, type: "music_producer" });
    projectId = project.id;
    await uploadDeliverable(producer, project.id, { filePath: "deliverables/budget.wav", fileName: "budget.wav", bytes: 1_000, mime: "audio/wav" });
    for (const body of ["First mix is up.", "Thanks, listening now."]) await postMessage(body.startsWith("First") ? producer : demoMember, { projectId }, body);
    // The demo member as an approved affiliate, for the affiliate pages' budgets.
    const affiliate = await applyAsAffiliate(demoMember.id, { audience: "A newsletter for 4,000 bedroom producers.", payoutMethod: "manual" });
    affiliateId = (await approveAffiliate(demoAdmin.id, affiliate.id)).id;
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  async function warm(path: string, cookie: string) {
    await server.statementsOf(path, { headers: { Cookie: cookie } });
    return server.statementsOf(path, { headers: { Cookie: cookie } });
  }

  it("reads the session, the user and the legal agreement once, in one statement", async () => {
    const { status, sql } = await warm(`/member/${member.id}/dashboard`, member.cookie);
    expect(status).toBe(200);
    const sessionReads = sql.filter((q) => q.includes('from "sessions"'));
    expect(sessionReads).toHaveLength(1);
    expect(sessionReads[0]).toContain('"legal_documents"');
    // The member's own row is the session's: never read again by the layout.
    expect(sql.filter((q) => q.startsWith('select "id", "name", "last_name", "email", "password_hash"'))).toHaveLength(0);
  });

  it.each([
    // session (1), bell, What's new, menu profiles (3), the dashboard's counts with its recent projects and work requests (1), split proposals to answer (1)
    ["member dashboard", () => `/member/${member.id}/dashboard`, () => member.cookie, 7],
    ["member dashboard, client navigation (.data)", () => `/member/${member.id}/dashboard.data`, () => member.cookie, 7],
    // session (1), layout (3), the songs they hold a share in and the songs they own (2), the income report (1)
    ["income and shares", () => `/member/${member.id}/member-income`, () => member.cookie, 7],
    // session (1), bell, What's new (2), the system summary (1), the ledger's financial summary (1)
    ["admin dashboard", () => "/admin/dashboard", () => admin.cookie, 5],
    // session (1), bell, What's new (2), the journal page with its total, its postings, the entry kinds (3)
    ["admin transactions", () => "/admin/transactions?account=earnings&member=mia", () => admin.cookie, 6],
    // session (1), layout (3), the directory page and its cards (3)
    ["a directory page", () => `/member/${member.id}/musicians`, () => member.cookie, 7],
    ["a directory search", () => `/member/${member.id}/artists?q=midnight&sort=newest`, () => member.cookie, 7],
    // session (1), layout (3), the profile, its values, rates and band (4)
    ["a public profile page", () => `/member/${member.id}/artists/midnight-owls`, () => member.cookie, 8],
    // session (1), layout (3), the projects page and its count (2)
    ["the member's projects", () => `/member/${member.id}/projects?as=provider&status=completed`, () => member.cookie, 6],
    // session (1), bell, What's new (2), the projects page and its count (2)
    ["admin projects", () => "/admin/projects?q=mia&status=in_progress&service=mixing", () => admin.cookie, 5],
    // session (1), layout (3), the work request page and its count (2)
    ["member work requests", () => `/member/${member.id}/work-requests?as=provider&status=pending`, () => member.cookie, 6],
    // session (1), layout (2), the project with its parties, its deliverables, its review (3), the thread's check and page (2)
    ["a project page", () => `/member/${member.id}/project/${projectId}`, () => member.cookie, 8],
    // session (1), bell (1), two-factor on? (1), the project (3), the thread (2)
    ["a project page, admin", () => `/admin/project/${projectId}`, () => admin.cookie, 8],
    // session (1), bell, What's new (2), the work request page and its count (2)
    ["admin work requests", () => "/admin/work-requests?q=mix&status=pending&service=mixing", () => admin.cookie, 5],
    // session (1), bell (1), the documents with their versions and agreement counts, and their count (2)
    ["admin documents", () => "/admin/documents", () => admin.cookie, 4],
    // session (1), bell (1), the signatures page, its count, the documents for the filter (3)
    ["admin signatures", () => "/admin/signatures?member=mia", () => admin.cookie, 5],
    // session (1), layout (2), the affiliate, its figures (clicks, sign-ups, commissions by month), its links (3)
    ["the affiliate dashboard", () => `/member/${member.id}/affiliate/${affiliateId}`, () => member.cookie, 6],
    // session (1), bell (1), the list with its total (1)
    ["admin affiliates", () => "/admin/affiliates?status=approved", () => admin.cookie, 3],
    // session (1), bell (1), the affiliate, its owner, its figures and its commission lines (4), the admin's two-factor (1)
    ["admin affiliate", () => `/admin/affiliate/${affiliateId}`, () => admin.cookie, 7],
    ["the login page, signed out", () => "/login", () => "", 0],
  ])("%s stays within its statement budget", async (_name, path, cookie, budget) => {
    const { status, count, sql } = await warm(path(), cookie());
    expect(status, sql.join("\n")).toBeLessThan(400);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(budget);
  });
});
