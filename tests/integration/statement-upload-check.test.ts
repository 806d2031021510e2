import fs from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { salesImports, statementLines } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { env } from "~/env.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { readFlash } from "~/modules/flash/flash.server";
import { runQueuedJobsNow, stopJobWorkers } from "~/modules/jobs/queue.server";
import { SALES_IMPORT_JOB, submitSalesImport } from "~/modules/ledger/imports/sales-import-job.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { sessionCookieFor } from "../helpers/requests";
import { DIGITAL_HEADER, statementUpload } from "../helpers/statements";

/**
 * The upload check (POST /admin/upload-sales, the real handler) refuses what the import could not store, naming
 * the line and the column, as it does every other bad line: a NUL character in a cell (PostgreSQL's text holds
 * none; the job failed, and on the former embedded engine took the server down), an amount or a quantity beyond
 * its column. Statements in Windows-1252 or UTF-16 are read in their encoding (a Latin-1 "Beyoncé" was stored
 * as "Beyonc\uFFFD"), and text in no encoding we can tell is refused (decision 017).
 */

useTestDatabase();

let server: AppServer;
let adminId: number;
let cookie: string;

beforeAll(async () => {
  await seedDemoData();
  adminId = (await findUserByEmail("admin@example.com"))!.id;
  cookie = await sessionCookieFor(adminId);
  server = await startAppServer();
});

afterAll(async () => {
  await stopJobWorkers();
  await server?.close();
});

let statementNo = 0;
/** A canonical digital line; `cells` replaces some of its cells by column name. */
function digitalLine(cells: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    statement_id: `CHECK-${++statementNo}`,
    reporting_date: "2026-08-15",
    sale_period_start: "2026-06",
    sale_period_end: "2026-06",
    store: "Spotify",
    store_service: "",
    sale_type: "stream",
    product_type: "track",
    territory: "US",
    artist: "Midnight Owls",
    release_title: "",
    upc: "",
    track_title: "Song",
    isrc: "USBL12600001",
    quantity: "1",
    unit_price: "0.1",
    customer_currency: "USD",
    gross_amount: "1.00",
    net_amount: "1.00",
    statement_currency: "USD",
    exchange_rate: "",
    ...cells,
  };
  return DIGITAL_HEADER.split(",")
    .map((column) => values[column])
    .join(",");
}

const csv = (...lines: string[]) => `${[DIGITAL_HEADER, ...lines].join("\n")}\n`;

async function upload(bytes: Buffer | string, fileName = "statement.csv") {
  const form = new FormData();
  form.set("kind", "digital");
  form.set("file", new Blob([new Uint8Array(typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes)]), fileName);
  const before = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(salesImports);
  const response = await fetch(`${server.url}/admin/upload-sales?index`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.origin, Cookie: cookie },
    body: form,
  });
  const html = response.status === 200 || response.status >= 400 ? await response.text() : "";
  const after = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(salesImports);
  const flashCookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("backline_flash="))
    ?.split(";")[0];
  const flash = flashCookie ? (await readFlash(new Request(server.url, { headers: { Cookie: flashCookie } }))).flash : null;
  return {
    status: response.status,
    html: html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"'),
    recorded: after[0]!.n - before[0]!.n,
    flash,
    location: response.headers.get("location"),
  };
}

async function importedLines(location: string | null) {
  const id = Number(location?.split("/").pop());
  expect(await runQueuedJobsNow(SALES_IMPORT_JOB)).toMatchObject({ failed: 0 });
  const [row] = await db().select().from(salesImports).where(eq(salesImports.id, id));
  expect(row!.status, row!.error ?? "").toBe("completed");
  return db().select().from(statementLines).where(eq(statementLines.importId, id)).orderBy(statementLines.lineNo);
}

describe("the upload check refuses what no column can hold, naming the line and the column", () => {
  it("a NUL character in a cell", async () => {
    const refused = await upload(csv(digitalLine(), digitalLine({ store: "Spot\u0000ify" })));
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toContain("Line 3: the store cell holds a NUL character (a zero byte)");
  });

  it("a NUL character in the header row", async () => {
    const refused = await upload(`${DIGITAL_HEADER.replace("store,", "st\u0000ore,")}\n${digitalLine()}\n`);
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toContain("Line 1: the header row's column 5 holds a NUL character");
  });

  it("an amount beyond the ledger's bigint", async () => {
    const refused = await upload(csv(digitalLine({ gross_amount: "99999999999999999999.00", net_amount: "99999999999999999999.00" })));
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toMatch(/Line 2: (gross|net)_amount “99999999999999999999.00” is larger than the ledger can hold/);
  });

  it("amounts that fit one by one but add up beyond it", async () => {
    const huge = "5000000000000.00"; // 5e18 micro-units: two of them pass bigint
    const refused = await upload(csv(digitalLine({ gross_amount: huge, net_amount: huge }), digitalLine({ gross_amount: `-${huge}`, net_amount: `-${huge}` })));
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toContain("Line 3: with this line the statement's amounts add up to more than the ledger can hold");
  });

  it("a quantity beyond the integer column", async () => {
    const refused = await upload(csv(digitalLine({ quantity: "3000000000" })));
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toContain("Line 2: quantity “3000000000” is more units than a line can hold");
  });

  it("an import queued before the check, whose file holds a NUL, is refused by its job with the same message", async () => {
    const created = await submitSalesImport(await statementUpload("digital", [DIGITAL_HEADER, digitalLine()], adminId));
    await fs.writeFile(path.join(env().STORAGE_DIR, created.filePath), csv(digitalLine({ track_title: "So\u0000ng" })));
    expect(await runQueuedJobsNow(SALES_IMPORT_JOB)).toEqual({ runs: 1, completed: 1, failed: 0 });
    const [row] = await db().select().from(salesImports).where(eq(salesImports.id, created.id));
    expect(row!.status).toBe("refused");
    expect(row!.error).toContain("Line 2: the track_title cell holds a NUL character");
  });
});

describe("statements in other encodings than UTF-8", () => {
  it("Windows-1252 is read as such, and the page says so", async () => {
    // Latin-1 bytes, with "–" and "€" at Windows-1252's own places (0x96, 0x80).
    const text = csv(digitalLine({ artist: "Beyoncé", track_title: "Café \u0096 ½ \u0080" }));
    const ok = await upload(Buffer.from(text, "latin1"));
    expect(ok.status).toBe(302);
    expect(ok.flash?.message).toContain("Its text was read as Windows-1252.");
    const [line] = await importedLines(ok.location);
    expect([line!.artist, line!.trackTitle]).toEqual(["Beyoncé", "Café – ½ €"]);
  });

  it("UTF-16 with a byte-order mark, either byte order", async () => {
    const little = await upload(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv(digitalLine({ artist: "Beyoncé 山田" })), "utf16le")]));
    expect(little.status).toBe(302);
    expect(little.flash?.message).toContain("Its text was read as UTF-16 (little-endian).");
    expect((await importedLines(little.location))[0]!.artist).toBe("Beyoncé 山田");

    const le = Buffer.from(csv(digitalLine({ artist: "Sigur Rós" })), "utf16le");
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
    const big = await upload(Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    expect(big.status).toBe(302);
    expect((await importedLines(big.location))[0]!.artist).toBe("Sigur Rós");
  });

  it("UTF-8, with or without its mark, is read as before and not mentioned", async () => {
    const ok = await upload(`\uFEFF${csv(digitalLine({ artist: "Beyoncé" }))}`);
    expect(ok.status).toBe(302);
    expect(ok.flash?.message).not.toContain("read as");
    expect((await importedLines(ok.location))[0]!.artist).toBe("Beyoncé");
  });

  it("UTF-16 without its mark, or bytes neither UTF-8 nor Windows-1252, are refused", async () => {
    const noMark = await upload(Buffer.from(csv(digitalLine()), "utf16le"));
    expect(noMark.status).toBe(400);
    expect(noMark.recorded).toBe(0);
    expect(noMark.html).toContain("This file looks like UTF-16 text without a byte-order mark");

    const other = Buffer.concat([Buffer.from(`${csv(digitalLine())}`, "utf8"), Buffer.from([0x81, 0x40]), Buffer.from(`${digitalLine()}\n`, "utf8")]);
    const refused = await upload(other);
    expect(refused.status).toBe(400);
    expect(refused.recorded).toBe(0);
    expect(refused.html).toContain("Line 3: the file is neither UTF-8 nor Windows-1252 text (it holds the byte 0x81");
  });
});
