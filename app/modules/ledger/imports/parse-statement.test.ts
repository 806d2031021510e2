import { createReadStream, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openStatement, parseStatement, StatementFormatError, type StatementKind, type StatementLine, type StatementOptions } from "./parse-statement";

const FIXTURES = fileURLToPath(new URL("../../../../tests/fixtures/statements/", import.meta.url));

function fixturePath(name: string): string {
  return `${FIXTURES}${name}`;
}

async function collect(lines: AsyncIterable<StatementLine>): Promise<StatementLine[]> {
  const out: StatementLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function readFixture(kind: StatementKind, name: string) {
  const opened = await openStatement(kind, createReadStream(fixturePath(name)));
  return { ...opened, all: await collect(opened.lines) };
}

/** A stream of the text cut into chunks of `size` bytes (to cross BOMs, CRLFs and multi-byte characters). */
function chunked(text: string | Buffer, size = 1 << 16): Readable {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
}

async function parseText(kind: StatementKind, text: string | Buffer, options?: StatementOptions, chunkSize?: number) {
  return collect(parseStatement(kind, chunked(text, chunkSize), options));
}

async function refusal(promise: Promise<unknown>): Promise<StatementFormatError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StatementFormatError);
  return error as StatementFormatError;
}

const DIGITAL_HEADER =
  "statement_id,reporting_date,sale_period_start,sale_period_end,store,store_service,sale_type,product_type,territory,artist,release_title,upc,track_title,isrc,quantity,unit_price,customer_currency,gross_amount,net_amount,statement_currency,exchange_rate";

function digitalRow(overrides: { period?: string; isrc?: string; upc?: string; net?: string; store?: string; title?: string } = {}): string {
  const period = overrides.period ?? "2026-03";
  const title = overrides.title ?? "Late Trains";
  return `BL-1,2026-04-15,${period},${period},${overrides.store ?? "Spotify"},Premium,stream,track,US,Juniper Vale,Northbound,${overrides.upc ?? ""},${title},${overrides.isrc ?? "USBL12600001"},10,0.004,USD,0.04,${overrides.net ?? "0.036"},USD,`;
}

describe("canonical digital CSV", () => {
  it("recognises the layout and maps every column, with exact micro-units", async () => {
    const { layout, delimiter, headers, all } = await readFixture("digital", "canonical-digital.csv");
    expect(layout.id).toBe("canonical-digital");
    expect(delimiter).toBe(",");
    expect(headers[0]).toBe("statement_id");
    expect(all).toHaveLength(5);

    expect(all[0]).toEqual({
      lineNo: 2,
      kind: "digital",
      statementId: "BL-2026-03",
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-03-31",
      source: "Spotify",
      territory: "US",
      artist: "Juniper Vale",
      releaseTitle: "Northbound",
      trackTitle: "Late Trains",
      isrc: "USBL12600001", // from "us-bl1-26-00001"
      upc: "602557123456", // from "0602557123456"
      iswc: null,
      ipi: null,
      quantity: 1520,
      originalAmountMicros: 5_472_000n,
      originalCurrency: "USD",
      exchangeRate: null,
    });
    // A UPC-only album line with leading zeros, its period given as YYYY-MM.
    expect(all[1]).toMatchObject({
      lineNo: 3,
      isrc: null,
      upc: "602557123456",
      trackTitle: null,
      releaseTitle: "Northbound",
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-03-31",
      originalAmountMicros: 6_990_000n,
    });
    // A refund: negative quantity and amount.
    expect(all[2]).toMatchObject({ lineNo: 4, isrc: "USBL12600001", quantity: -1, originalAmountMicros: -693_000n, source: "Apple Music" });
    // 8 decimals on a tie, rounded half-to-even (…567|50 -> …568); foreign currency with its rate; a quoted comma.
    expect(all[3]).toMatchObject({
      lineNo: 5,
      trackTitle: "Late Trains, Reprise",
      isrc: "USBL12600002",
      originalAmountMicros: 1_234_568n,
      originalCurrency: "EUR",
      exchangeRate: "1.0832",
      territory: "FR",
    });
    // A foreign-currency line without a rate (the administrator's rate applies at upload); "" quotes inside quotes.
    expect(all[4]).toMatchObject({
      lineNo: 6,
      releaseTitle: "Northbound (Deluxe, 2026)",
      trackTitle: 'The "Long" Way',
      isrc: "GBXYZ2600007",
      salePeriodStart: "2026-02-01",
      salePeriodEnd: "2026-03-31",
      originalAmountMicros: 3_457n, // 0.00345675 -> 0.003457
      originalCurrency: "GBP",
      exchangeRate: null,
    });
  });

  it("defaults an empty statement_currency to USD and an empty end to the start's month", async () => {
    const text = `${DIGITAL_HEADER}\nBL-1,,2026-03,,Spotify,,,,,,,,Late Trains,USBL12600001,,,,,1,,\n`;
    const [line] = await parseText("digital", text);
    expect(line).toMatchObject({ salePeriodStart: "2026-03-01", salePeriodEnd: "2026-03-31", originalCurrency: "USD", quantity: null });
  });
});

describe("DistroKid TSV", () => {
  it("recognises the layout and maps song and album rows", async () => {
    const { layout, delimiter, all } = await readFixture("digital", "distrokid.tsv");
    expect(layout.id).toBe("distrokid");
    expect(delimiter).toBe("\t");
    expect(all.map((line) => line.lineNo)).toEqual([2, 3, 4, 5]);
    expect(all[0]).toMatchObject({
      statementId: null,
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-03-31",
      source: "Spotify",
      territory: "US",
      artist: "Juniper Vale",
      trackTitle: "Late Trains",
      releaseTitle: null,
      isrc: "USBL12600001",
      upc: "602557123456",
      quantity: 1520,
      originalAmountMicros: 5_472_012n, // 5.47201234
      originalCurrency: "USD",
      exchangeRate: null,
    });
    expect(all[1]).toMatchObject({ isrc: null, upc: "602557123456", releaseTitle: "Northbound", trackTitle: null, originalAmountMicros: 6_930_000n });
    expect(all[2]).toMatchObject({
      isrc: "USBL12600001",
      salePeriodStart: "2026-02-01",
      salePeriodEnd: "2026-02-28",
      quantity: -1,
      originalAmountMicros: -693_000n,
    });
    // A stray quote inside a title; 0.00789950 is a tie rounded to the even 0.007900.
    expect(all[3]).toMatchObject({ trackTitle: 'Song (12" Mix)', isrc: "USBL12600003", territory: "DE", originalAmountMicros: 7_900n });
  });
});

describe("TuneCore CSV", () => {
  it("recognises the layout, prefers the member's own codes and keeps the rate only when it converts to USD", async () => {
    const { layout, all } = await readFixture("digital", "tunecore.csv");
    expect(layout.id).toBe("tunecore");
    expect(all).toHaveLength(5);
    expect(all[0]).toMatchObject({
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-03-31",
      source: "Spotify",
      territory: "US",
      releaseTitle: "Late Trains",
      trackTitle: "Late Trains",
      isrc: "USBL12600001", // Optional ISRC wins over TuneCore's own
      upc: "859712345678",
      quantity: 1000,
      originalAmountMicros: 3_500_000n,
      originalCurrency: "USD",
      exchangeRate: null,
    });
    expect(all[1]).toMatchObject({ isrc: "USTCZ2600001", originalAmountMicros: 2_000_000n, originalCurrency: "EUR", exchangeRate: "1.0832" });
    expect(all[2]).toMatchObject({ isrc: null, upc: "602557123456", trackTitle: null, releaseTitle: "Northbound", originalAmountMicros: 6_930_000n });
    expect(all[3]).toMatchObject({ isrc: "USTCZ2600001", salePeriodStart: "2026-03-01", quantity: -1, originalAmountMicros: -690_000n });
    // GBP converted to a EUR account: not a rate to USD, so none.
    expect(all[4]).toMatchObject({ salePeriodStart: "2026-02-01", salePeriodEnd: "2026-02-28", originalCurrency: "GBP", exchangeRate: null });
  });
});

describe("CD Baby", () => {
  it("recognises the tab-separated download (CRLF, quoted barcodes, US dates with times)", async () => {
    const { layout, delimiter, all } = await readFixture("digital", "cdbaby.txt");
    expect(layout.id).toBe("cdbaby");
    expect(delimiter).toBe("\t");
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({
      lineNo: 2,
      salePeriodStart: "2026-03-31",
      salePeriodEnd: "2026-03-31",
      source: "Amazon Prime",
      territory: "US",
      artist: "Juniper Vale",
      releaseTitle: "Northbound",
      trackTitle: "Late Trains",
      isrc: "USBL12600001",
      upc: "602557123456",
      quantity: 1,
      originalAmountMicros: 99_827n, // 0.0998269974
      originalCurrency: "USD",
    });
    expect(all[1]).toMatchObject({
      isrc: null,
      upc: "602557123456",
      trackTitle: null,
      salePeriodStart: "2026-03-14",
      originalAmountMicros: 6_930_000n,
      territory: "CA",
    });
    expect(all[2]).toMatchObject({ isrc: "USBL12600001", quantity: -1, originalAmountMicros: -910_000n });
  });

  it("accepts the same download re-saved as a comma-separated CSV", async () => {
    const text = readFileSync(fixturePath("cdbaby.txt"), "utf8").replaceAll("\t", ",");
    const opened = await openStatement("digital", chunked(text));
    expect(opened.layout.id).toBe("cdbaby");
    expect(opened.delimiter).toBe(",");
    expect((await collect(opened.lines)).map((line) => line.originalAmountMicros)).toEqual([99_827n, 6_930_000n, -910_000n]);
  });
});

describe("canonical PRO CSV", () => {
  it("recognises the layout and normalises IPI and ISWC", async () => {
    const { layout, all } = await readFixture("pro", "canonical-pro.csv");
    expect(layout.id).toBe("canonical-pro");
    expect(all[0]).toEqual({
      lineNo: 2,
      kind: "pro",
      statementId: "BMI-2026Q1",
      salePeriodStart: "2026-01-01",
      salePeriodEnd: "2026-03-31",
      source: "Radio",
      territory: "US",
      artist: null,
      releaseTitle: null,
      trackTitle: "Late Trains",
      isrc: null,
      upc: null,
      iswc: "T3452468001",
      ipi: "00523456789",
      quantity: 1200,
      originalAmountMicros: 12_345_679n, // 12.34567891
      originalCurrency: "USD",
      exchangeRate: null,
    });
    // A foreign-society line with its rate, periods as YYYY-MM, a 9-digit CAE number.
    expect(all[1]).toMatchObject({
      ipi: "00523456789",
      iswc: null,
      salePeriodStart: "2026-01-01",
      salePeriodEnd: "2026-03-31",
      originalAmountMicros: 8_000_000n,
      originalCurrency: "EUR",
      exchangeRate: "1.0832",
      source: "SACEM",
    });
    // Without a rate; separators in the IPI, lower-case ISWC.
    expect(all[2]).toMatchObject({
      ipi: "00523456789",
      iswc: "T3452468001",
      salePeriodStart: "2025-10-01",
      salePeriodEnd: "2025-12-31",
      originalCurrency: "GBP",
      exchangeRate: null,
    });
    expect(all[3]).toMatchObject({ quantity: -3, originalAmountMicros: -1_500_000n });
  });

  it("dates a line without performance dates by its distribution date", async () => {
    const text =
      "statement_id,distribution_date,party_name,ipi_cae,role_type,work_title,iswc,performance_source,territory,performance_start_date,performance_end_date,number_of_plays,participant_share_pct,amount,currency,exchange_rate,adjustment_indicator\n" +
      "S1,2026-06-30,Juniper Vale,523456789,Writer,Late Trains,,Radio,US,,,1,50,1.00,USD,,\n";
    const [line] = await parseText("pro", text);
    expect(line).toMatchObject({ salePeriodStart: "2026-06-30", salePeriodEnd: "2026-06-30" });
  });
});

describe("BMI CSV", () => {
  it("recognises the layout and reads quarters", async () => {
    const { layout, all } = await readFixture("pro", "bmi.csv");
    expect(layout.id).toBe("bmi");
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({
      lineNo: 2,
      kind: "pro",
      source: "BMI",
      territory: "UNITED STATES",
      trackTitle: "LATE TRAINS",
      ipi: "00523456789",
      iswc: null,
      salePeriodStart: "2026-01-01", // PERF PERIOD 20261
      salePeriodEnd: "2026-03-31",
      quantity: 1200,
      originalAmountMicros: 45_670_000n,
      originalCurrency: "USD",
      exchangeRate: null,
    });
    expect(all[1]).toMatchObject({ territory: "FRANCE", salePeriodStart: "2025-10-01", salePeriodEnd: "2025-12-31", originalAmountMicros: 8_660_000n });
    // No PERF PERIOD: the distribution PERIOD 20262.
    expect(all[2]).toMatchObject({ salePeriodStart: "2026-04-01", salePeriodEnd: "2026-06-30", quantity: -1, originalAmountMicros: -2_100_000n });
  });
});

describe("ASCAP CSV", () => {
  it("recognises the short layout ($ Amount, MM-DD-YYYY dates)", async () => {
    const { layout, all } = await readFixture("pro", "ascap.csv");
    expect(layout.id).toBe("ascap");
    expect(all[0]).toMatchObject({
      source: "ASCAP",
      trackTitle: "LATE TRAINS",
      ipi: null,
      territory: "US",
      salePeriodStart: "2026-01-01",
      salePeriodEnd: "2026-01-31",
      originalAmountMicros: 23_450_000n,
      originalCurrency: "USD",
      quantity: null,
    });
    // No performance dates: the distribution date.
    expect(all[1]).toMatchObject({ salePeriodStart: "2026-04-30", salePeriodEnd: "2026-04-30", originalAmountMicros: 3_457n });
    expect(all[2]).toMatchObject({ salePeriodStart: "2026-02-01", salePeriodEnd: "2026-02-28", originalAmountMicros: -1_250_000n });
  });

  it("recognises the domestic detail layout (Dollars, quarters, plays)", async () => {
    const { layout, all } = await readFixture("pro", "ascap-domestic.csv");
    expect(layout.id).toBe("ascap");
    expect(all[0]).toMatchObject({ salePeriodStart: "2026-03-01", salePeriodEnd: "2026-03-31", quantity: 1204, originalAmountMicros: 31_200_000n });
    expect(all[1]).toMatchObject({ salePeriodStart: "2026-01-01", salePeriodEnd: "2026-03-31", quantity: 12, originalAmountMicros: 7_850_000n });
    // Neither performance dates nor quarter: the distribution year and quarter.
    expect(all[2]).toMatchObject({ salePeriodStart: "2026-04-01", salePeriodEnd: "2026-06-30", quantity: 0, originalAmountMicros: -400_000n });
  });
});

describe("canonical license CSV", () => {
  it("recognises the layout and maps terms, titles and currencies", async () => {
    const { layout, all } = await readFixture("license", "canonical-license.csv");
    expect(layout.id).toBe("canonical-license");
    expect(all[0]).toMatchObject({
      kind: "license",
      statementId: "SYNC-2026-01",
      source: "Northlight Films",
      territory: "WORLD",
      trackTitle: "Late Trains",
      isrc: "USBL12600001",
      salePeriodStart: "2026-02-01",
      salePeriodEnd: "2027-01-31",
      originalAmountMicros: 2_500_000_000n,
      originalCurrency: "USD",
      exchangeRate: null,
      quantity: null,
    });
    expect(all[1]).toMatchObject({
      isrc: null,
      trackTitle: "Northbound",
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-05-31",
      originalCurrency: "GBP",
      exchangeRate: "1.2650",
      originalAmountMicros: 1_200_000_000n,
    });
    expect(all[2]).toMatchObject({
      salePeriodStart: "2026-03-01",
      salePeriodEnd: "2026-03-01",
      originalCurrency: "EUR",
      exchangeRate: null,
      originalAmountMicros: 300_123_457n,
    });
    expect(all[3]).toMatchObject({ originalAmountMicros: -250_000_000n });
  });
});

describe("refusals", () => {
  it("refuses an unknown header, listing the accepted layouts of the kind", async () => {
    const digital = await refusal(parseText("digital", "Date,Song,Money\n2026-03-01,Late Trains,1.00\n"));
    expect(digital.message).toBe("This file's columns match none of the accepted digital layouts: Backline CSV, DistroKid TSV, TuneCore CSV, CD Baby CSV.");
    expect(digital.lineNo).toBeNull();
    const pro = await refusal(parseText("pro", "Date,Song,Money\n"));
    expect(pro.message).toBe("This file's columns match none of the accepted PRO layouts: Backline CSV, BMI CSV, ASCAP CSV.");
    const license = await refusal(parseText("license", "Date,Song,Money\n"));
    expect(license.message).toBe("This file's columns match none of the accepted license layouts: Backline CSV.");
  });

  it("refuses a file of another kind, saying which kind it is", async () => {
    const error = await refusal(openStatement("pro", createReadStream(fixturePath("distrokid.tsv"))));
    expect(error.message).toMatch(/looks like a digital statement \(DistroKid TSV\), not a PRO one: upload it as digital/);
    expect(error.message).toContain("Backline CSV, BMI CSV, ASCAP CSV");
    const license = await refusal(openStatement("digital", createReadStream(fixturePath("canonical-license.csv"))));
    expect(license.message).toMatch(/looks like a license statement .* upload it as license/);
    const bmi = await refusal(openStatement("license", createReadStream(fixturePath("bmi.csv"))));
    expect(bmi.message).toMatch(/looks like a PRO statement \(BMI CSV\)/);
  });

  it("refuses an empty file and a file of blank lines", async () => {
    expect((await refusal(parseText("digital", ""))).message).toBe("The file is empty: it has no header row.");
    expect((await refusal(parseText("digital", "\n\r\n  \n"))).message).toBe("The file is empty: it has no header row.");
  });

  it("accepts a header with no lines", async () => {
    expect(await parseText("digital", `${DIGITAL_HEADER}\n`)).toEqual([]);
  });

  it("refuses a malformed amount with the file's line number and the column", async () => {
    const text = [DIGITAL_HEADER, digitalRow(), digitalRow({ net: '"12,50"' })].join("\n");
    const error = await refusal(parseText("digital", text));
    expect(error.lineNo).toBe(3);
    expect(error.column).toBe("net_amount");
    expect(error.message).toBe("Line 3: net_amount “12,50” is not a decimal such as 12.50.");
  });

  it.each([
    [{ isrc: "USBL1260001" }, "isrc", /isrc “USBL1260001” is not an ISRC/],
    [{ upc: "6.02557E+11", isrc: "" }, "upc", /upc “6.02557E\+11” is not a UPC/],
    [{ isrc: "", upc: "" }, "isrc, upc", /needs an ISRC or a UPC/],
    [{ period: "2026-13" }, "sale_period_start", /sale_period_start “2026-13” is not a date/],
    [{ period: "31/03/2026" }, "sale_period_start", /is not a date such as 2026-03-31/],
    [{ store: "" }, "store", /store is empty/],
    [{ net: "" }, "net_amount", /net_amount is empty/],
    [{ net: "$1.00" }, "net_amount", /not a decimal/],
  ])("refuses a bad cell %o naming its column", async (row, column, message) => {
    const error = await refusal(parseText("digital", `${DIGITAL_HEADER}\n${digitalRow(row)}\n`));
    expect(error.lineNo).toBe(2);
    expect(error.column).toBe(column);
    expect(error.message).toMatch(/^Line 2: /);
    expect(error.message).toMatch(message);
  });

  it("refuses a sale period that ends before it starts, a bad currency and a bad rate", async () => {
    const header = "statement_id,license_id,licensee,usage,territory,term_start,term_end,song_title,isrc,amount,currency,exchange_rate";
    const ends = await refusal(parseText("license", `${header}\nS,L,Films,Sync,US,2026-03-01,2026-02-28,Late Trains,,1.00,USD,\n`));
    expect(ends).toMatchObject({ lineNo: 2, column: "term_end" });
    const currency = await refusal(parseText("license", `${header}\nS,L,Films,Sync,US,2026-03-01,,Late Trains,,1.00,EURO,\n`));
    expect(currency).toMatchObject({ lineNo: 2, column: "currency" });
    const rate = await refusal(parseText("license", `${header}\nS,L,Films,Sync,US,2026-03-01,,Late Trains,,1.00,EUR,0\n`));
    expect(rate).toMatchObject({ lineNo: 2, column: "exchange_rate" });
  });

  it("counts blank lines and line breaks inside quoted cells in line numbers", async () => {
    const text = [DIGITAL_HEADER, digitalRow(), "", digitalRow({ title: '"Late Trains\n(Reprise)"' }), digitalRow({ isrc: "nope" })].join("\n");
    const error = await refusal(parseText("digital", text));
    expect(error.lineNo).toBe(6);
    expect(error.message).toMatch(/^Line 6: isrc “nope”/);

    const lines = await parseText("digital", text.split("\n").slice(0, 5).join("\n"));
    expect(lines.map((line) => line.lineNo)).toEqual([2, 4]);
    expect(lines[1].trackTitle).toBe("Late Trains\n(Reprise)");
  });

  it("refuses a row with more cells than the header", async () => {
    const error = await refusal(parseText("digital", `${DIGITAL_HEADER}\n${digitalRow()},extra\n`));
    expect(error.lineNo).toBe(2);
    expect(error.message).toMatch(/^Line 2: it has 22 cells but the header row has 21 columns/);
    // Trailing empty cells (a spreadsheet's padding) are not extra data.
    expect(await parseText("digital", `${DIGITAL_HEADER}\n${digitalRow()},,\n`)).toHaveLength(1);
  });

  it("refuses a quote that is never closed, as unreadable CSV with a line number", async () => {
    const text = `${DIGITAL_HEADER}\n${digitalRow()}\n${digitalRow({ title: '"Late Trains' })}\n${digitalRow()}\n`;
    const error = await refusal(parseText("digital", text));
    expect(error.message).toMatch(/^Line \d+: the file cannot be read as CSV \(/);
    expect(error.lineNo).toBeGreaterThanOrEqual(3);
  });

  it("refuses lines past maxLines, not counting blank lines", async () => {
    const text = [DIGITAL_HEADER, digitalRow(), "", digitalRow(), digitalRow()].join("\n");
    expect(await parseText("digital", text, { maxLines: 3 })).toHaveLength(3);
    const error = await refusal(parseText("digital", text, { maxLines: 2 }));
    expect(error.message).toBe("This file has more than 2 lines; split it into smaller files.");
    expect(error.lineNo).toBe(5);
  });
});

describe("reading", () => {
  const fixture = readFileSync(fixturePath("canonical-digital.csv"), "utf8");

  async function amounts(text: string, chunkSize?: number): Promise<Array<[number, bigint, string | null]>> {
    const lines = await parseText("digital", text, undefined, chunkSize);
    return lines.map((line) => [line.lineNo, line.originalAmountMicros, line.trackTitle]);
  }

  it("reads a UTF-8 BOM, CRLF line ends and quoted headers alike, whatever the chunk boundaries", async () => {
    const expected = await amounts(fixture);
    expect(expected).toHaveLength(5);
    const quotedHeader = fixture.replace("statement_id,reporting_date", '"statement_id","reporting_date"');
    for (const variant of [`\uFEFF${fixture}`, fixture.replaceAll("\n", "\r\n"), `\uFEFF${quotedHeader.replaceAll("\n", "\r\n")}`]) {
      expect(await amounts(variant)).toEqual(expected);
      expect(await amounts(variant, 1)).toEqual(expected);
      expect(await amounts(variant, 7)).toEqual(expected);
    }
    const opened = await openStatement("digital", chunked(`\uFEFF${quotedHeader}`, 1));
    expect(opened.headers[0]).toBe("statement_id");
    expect(opened.layout.id).toBe("canonical-digital");
    await opened.lines.return();
  });

  it("recognises a tab-separated file with a BOM and CRLF", async () => {
    const text = `\uFEFF${readFileSync(fixturePath("distrokid.tsv"), "utf8").replaceAll("\n", "\r\n")}`;
    const opened = await openStatement("digital", chunked(text, 5));
    expect(opened.delimiter).toBe("\t");
    const lines = await collect(opened.lines);
    expect(lines.map((line) => line.originalAmountMicros)).toEqual([5_472_012n, 6_930_000n, -693_000n, 7_900n]);
  });

  it("skips blank lines before the header, between lines and at the end, keeping line numbers", async () => {
    const [header, ...rows] = fixture.trimEnd().split("\n");
    const text = ["", "  ", header, rows[0], "", ",,,", rows[1], rows[2], rows[3], rows[4], "", ""].join("\n");
    const result = await amounts(text);
    expect(result.map(([lineNo]) => lineNo)).toEqual([4, 7, 8, 9, 10]);
    expect(result.map(([, micros]) => micros)).toEqual((await amounts(fixture)).map(([, micros]) => micros));
    // Blank lines before a tab-separated header do not hide its delimiter.
    const tsv = `\n\n${readFileSync(fixturePath("distrokid.tsv"), "utf8")}`;
    expect((await openStatement("digital", chunked(tsv))).delimiter).toBe("\t");
  });

  it("keeps multi-byte characters split across chunks", async () => {
    const text = `${DIGITAL_HEADER}\n${digitalRow({ title: "Beyoncé – Ça va 東京" })}\n`;
    const [line] = await parseText("digital", text, undefined, 1);
    expect(line.trackTitle).toBe("Beyoncé – Ça va 東京");
  });

  it("matches headers whatever their case, spacing or order", async () => {
    const text =
      " Earnings (USD) \tsale month\tSTORE\tTitle\tIsrc\tUpc\tQuantity\tReporting  Date\n" +
      "1.5\t2026-03\tSpotify\tLate Trains\tusbl12600001\t\t3\t2026-04-02\n";
    const opened = await openStatement("digital", chunked(text));
    expect(opened.layout.id).toBe("distrokid");
    const [line] = await collect(opened.lines);
    expect(line).toMatchObject({ isrc: "USBL12600001", upc: null, originalAmountMicros: 1_500_000n, quantity: 3 });
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("streaming", () => {
  /** A statement generated chunk by chunk, counting how many chunks have been pulled from it. */
  function generated(lineCount: number, linesPerChunk = 100) {
    const state = { chunksPulled: 0, totalChunks: Math.ceil(lineCount / linesPerChunk) + 1 };
    async function* produce(): AsyncGenerator<Buffer> {
      state.chunksPulled++;
      yield Buffer.from(`${DIGITAL_HEADER}\n`);
      for (let start = 0; start < lineCount; start += linesPerChunk) {
        let chunk = "";
        for (let i = start; i < Math.min(lineCount, start + linesPerChunk); i++) {
          const isrc = `USBL126${String(i).padStart(5, "0")}`;
          // 0.000kkk5: seven decimals, a tie at the micro-unit, rounded half-to-even.
          chunk += `BL-BIG,2026-04-15,2026-03,2026-03,Spotify,Premium,stream,track,US,Juniper Vale,Northbound,,Track ${i},${isrc},1,0.004,USD,0.004,0.000${String(i % 1000).padStart(3, "0")}5,USD,\n`;
        }
        state.chunksPulled++;
        yield Buffer.from(chunk);
      }
    }
    return { input: Readable.from(produce(), { objectMode: false }), state };
  }

  it("streams a 50,000-line file without reading it whole", async () => {
    const { input, state } = generated(50_000);
    const opened = await openStatement("digital", input);
    let count = 0;
    let sum = 0n;
    let pulledAtFirstLine = 0;
    for await (const line of opened.lines) {
      if (count === 0) pulledAtFirstLine = state.chunksPulled;
      count++;
      sum += line.originalAmountMicros;
    }
    expect(count).toBe(50_000);
    expect(state.chunksPulled).toBe(state.totalChunks);
    // Back-pressure: the first line is out before more than a sliver of the 501 chunks is read.
    expect(pulledAtFirstLine).toBeLessThan(state.totalChunks / 10);
    // k + 0.5 micro-units rounds to the even neighbour: k when k is even, k + 1 when odd.
    let expectedPerThousand = 0n;
    for (let k = 0; k < 1000; k++) expectedPerThousand += BigInt(k % 2 === 0 ? k : k + 1);
    expect(sum).toBe(expectedPerThousand * 50n);
  }, 60_000);

  it("releases the input when the reader stops early", async () => {
    const { input, state } = generated(50_000);
    const opened = await openStatement("digital", input);
    let count = 0;
    for await (const _line of opened.lines) {
      if (++count === 3) break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.destroyed).toBe(true);
    expect(state.chunksPulled).toBeLessThan(state.totalChunks / 10);
  });

  it("releases the input on close() and on return() before the first line", async () => {
    const first = createReadStream(fixturePath("canonical-digital.csv"), { highWaterMark: 64 });
    const opened = await openStatement("digital", first);
    opened.close();
    await until(() => first.destroyed);
    expect(first.destroyed).toBe(true);

    const { input } = generated(50_000);
    const unread = await openStatement("digital", input);
    await unread.lines.return();
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.destroyed).toBe(true);
  });

  it("releases the input when a line is refused or the header is unknown", async () => {
    const bad = chunked(`${DIGITAL_HEADER}\n${digitalRow()}\n${digitalRow({ net: "x" })}\n${digitalRow()}\n`, 64);
    await refusal(collect(parseStatement("digital", bad)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(bad.destroyed).toBe(true);

    const { input } = generated(50_000);
    await refusal(openStatement("pro", input));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.destroyed).toBe(true);
  });
});
