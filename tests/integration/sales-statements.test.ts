import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { createSalesImport, runSalesImport } from "~/modules/ledger/imports/sales-imports.server";
import type { StatementKind } from "~/modules/ledger/imports/parse-statement";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";
const PRO_HEADER =
  "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator";
const LICENSE_HEADER = "statement_id,license_id,licensee,usage,territory,term_start,term_end,song_title,isrc,amount,currency,exchange_rate";

/**
 * The sales pages' cost through the real request handler (see page-statements.test.ts), over statements
 * of many lines: a list is one statement whatever its length, a detail three (the artist's name, every
 * breakdown in one grouping-sets statement, one page of lines) whatever the lines, the grouping or the
 * drill-down. The CSV exports answer with their rows and a filename, and a member never reads another's.
 */
describe("sales pages: statements per request", () => {
  let server: AppServer;
  let member: { id: number; cookie: string };
  let producer: { id: number; cookie: string };
  let admin: { cookie: string };
  let owlsId: number;

  async function importNow(kind: StatementKind, lines: string[], uploadedBy: number) {
    const text = lines.join("\n") + "\n";
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "statement-"));
    const tmpPath = path.join(dir, "upload");
    await fs.writeFile(tmpPath, text);
    const created = await createSalesImport({
      kind,
      file: { tmpPath, filename: `${kind}.csv`, bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
      exchangeRate: null,
      uploadedBy,
    });
    expect((await runSalesImport(created.id))?.status).toBe("completed");
  }

  beforeAll(async () => {
    await seedDemoData();
    const mia = (await findUserByEmail("member@example.com"))!;
    const paul = (await findUserByEmail("producer@example.com"))!;
    const adminUser = (await findUserByEmail("admin@example.com"))!;
    member = { id: mia.id, cookie: await sessionCookieFor(mia.id) };
    producer = { id: paul.id, cookie: await sessionCookieFor(paul.id) };
    admin = { cookie: await sessionCookieFor(adminUser.id) };
    owlsId = (await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls")))[0]!.id;
    const stores = ["Spotify", "Apple Music", "YouTube", "Tidal"];
    const isrcs = ["USBL12600001", "USBL12600002", "USBL12600003", "USBL12600005"];
    const lines = Array.from({ length: 400 }, (_, i) => {
      const month = String((i % 6) + 3).padStart(2, "0");
      return `S-1,2026-10-01,2026-${month},2026-${month},${stores[i % 4]},,stream,track,${["US", "GB", "DE"][i % 3]},Midnight Owls,,,Track,${isrcs[i % 4]},${i},0.01,USD,${(i % 7) + 1}.123457,${(i % 7) + 1}.123457,USD,`;
    });
    await importNow(
      "digital",
      [DIGITAL_HEADER, ...lines, "S-1,2026-10-01,2026-07,2026-07,iTunes,,download,album,US,Midnight Owls,Late Trains,0196589000019,,,1,4,USD,4.00,4.00,USD,"],
      adminUser.id,
    );
    await importNow(
      "pro",
      [
        PRO_HEADER,
        "BMI-S,2026-09-30,Mia Member,523419871,Writer,Late Trains,T-345.246.800-3,Radio,US,2026-04-01,2026-06-30,100,50,12.34567891,USD,,",
        "BMI-S,2026-09-30,Someone,00999999999,Writer,Other,,Radio,US,2026-04-01,2026-06-30,10,100,2.00,USD,,",
      ],
      adminUser.id,
    );
    await importNow("license", [LICENSE_HEADER, "L-S,LIC-1,Netflix,sync,US,2026-05-01,2027-04-30,Northbound,USBL12600005,500.00,USD,"], adminUser.id);
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  async function warm(path: string, cookie: string) {
    await server.statementsOf(path, { headers: { Cookie: cookie } });
    return server.statementsOf(path, { headers: { Cookie: cookie } });
  }

  it.each([
    // session and layout (3), the totals per artist (1)
    ["member digital sales", () => `/member/${member.id}/sales/digital`, () => member.cookie, 4],
    ["member digital sales, filtered", () => `/member/${member.id}/sales/digital?from=2026-04&to=2026-07&store=Spotify&country=US`, () => member.cookie, 4],
    ["member licence royalties", () => `/member/${member.id}/sales/license`, () => member.cookie, 4],
    ["member PRO royalties", () => `/member/${member.id}/sales/pro`, () => member.cookie, 4],
    // session and layout (3); the artist's name, every breakdown, one page of lines (3)
    ["member digital detail", () => `/member/${member.id}/sales/digital/detail/artist/${owlsId}`, () => member.cookie, 6],
    [
      "member digital detail, grouped by store, drilled down, page 2",
      () => `/member/${member.id}/sales/digital/detail/artist/${owlsId}?group=store&key=Spotify&page=2&from=2026-03`,
      () => member.cookie,
      6,
    ],
    [
      "member digital detail, client navigation (.data)",
      () => `/member/${member.id}/sales/digital/detail/artist/${owlsId}.data?group=track`,
      () => member.cookie,
      6,
    ],
    ["member licence detail", () => `/member/${member.id}/sales/license/detail/artist/${owlsId}`, () => member.cookie, 6],
    ["member PRO detail", () => `/member/${member.id}/sales/pro/detail/artist/${owlsId}?group=period`, () => member.cookie, 6],
    // session (1), bell, What's new (1), the imports whose rollups are out of date (1: none, warm), the totals (1)
    ["admin digital", () => "/admin/sales/digital", () => admin.cookie, 4],
    ["admin PRO", () => "/admin/sales/pro", () => admin.cookie, 4],
    ["admin licence", () => "/admin/sales/license?from=2026-01", () => admin.cookie, 4],
    // session (1), bell, What's new (1); the rollups' freshness (1); name, breakdowns, lines with their count (3; the
    // catch-all artist 0 needs no name)
    ["admin digital detail", () => `/admin/sales/digital/details/artist/${owlsId}?group=country&key=US`, () => admin.cookie, 6],
    ["admin PRO detail", () => `/admin/sales/pro/details/member/${member.id}`, () => admin.cookie, 6],
    ["admin licence detail", () => `/admin/sales/license/details/artist/${owlsId}`, () => admin.cookie, 6],
    ["admin unmatched digital lines", () => "/admin/sales/digital/details/artist/0", () => admin.cookie, 6],
    // session (1), bell and What's new (1), the import history with its count (1)
    ["upload sales, the import history", () => "/admin/upload-sales", () => admin.cookie, 3],
    // session and layout (2); the import (1); its unmatched lines, reconciliation, lines and last reconcile (4); the
    // songs and releases to match to (2, only while lines are unmatched)
    ["a sales import's page", () => "/admin/upload-sales/1", () => admin.cookie, 9],
    ["a sales import's page, from a line on", () => "/admin/upload-sales/1?lines_from=200&page=2", () => admin.cookie, 9],
    // session and layout (2); the codes in suspense, grouped, with their count (1); the songs and releases (2);
    // the remembered codes with their count (1); the latest matches and their progress (1)
    ["the suspense queue across imports", () => "/admin/suspense", () => admin.cookie, 7],
    ["the suspense queue, searching the catalogue", () => "/admin/suspense?find=Late%20Trains&page=2&codes_page=3", () => admin.cookie, 7],
  ])("%s stays within its statement budget", async (_name, path, cookie, budget) => {
    const { status, count, sql } = await warm(path(), cookie());
    expect(status, sql.join("\n")).toBe(200);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(budget);
  });

  it("shows a queued import's progress: the lines checked, as a bar, before any is posted", async () => {
    const text = `${DIGITAL_HEADER}\nQUEUED-1,2026-08-15,2026-07,2026-07,Spotify,,stream,track,US,Midnight Owls,,,Northbound,USBL12600005,1,1,USD,1.00,1.00,USD,\nQUEUED-1,2026-08-15,2026-07,2026-07,Tidal,,stream,track,US,Midnight Owls,,,Northbound,USBL12600005,1,1,USD,2.00,2.00,USD,\n`;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "statement-"));
    const tmpPath = path.join(dir, "upload");
    await fs.writeFile(tmpPath, text);
    const adminUser = (await findUserByEmail("admin@example.com"))!;
    // Recorded and checked, not run (no job): the page of a queued import.
    const queued = await createSalesImport({
      kind: "digital",
      file: { tmpPath, filename: "queued.csv", bytes: Buffer.byteLength(text), sha256: createHash("sha256").update(text).digest("hex") },
      exchangeRate: null,
      uploadedBy: adminUser.id,
    });
    expect([queued.status, queued.expectedLines]).toEqual(["queued", 2]);
    const page = await fetch(`${server.origin}/admin/upload-sales/${queued.id}`, { headers: { Cookie: admin.cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Waiting for the worker");
    expect(html).toMatch(/<progress[^>]*max="2"[^>]*value="0"/);
    expect(html).toContain("2 lines checked; queued.");
    expect(html).toContain('http-equiv="refresh"');
    expect((await runSalesImport(queued.id))?.status).toBe("completed");
  });

  it("exports the lines as CSV, streamed in batches, with a filename and six-decimal amounts", async () => {
    const { result, count } = await server.countQueries(async () => {
      const response = await fetch(`${server.origin}/member/${member.id}/sales/digital/detail/artist/${owlsId}/export.csv?table=lines`, {
        headers: { Cookie: member.cookie },
      });
      return { response, text: await response.text() };
    });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(result.response.headers.get("content-disposition")).toBe(
      `attachment; filename="backline-digital-sales-member-${member.id}-artist-${owlsId}-lines.csv"`,
    );
    const rows = result.text.trim().split("\r\n");
    expect(rows[0]).toBe("import_id,line_no,period,store,country,release,track,quantity,line_amount_usd,your_amount_usd");
    expect(rows.length).toBeGreaterThan(400);
    expect(rows.slice(1).every((r) => /,-?\d+\.\d{6},-?\d+\.\d{6}$/.test(r))).toBe(true);
    // session (1) and one statement per batch of 2,000 lines, never per line
    expect(count).toBeLessThanOrEqual(4);

    const grouped = await fetch(`${server.origin}/admin/sales/digital/details/artist/${owlsId}/export.csv?group=store`, { headers: { Cookie: admin.cookie } });
    expect(grouped.headers.get("content-disposition")).toBe(`attachment; filename="backline-digital-sales-artist-${owlsId}-by-store.csv"`);
    const text = await grouped.text();
    expect(text.split("\r\n")[0]).toBe("store,lines,gross_usd,commission_usd,net_usd");
    expect(text).toContain("Spotify,");
  });

  it("keeps a member to their own figures", async () => {
    // Another member's area: 404 (the guard), for the pages and the exports.
    for (const path of [
      `/member/${member.id}/sales/digital`,
      `/member/${member.id}/sales/digital/detail/artist/${owlsId}`,
      `/member/${member.id}/sales/digital/export.csv`,
    ]) {
      const { status } = await server.statementsOf(path, { headers: { Cookie: producer.cookie } });
      expect(status, path).toBe(404);
    }
    // Admin pages: members are sent to log in (which sends them to their dashboard).
    expect((await server.statementsOf("/admin/sales/digital", { headers: { Cookie: member.cookie } })).status).toBe(302);
    expect((await server.statementsOf(`/admin/sales/digital/details/artist/${owlsId}/export.csv`, { headers: { Cookie: member.cookie } })).status).toBe(302);
    // Paul's own export of Mia's artist page holds his shares only: they sum to less than Mia's.
    const csv = async (cookie: string, id: number) =>
      (await (await fetch(`${server.origin}/member/${id}/sales/digital/export.csv`, { headers: { Cookie: cookie } })).text()).trim().split("\r\n");
    const paulRows = await csv(producer.cookie, producer.id);
    const miaRows = await csv(member.cookie, member.id);
    expect(paulRows[0]).toBe("artist_id,artist,lines,amount_usd");
    const amountOf = (rows: string[]) => Number(rows[1]!.split(",").at(-1));
    expect(amountOf(paulRows)).toBeLessThan(amountOf(miaRows));
    // An artist page he earns nothing on shows an empty page, not anyone's figures.
    const other = await fetch(`${server.origin}/member/${producer.id}/sales/license/detail/artist/${owlsId}`, { headers: { Cookie: producer.cookie } });
    expect(other.status).toBe(200);
    const html = await other.text();
    expect(html).toContain("You have no share of statement lines on this artist page.");
    expect(html).not.toContain("$450.00");
  });
});
