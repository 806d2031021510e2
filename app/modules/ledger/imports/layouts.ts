/**
 * The statement layouts Backline accepts, recognised by their header rows (docs/money.md "Statements in").
 *
 * A layout is recognised by a set of required header names (case-insensitive, trimmed, BOM stripped),
 * never by column order, so an extra or moved column does not break an import. The column names of the
 * real layouts come from public descriptions and from other tools' parsers and fixtures of real exports:
 *
 * - DistroKid "excruciating detail" bank export (TSV): Reporting Date, Sale Month, Store, Artist, Title,
 *   ISRC, UPC, Quantity, Team Percentage, Song/Album, Country of Sale, Songwriter Royalties Withheld,
 *   Earnings (USD). Confirmed by the TrackShift project's column-definition wiki and its DistroKid test
 *   fixture (github.com/SuperHyperInstantFutureTime/TrackShift, test/files/DistroKid_Test.tsv), and by
 *   another project's DistroKidBankDetail type. Sale Month is YYYY-MM; Reporting Date is YYYY-MM-DD.
 * - TuneCore sales report (CSV): Sales Period, Posted Date, Store Name, Country Of Sale, Artist,
 *   Release Type, Release Title, Song Title, Label, UPC, Optional UPC, TC Song ID, Optional ISRC,
 *   Sales Type, # Units Sold, Per Unit Price, Net Sales, Net Sales Currency, Exchange Rate, Total Earned,
 *   Currency (newer files add Commission, Youtube Video ID, Youtube Policy Type). Confirmed by TrackShift's
 *   wiki and fixture and by a published analysis of a real 22,540-row TuneCore export, which shows
 *   Sales Period as the first day of the sale month, the TuneCore-assigned ISRC in "TC Song ID"
 *   (USTCZ...) with "Optional ISRC" empty, and an empty Exchange Rate when no conversion happened.
 * - CD Baby sales/accounting download: Report Date, Sales Date, Quantity, Price, Subtotal, Isrc, Barcode,
 *   CDBabySku, Album Name, Artist Name, Track Name, Partner Name, Transaction Type, Delivery Country, with
 *   US dates such as "7/31/2023 12:00:00 AM". Confirmed by TrackShift's fixture (test/files/CdBaby_Test.txt,
 *   tab-separated) and a second project's generator of CD Baby-shaped files. The download is a .txt that
 *   is tab-separated; a copy re-saved as a comma-separated CSV is accepted too (the delimiter is sniffed).
 * - BMI royalty statement (CSV): PERIOD, W OR P, PARTICIPANT NAME, PARTICIPANT #, IP #, TITLE NAME, TITLE #,
 *   PERF SOURCE, COUNTRY OF PERFORMANCE, SHOW NAME, EPISODE NAME, SHOW #, USE CODE, TIMING, PARTICIPANT %,
 *   PERF COUNT, BONUS LEVEL, ROYALTY AMOUNT, WITHHOLD, PERF PERIOD, CURRENT ACTIVITY AMT, HITS SONG OR TV NET
 *   SUPER USAGE BONUS, STANDARDS OR TV NET THEME BONUS, FOREIGN SOCIETY ADJUSTMENT, COMPANY CODE, COMPANY
 *   NAME (some add PERF DATE). Confirmed by four independent parsers (C, C#, Python, TypeScript) of real
 *   BMI files; PERIOD and PERF PERIOD are a year and a quarter, "20234". Assumption: "IP #" is the
 *   participant's IPI name number (BMI's own account number is "PARTICIPANT #").
 * - ASCAP royalty statement (CSV): two shapes are in circulation. The domestic detail (41 columns:
 *   DistributionYear, Distribution Quarter, Statement Recipient ID/Name, Party ID/Name, Legal Earner Party
 *   ID/Name, Performance Source/Broadcast Medium, Music User Genre, Music User, Network Service, Performance
 *   Start/End Date, ..., Work ID, Work Title, CA%, Classification Code, Number of Plays, ..., Credits,
 *   Dollars, Premium Credits, Premium Dollars, Adjustment Indicator, ..., Role Type, Type Of Right,
 *   Territory, Licensor, Program Code, Performance Quarter) and a shorter one (File Type, Statement
 *   Recipient Name/ID, Party Name/ID, Distribution Date, Country Name, Performance Start/End Date, Work
 *   Title, Work ID, Revenue Class Code/Description, $ Amount, Role Type, Type Of Right, Territory) with
 *   dates like 01-31-2026. Both from a project that profiled real ASCAP downloads, the first shape also
 *   from a second project's format registry. ASCAP files carry ASCAP's own Party ID, not an IPI, so their
 *   lines come in without an IPI (unless a column named IPI is present) and match by ISWC or work title.
 *   Performance Quarter is read as "2Q2026" (also "2026Q2").
 */
import {
  amountMicros,
  currencyCode,
  dayPeriod,
  exchangeRate,
  failRow,
  ipiCell,
  isrcCell,
  iswcCell,
  monthOfCell,
  normaliseHeader,
  normaliseIsrc,
  optionalText,
  parseQuarter,
  periodFromCells,
  pickHeader,
  quantity,
  quarterOfCell,
  requiredText,
  upcCell,
  type Period,
  type SourceRow,
} from "./fields";
import { StatementFormatError, type StatementKind, type StatementLine } from "./statement-line";

export type LayoutId = "canonical-digital" | "distrokid" | "tunecore" | "cdbaby" | "canonical-pro" | "bmi" | "ascap" | "canonical-license";

export interface Layout {
  id: LayoutId;
  kind: StatementKind;
  /** As named to administrators: "DistroKid TSV". */
  label: string;
  /** The delimiter the layout is usually exported with (the parser sniffs the actual one). */
  delimiter: "," | "\t";
  /** Normalised header names that must all be present. */
  requiredHeaders: readonly string[];
  /** Groups of normalised header names of which at least one each must be present (renamed columns). */
  requiredOneOf?: readonly (readonly string[])[];
  mapRow(row: SourceRow, lineNo: number): StatementLine;
}

const HOME_CURRENCY = "USD";

type LineFields = Omit<StatementLine, "lineNo" | "kind">;

function line(kind: StatementKind, lineNo: number, fields: LineFields): StatementLine {
  // The fields' own object becomes the line (no copy: this runs once per statement line).
  const made = fields as StatementLine;
  made.lineNo = lineNo;
  made.kind = kind;
  return made;
}

function requireDigitalIds(row: SourceRow, lineNo: number, isrc: string | null, upc: string | null, columns: string): void {
  if (!isrc && !upc) {
    throw new StatementFormatError(`Line ${lineNo}: a digital line needs an ISRC or a UPC (${columns}); both are empty.`, {
      lineNo,
      column: columns,
    });
  }
}

// ---- Backline canonical CSV (docs/money.md "Canonical CSV columns") -----------------------------------------

const canonicalDigital: Layout = {
  id: "canonical-digital",
  kind: "digital",
  label: "Backline CSV",
  delimiter: ",",
  requiredHeaders: ["sale_period_start", "store", "isrc", "upc", "net_amount"],
  mapRow(row, lineNo) {
    const period = periodFromCells(row, "sale_period_start", "sale_period_end", lineNo);
    const isrc = isrcCell(row, "isrc", lineNo);
    const upc = upcCell(row, "upc", lineNo);
    requireDigitalIds(row, lineNo, isrc, upc, "isrc, upc");
    return line("digital", lineNo, {
      statementId: optionalText(row, "statement_id"),
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: requiredText(row, "store", lineNo),
      territory: optionalText(row, "territory"),
      artist: optionalText(row, "artist"),
      releaseTitle: optionalText(row, "release_title"),
      trackTitle: optionalText(row, "track_title"),
      isrc,
      upc,
      iswc: null,
      ipi: null,
      quantity: quantity(row, "quantity", lineNo),
      originalAmountMicros: amountMicros(row, "net_amount", lineNo),
      originalCurrency: currencyCode(row, "statement_currency", lineNo),
      exchangeRate: exchangeRate(row, "exchange_rate", lineNo),
    });
  },
};

const canonicalPro: Layout = {
  id: "canonical-pro",
  kind: "pro",
  label: "Backline CSV",
  delimiter: ",",
  requiredHeaders: ["ipi_cae", "work_title", "amount", "performance_start_date"],
  mapRow(row, lineNo) {
    // A PRO line without performance dates is dated by its distribution.
    const period =
      row.get("performance_start_date") !== "" || !row.has("distribution_date")
        ? periodFromCells(row, "performance_start_date", "performance_end_date", lineNo)
        : periodFromCells(row, "distribution_date", null, lineNo);
    const trackTitle = optionalText(row, "work_title");
    const iswc = iswcCell(row, "iswc", lineNo);
    if (!trackTitle && !iswc) failRow(lineNo, "work_title", "a PRO line needs a work_title or an ISWC; both are empty.");
    return line("pro", lineNo, {
      statementId: optionalText(row, "statement_id"),
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      // Our CSV has no society column; the performance source is the nearest "where it came from".
      source: optionalText(row, "performance_source") ?? "PRO",
      territory: optionalText(row, "territory"),
      artist: null,
      releaseTitle: null,
      trackTitle,
      isrc: null,
      upc: null,
      iswc,
      ipi: ipiCell(row, "ipi_cae", lineNo),
      quantity: quantity(row, "number_of_plays", lineNo),
      originalAmountMicros: amountMicros(row, "amount", lineNo),
      originalCurrency: currencyCode(row, "currency", lineNo),
      exchangeRate: exchangeRate(row, "exchange_rate", lineNo),
    });
  },
};

const canonicalLicense: Layout = {
  id: "canonical-license",
  kind: "license",
  label: "Backline CSV",
  delimiter: ",",
  requiredHeaders: ["licensee", "term_start", "song_title", "isrc", "amount"],
  mapRow(row, lineNo) {
    const period = periodFromCells(row, "term_start", "term_end", lineNo);
    const isrc = isrcCell(row, "isrc", lineNo);
    const trackTitle = optionalText(row, "song_title");
    if (!isrc && !trackTitle) failRow(lineNo, "isrc", "a license line needs an ISRC or a song_title; both are empty.");
    return line("license", lineNo, {
      statementId: optionalText(row, "statement_id"),
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: requiredText(row, "licensee", lineNo),
      territory: optionalText(row, "territory"),
      artist: null,
      releaseTitle: null,
      trackTitle,
      isrc,
      upc: null,
      iswc: null,
      ipi: null,
      quantity: null,
      originalAmountMicros: amountMicros(row, "amount", lineNo),
      originalCurrency: currencyCode(row, "currency", lineNo),
      exchangeRate: exchangeRate(row, "exchange_rate", lineNo),
    });
  },
};

// ---- Digital distributors --------------------------------------------------------------------------

const distrokid: Layout = {
  id: "distrokid",
  kind: "digital",
  label: "DistroKid TSV",
  delimiter: "\t",
  requiredHeaders: ["reporting date", "sale month", "store", "title", "isrc", "upc", "quantity", "earnings (usd)"],
  mapRow(row, lineNo) {
    const period = monthOfCell(row, "sale month", lineNo);
    const isrc = isrcCell(row, "isrc", lineNo);
    const upc = upcCell(row, "upc", lineNo);
    requireDigitalIds(row, lineNo, isrc, upc, "ISRC, UPC");
    // "Title" is the song on a Song row and the album on an Album row (album rows have no ISRC).
    const kind = row.get("song/album").toLowerCase();
    const isAlbum = kind === "album" || (kind === "" && !isrc);
    const title = optionalText(row, "title");
    return line("digital", lineNo, {
      statementId: null,
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: requiredText(row, "store", lineNo),
      territory: optionalText(row, "country of sale"),
      artist: optionalText(row, "artist"),
      releaseTitle: isAlbum ? title : null,
      trackTitle: isAlbum ? null : title,
      isrc,
      upc,
      iswc: null,
      ipi: null,
      quantity: quantity(row, "quantity", lineNo),
      // Already the member's share after DistroKid's team splits ("Team Percentage"), in USD.
      originalAmountMicros: amountMicros(row, "earnings (usd)", lineNo),
      originalCurrency: HOME_CURRENCY,
      exchangeRate: null,
    });
  },
};

const tunecore: Layout = {
  id: "tunecore",
  kind: "digital",
  label: "TuneCore CSV",
  delimiter: ",",
  requiredHeaders: ["sales period", "store name", "tc song id", "optional isrc", "# units sold", "net sales", "net sales currency"],
  mapRow(row, lineNo) {
    // TuneCore reports by month; Sales Period is written as the month's first day.
    const period = monthOfCell(row, "sales period", lineNo, { us: true });
    // The member's own codes win; otherwise TuneCore's (its assigned ISRC sits in "TC Song ID").
    const isrc = isrcCell(row, "optional isrc", lineNo) ?? normaliseIsrc(row.get("tc song id"));
    const upc = upcCell(row, "optional upc", lineNo) ?? upcCell(row, "upc", lineNo);
    requireDigitalIds(row, lineNo, isrc, upc, "Optional ISRC, TC Song ID, UPC, Optional UPC");

    // Net Sales is the pre-conversion figure in Net Sales Currency; TuneCore's Exchange Rate converts it to
    // the account's Currency. It is a rate to our home currency only when that Currency is USD.
    const currency = currencyCode(row, "net sales currency", lineNo, null);
    const accountCurrency = row.has("currency") && row.get("currency") !== "" ? currencyCode(row, "currency", lineNo, null) : null;
    const rate = currency !== HOME_CURRENCY && accountCurrency === HOME_CURRENCY ? exchangeRate(row, "exchange rate", lineNo) : null;
    const releaseType = row.get("release type").toLowerCase();
    return line("digital", lineNo, {
      statementId: null,
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: requiredText(row, "store name", lineNo),
      territory: optionalText(row, "country of sale"),
      artist: optionalText(row, "artist"),
      releaseTitle: optionalText(row, "release title"),
      trackTitle: releaseType === "album" ? null : optionalText(row, "song title"),
      isrc,
      upc,
      iswc: null,
      ipi: null,
      quantity: quantity(row, "# units sold", lineNo),
      originalAmountMicros: amountMicros(row, "net sales", lineNo),
      originalCurrency: currency,
      exchangeRate: rate,
    });
  },
};

const cdbaby: Layout = {
  id: "cdbaby",
  kind: "digital",
  label: "CD Baby CSV",
  delimiter: "\t",
  requiredHeaders: ["sales date", "quantity", "subtotal", "isrc", "barcode", "cdbabysku", "partner name"],
  mapRow(row, lineNo) {
    const period = dayPeriod(row, "sales date", lineNo, { us: true });
    const isrc = isrcCell(row, "isrc", lineNo);
    const upc = upcCell(row, "barcode", lineNo);
    requireDigitalIds(row, lineNo, isrc, upc, "Isrc, Barcode");
    return line("digital", lineNo, {
      statementId: null,
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: requiredText(row, "partner name", lineNo),
      territory: optionalText(row, "delivery country"),
      artist: optionalText(row, "artist name"),
      releaseTitle: optionalText(row, "album name"),
      trackTitle: optionalText(row, "track name"),
      isrc,
      upc,
      iswc: null,
      ipi: null,
      quantity: quantity(row, "quantity", lineNo),
      originalAmountMicros: amountMicros(row, "subtotal", lineNo),
      originalCurrency: HOME_CURRENCY,
      exchangeRate: null,
    });
  },
};

// ---- Performing rights organisations ---------------------------------------------------------------

const OPTIONAL_IPI_HEADERS = ["ipi", "ipi number", "ipi name number", "ipi/cae", "cae/ipi", "cae/ipi number"];

const bmi: Layout = {
  id: "bmi",
  kind: "pro",
  label: "BMI CSV",
  delimiter: ",",
  requiredHeaders: ["period", "participant name", "title name", "perf source", "perf count", "royalty amount", "perf period"],
  mapRow(row, lineNo) {
    // The quarter performed; the distribution quarter (PERIOD) when a line has none.
    const period = quarterOfCell(row, row.get("perf period") !== "" ? "perf period" : "period", lineNo);
    const ipiHeader = pickHeader(row, ["ip #", ...OPTIONAL_IPI_HEADERS]);
    const trackTitle = optionalText(row, "title name");
    const iswc = row.has("iswc") ? iswcCell(row, "iswc", lineNo) : null;
    if (!trackTitle && !iswc) failRow(lineNo, "title name", `${row.label("title name")} is empty.`);
    return line("pro", lineNo, {
      statementId: null,
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: "BMI",
      territory: optionalText(row, "country of performance"),
      artist: null,
      releaseTitle: null,
      trackTitle,
      isrc: null,
      upc: null,
      iswc,
      ipi: ipiHeader ? ipiCell(row, ipiHeader, lineNo) : null,
      quantity: quantity(row, "perf count", lineNo),
      // BMI pays in USD, foreign-society income included (already converted on the statement).
      originalAmountMicros: amountMicros(row, "royalty amount", lineNo),
      originalCurrency: HOME_CURRENCY,
      exchangeRate: null,
    });
  },
};

function ascapPeriod(row: SourceRow, lineNo: number): Period {
  if (row.get("performance start date") !== "") {
    return periodFromCells(row, "performance start date", row.has("performance end date") ? "performance end date" : null, lineNo, { us: true });
  }
  if (row.get("performance quarter") !== "") return quarterOfCell(row, "performance quarter", lineNo);
  const year = row.get("distributionyear");
  const quarter = row.get("distribution quarter");
  if (year !== "" && quarter !== "") {
    const period = /^\d{4}$/.test(year) ? parseQuarter(`${year}${quarter}`) : null;
    if (!period)
      failRow(lineNo, "distributionyear", `DistributionYear “${year}” and Distribution Quarter “${quarter}” are not a year and a quarter such as 2026 and 1.`);
    return period;
  }
  if (row.get("distribution date") !== "") return periodFromCells(row, "distribution date", null, lineNo, { us: true });
  return failRow(
    lineNo,
    "performance start date",
    "an ASCAP line needs a Performance Start Date, a Performance Quarter or a distribution date; all are empty.",
  );
}

const ascap: Layout = {
  id: "ascap",
  kind: "pro",
  label: "ASCAP CSV",
  delimiter: ",",
  requiredHeaders: ["statement recipient id", "party name", "work title", "role type", "type of right"],
  requiredOneOf: [["dollars", "$ amount"]],
  mapRow(row, lineNo) {
    const period = ascapPeriod(row, lineNo);
    const amountHeader = pickHeader(row, ["dollars", "$ amount"])!;
    const ipiHeader = pickHeader(row, OPTIONAL_IPI_HEADERS);
    const trackTitle = optionalText(row, "work title");
    const iswc = row.has("iswc") ? iswcCell(row, "iswc", lineNo) : null;
    if (!trackTitle && !iswc) failRow(lineNo, "work title", `${row.label("work title")} is empty.`);
    return line("pro", lineNo, {
      statementId: null,
      salePeriodStart: period.start,
      salePeriodEnd: period.end,
      source: "ASCAP",
      territory: optionalText(row, "territory") ?? optionalText(row, "country name"),
      artist: null,
      releaseTitle: null,
      trackTitle,
      isrc: null,
      upc: null,
      iswc,
      ipi: ipiHeader ? ipiCell(row, ipiHeader, lineNo) : null,
      quantity: row.has("number of plays") ? quantity(row, "number of plays", lineNo) : null,
      originalAmountMicros: amountMicros(row, amountHeader, lineNo),
      originalCurrency: HOME_CURRENCY,
      exchangeRate: null,
    });
  },
};

/** Every accepted layout; within a kind, the first whose headers match wins (ours first). */
export const LAYOUTS: readonly Layout[] = [canonicalDigital, distrokid, tunecore, cdbaby, canonicalPro, bmi, ascap, canonicalLicense];

const KIND_NAMES: Record<StatementKind, string> = { digital: "digital", pro: "PRO", license: "license" };

export function layoutsOfKind(kind: StatementKind): Layout[] {
  return LAYOUTS.filter((layout) => layout.kind === kind);
}

/** "This file's columns match none of the accepted digital layouts: Backline CSV, DistroKid TSV, ..." */
export function unrecognisedLayoutMessage(kind: StatementKind): string {
  const labels = layoutsOfKind(kind).map((layout) => layout.label);
  return `This file's columns match none of the accepted ${KIND_NAMES[kind]} layouts: ${labels.join(", ")}.`;
}

function matches(layout: Layout, headers: ReadonlySet<string>): boolean {
  return (
    layout.requiredHeaders.every((header) => headers.has(header)) && (layout.requiredOneOf ?? []).every((group) => group.some((header) => headers.has(header)))
  );
}

/**
 * The layout of a statement of this kind, from its header row. Throws a StatementFormatError naming the
 * accepted layouts of the kind, and, when the columns are those of another kind's layout (a DistroKid
 * file uploaded as PRO), saying which kind to choose instead.
 */
export function detectLayout(kind: StatementKind, headerCells: readonly string[]): Layout {
  const headers = new Set(headerCells.map(normaliseHeader));
  const layout = layoutsOfKind(kind).find((candidate) => matches(candidate, headers));
  if (layout) return layout;
  const elsewhere = LAYOUTS.find((candidate) => candidate.kind !== kind && matches(candidate, headers));
  if (elsewhere) {
    throw new StatementFormatError(
      `This file looks like a ${KIND_NAMES[elsewhere.kind]} statement (${elsewhere.label}), not a ${KIND_NAMES[kind]} one: ` +
        `upload it as ${KIND_NAMES[elsewhere.kind]}. ${unrecognisedLayoutMessage(kind)}`,
    );
  }
  throw new StatementFormatError(unrecognisedLayoutMessage(kind));
}
