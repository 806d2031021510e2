import PDFDocument from "pdfkit";
import { drawText, heightOfText, selectBaseFont, type FontWeight } from "~/modules/pdf/unicode-text.server";
import { slugFromTitle } from "~/modules/catalog/releases/release-options";
import { formatCents, microsToCentsFloor } from "~/modules/ledger/money";
import { formatBps } from "./split-rules";

/**
 * A split version rendered as a printable, signed split sheet (PDF): the song, the version, the parties'
 * shares with a total, the recoup when there is one, and each party's answer with its date and IP (the
 * evidence a royalty dispute turns on). Pure: the caller gathers the facts. Names, titles and emails are
 * drawn in their own script (app/modules/pdf/unicode-text.server.ts).
 */

export interface SplitSheetPdfParty {
  name: string;
  email: string | null;
  shareBps: number;
  status: "accepted" | "pending" | "declined";
  answeredAt: Date | null;
  answeredIp: string | null;
}

export interface SplitSheetPdfInput {
  song: { title: string; artistName: string; isrc: string | null };
  version: {
    number: number;
    /** YYYY-MM-DD. */
    effectiveFrom: string;
    /** As the page shows it: "in force", "proposed", "confirmed"... */
    status: string;
    recoup: { amountMicros: bigint; partyName: string } | null;
  };
  proposedBy: string | null;
  proposedAt: Date;
  confirmedBy: string | null;
  confirmedAt: Date | null;
  parties: SplitSheetPdfParty[];
  generatedAt: Date;
  /** "Backline". */
  appName: string;
}

/* ------------------------------------------------------------------ formatting */

/** "2026-03-01 14:05 UTC": always UTC, so the sheet reads the same wherever it is printed. */
export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;
}

/** "split-sheet-late-trains-live-v1.pdf": lowercase ASCII only, so it is safe in a Content-Disposition header. */
export function splitSheetFileName(input: Pick<SplitSheetPdfInput, "song" | "version">): string {
  const slug = slugFromTitle(input.song.title).slice(0, 60).replace(/-+$/, "") || "song";
  return `split-sheet-${slug}-v${Math.trunc(input.version.number)}.pdf`;
}

const STATUS_LABELS: Record<SplitSheetPdfParty["status"], string> = {
  accepted: "Accepted",
  pending: "Pending",
  declined: "Declined",
};

function partyLabel(party: SplitSheetPdfParty): string {
  return party.email ? `${party.name} (${party.email})` : party.name;
}

function answerLine(party: SplitSheetPdfParty): string {
  if (party.status === "pending") return `${partyLabel(party)}: Not yet answered`;
  const verb = party.status === "accepted" ? "Accepted" : "Declined";
  const when = party.answeredAt ? ` on ${formatUtc(party.answeredAt)}` : "";
  const from = party.answeredIp ? ` from IP ${party.answeredIp}` : " (IP not recorded)";
  return `${verb} by ${partyLabel(party)}${when}${from}`;
}

/* ------------------------------------------------------------------ layout */

const MARGIN = 56;
/** The footer sits inside the bottom margin, below where the body may flow. */
const BOTTOM_MARGIN = 72;
const INK = "#111111";
const MUTED = "#666666";
const RULE = "#bbbbbb";
const SHADE = "#f0f0f0";
const BODY_SIZE = 10;
const CELL_PAD = 5;
/** A cell wraps to at most this many lines, then ends with an ellipsis. */
const MAX_CELL_LINES = 3;

type Doc = PDFKit.PDFDocument;

interface Column {
  header: string;
  /** A fraction of the body's width. */
  share: number;
  align: "left" | "right";
}

const COLUMNS: Column[] = [
  { header: "Party", share: 0.32, align: "left" },
  { header: "Email", share: 0.38, align: "left" },
  { header: "Share", share: 0.13, align: "right" },
  { header: "Status", share: 0.17, align: "left" },
];

function bodyWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

function bodyBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** Moves to a new page when `height` more points would not fit on this one. */
function ensureRoom(doc: Doc, height: number): boolean {
  if (doc.y + height <= bodyBottom(doc)) return false;
  doc.addPage();
  return true;
}

function sectionHeading(doc: Doc, title: string) {
  ensureRoom(doc, 40);
  doc.moveDown(1.2);
  selectBaseFont(doc, "bold").fontSize(12).fillColor(INK);
  doc.text(title, doc.page.margins.left, doc.y, { width: bodyWidth(doc) });
  const y = doc.y + 2;
  doc
    .moveTo(doc.page.margins.left, y)
    .lineTo(doc.page.margins.left + bodyWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y = y + 6;
}

/** "Label    value" rows of the song block; the value wraps under itself. */
function keyValueRows(doc: Doc, rows: Array<[string, string]>) {
  const left = doc.page.margins.left;
  const labelWidth = 110;
  const valueWidth = bodyWidth(doc) - labelWidth;
  doc.fontSize(BODY_SIZE);
  for (const [label, value] of rows) {
    selectBaseFont(doc, "regular");
    const height = Math.max(heightOfText(doc, value, { width: valueWidth }), doc.currentLineHeight(true));
    ensureRoom(doc, height);
    const y = doc.y;
    selectBaseFont(doc, "bold")
      .fillColor(MUTED)
      .text(label, left, y, { width: labelWidth - 8 });
    doc.fillColor(INK);
    drawText(doc, value, left + labelWidth, y, { width: valueWidth });
    doc.y = y + height + 3;
  }
}

/** Text cells' heights, capped at MAX_CELL_LINES lines. */
function rowHeight(doc: Doc, cells: string[], widths: number[], weight: FontWeight): number {
  selectBaseFont(doc, weight).fontSize(BODY_SIZE);
  const lineHeight = doc.currentLineHeight(true);
  const tallest = Math.max(...cells.map((cell, i) => heightOfText(doc, cell || " ", { width: widths[i] - 2 * CELL_PAD, weight })));
  return Math.min(Math.max(tallest, lineHeight), lineHeight * MAX_CELL_LINES) + 2 * CELL_PAD;
}

function drawRow(doc: Doc, cells: string[], widths: number[], options: { weight: FontWeight; shade?: boolean; ruleAbove?: boolean }) {
  const left = doc.page.margins.left;
  const height = rowHeight(doc, cells, widths, options.weight);
  const y = doc.y;
  const total = widths.reduce((a, b) => a + b, 0);
  if (options.shade) doc.rect(left, y, total, height).fillColor(SHADE).fill();
  if (options.ruleAbove)
    doc
      .moveTo(left, y)
      .lineTo(left + total, y)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke();
  selectBaseFont(doc, options.weight).fontSize(BODY_SIZE).fillColor(INK);
  const lineHeight = doc.currentLineHeight(true);
  let x = left;
  cells.forEach((cell, i) => {
    // `height` bounds the wrapper (and stops it from adding a page); `ellipsis` marks a cut-off value.
    drawText(doc, cell, x + CELL_PAD, y + CELL_PAD, {
      weight: options.weight,
      width: widths[i] - 2 * CELL_PAD,
      height: lineHeight * MAX_CELL_LINES + 0.5,
      ellipsis: true,
      align: COLUMNS[i].align,
    });
    x += widths[i];
  });
  doc
    .moveTo(left, y + height)
    .lineTo(left + total, y + height)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.x = left;
  doc.y = y + height;
}

function partiesTable(doc: Doc, parties: SplitSheetPdfParty[]) {
  const widths = COLUMNS.map((c) => Math.floor(bodyWidth(doc) * c.share));
  const header = COLUMNS.map((c) => c.header);
  const headerRow = () => drawRow(doc, header, widths, { weight: "bold", shade: true });

  ensureRoom(doc, rowHeight(doc, header, widths, "bold") * 2);
  headerRow();
  for (const party of parties) {
    const cells = [party.name, party.email ?? "-", formatBps(party.shareBps), STATUS_LABELS[party.status]];
    // A page break repeats the header so a continued table still reads on its own.
    if (ensureRoom(doc, rowHeight(doc, cells, widths, "regular"))) headerRow();
    drawRow(doc, cells, widths, { weight: "regular" });
  }
  const totalBps = parties.reduce((sum, p) => sum + p.shareBps, 0);
  const totalCells = ["Total", "", formatBps(totalBps), ""];
  if (ensureRoom(doc, rowHeight(doc, totalCells, widths, "bold"))) headerRow();
  drawRow(doc, totalCells, widths, { weight: "bold", ruleAbove: true });
  if (totalBps !== 10_000) {
    doc.moveDown(0.5);
    selectBaseFont(doc, "bold").fontSize(BODY_SIZE).fillColor("#b00020");
    doc.text(`The shares total ${formatBps(totalBps)}, not 100.00%.`, doc.page.margins.left, doc.y, { width: bodyWidth(doc) });
    doc.fillColor(INK);
  }
}

/** "Generated by ... on ..." and "Page n of m" on every page, drawn once the page count is known. */
function footers(doc: Doc, input: SplitSheetPdfInput) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const left = doc.page.margins.left;
    const width = bodyWidth(doc);
    const y = doc.page.height - BOTTOM_MARGIN + 30;
    // Text below the bottom margin would make pdfkit start a new page: the margin is lifted while drawing.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .moveTo(left, y - 8)
      .lineTo(left + width, y - 8)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    selectBaseFont(doc, "regular").fontSize(8).fillColor(MUTED);
    const title = `Split sheet: ${input.song.title}, version ${input.version.number}`;
    drawText(doc, title, left, y, { width: width * 0.7, ellipsis: true, height: doc.currentLineHeight(true) + 0.5 });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, left, y, { width, align: "right" });
    drawText(doc, `Generated by ${input.appName} on ${formatUtc(input.generatedAt)}`, left, y + 11, { width });
    doc.page.margins.bottom = bottom;
  }
}

/* ------------------------------------------------------------------ document */

function draw(doc: Doc, input: SplitSheetPdfInput) {
  const left = doc.page.margins.left;
  const width = bodyWidth(doc);

  selectBaseFont(doc, "bold").fontSize(22).fillColor(INK).text("Split sheet", left, doc.page.margins.top, { width });
  selectBaseFont(doc, "regular").fontSize(10).fillColor(MUTED).text("Master royalty split", { width });
  doc.moveDown(0.8);

  sectionHeading(doc, "Song");
  const { song, version } = input;
  keyValueRows(doc, [
    ["Title", song.title],
    ["Artist", song.artistName],
    ["ISRC", song.isrc ?? "Not assigned"],
    ["Version", `${version.number} (${version.status})`],
    ["Effective from", version.effectiveFrom],
    ["Proposed", `${input.proposedBy ? `by ${input.proposedBy} ` : ""}on ${formatUtc(input.proposedAt)}`],
    ["Confirmed", input.confirmedAt ? `${input.confirmedBy ? `by ${input.confirmedBy} ` : ""}on ${formatUtc(input.confirmedAt)}` : "Not yet confirmed"],
  ]);

  sectionHeading(doc, "Parties");
  partiesTable(doc, input.parties);

  if (version.recoup) {
    doc.moveDown(0.8);
    const text =
      `Recoup: ${formatCents(microsToCentsFloor(version.recoup.amountMicros))} is paid to ${version.recoup.partyName} ` + "before the shares above apply.";
    selectBaseFont(doc, "regular").fontSize(BODY_SIZE).fillColor(INK);
    ensureRoom(doc, heightOfText(doc, text, { width }));
    drawText(doc, text, left, doc.y, { width });
  }

  sectionHeading(doc, "Acceptances");
  selectBaseFont(doc, "regular").fontSize(BODY_SIZE).fillColor(INK);
  for (const party of input.parties) {
    const text = answerLine(party);
    ensureRoom(doc, heightOfText(doc, text, { width }));
    drawText(doc, text, left, doc.y, { width });
    doc.moveDown(0.4);
  }
}

/**
 * The split sheet as a PDF. The creation date is `generatedAt` and pdfkit derives the document ID from the
 * info dictionary, so the same input gives the same bytes (true of pdfkit 0.20; nothing relies on it).
 * `compress: false` leaves the content streams readable (for tests).
 */
export function renderSplitSheetPdf(input: SplitSheetPdfInput, options?: { compress?: boolean }): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    try {
      const doc = new PDFDocument({
        size: "A4",
        margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM_MARGIN },
        bufferPages: true,
        compress: options?.compress ?? true,
        info: {
          // The info dictionary holds Unicode (pdfkit writes UTF-16 there), so the title is not sanitised.
          Title: `Split sheet: ${input.song.title} (version ${input.version.number})`,
          Author: input.appName,
          Creator: input.appName,
          CreationDate: input.generatedAt,
        },
      });
      selectBaseFont(doc, "regular");
      const chunks: Buffer[] = [];
      doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      doc.on("end", () => resolve(Buffer.concat(chunks)));
      doc.on("error", reject);
      draw(doc, input);
      footers(doc, input);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
