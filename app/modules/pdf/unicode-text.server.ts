import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import bidiFactory from "bidi-js";
import * as fontkit from "fontkit";

/**
 * Text in any script for pdfkit documents. Musicians' names come in every script, and the standard PDF fonts
 * encode only WinAnsi (Latin-1 and a few typographic marks), so each piece of text is drawn with the first
 * font of a fallback chain that has its characters:
 *   Helvetica (WinAnsi) → Noto Sans (Latin, Greek, Cyrillic, Devanagari) → Noto Sans Arabic → Hebrew →
 *   SC (Han, kana) → KR (Hangul).
 * The Noto fonts come from npm (SIL Open Font Licence); pdfkit embeds only the glyphs a document uses.
 * Helvetica leads because it costs nothing: pdfkit parses an embedded font again for every document, and the
 * first layout with Noto Sans takes 50-130 ms here, against 3-40 ms for a whole split sheet in Helvetica.
 * Runs of right-to-left text are put in visual order here; a field that wraps over several lines is ordered
 * as if it were one line (the values on our documents, names, emails and titles, are). A character no font
 * has (an emoji) becomes "?".
 */

export type FontWeight = "regular" | "bold";

interface FontFace {
  /** The name pdfkit knows the font by. */
  name: string;
  /** The TTF file of an embedded font; none for a standard PDF font. */
  file?: string;
}

const require = createRequire(import.meta.url);

function fontFile(pkg: string, weightDir: string, file: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), weightDir, file);
}

/** The fallback chain, per weight, in the order a character is looked up. */
const CHAIN: Record<FontWeight, FontFace[]> = {
  regular: [
    { name: "Helvetica" },
    { name: "Noto", file: fontFile("@expo-google-fonts/noto-sans", "400Regular", "NotoSans_400Regular.ttf") },
    { name: "Noto-Arabic", file: fontFile("@expo-google-fonts/noto-sans-arabic", "400Regular", "NotoSansArabic_400Regular.ttf") },
    { name: "Noto-Hebrew", file: fontFile("@expo-google-fonts/noto-sans-hebrew", "400Regular", "NotoSansHebrew_400Regular.ttf") },
    { name: "Noto-SC", file: fontFile("@expo-google-fonts/noto-sans-sc", "400Regular", "NotoSansSC_400Regular.ttf") },
    { name: "Noto-KR", file: fontFile("@expo-google-fonts/noto-sans-kr", "400Regular", "NotoSansKR_400Regular.ttf") },
  ],
  bold: [
    { name: "Helvetica-Bold" },
    { name: "Noto-Bold", file: fontFile("@expo-google-fonts/noto-sans", "700Bold", "NotoSans_700Bold.ttf") },
    { name: "Noto-Arabic-Bold", file: fontFile("@expo-google-fonts/noto-sans-arabic", "700Bold", "NotoSansArabic_700Bold.ttf") },
    { name: "Noto-Hebrew-Bold", file: fontFile("@expo-google-fonts/noto-sans-hebrew", "700Bold", "NotoSansHebrew_700Bold.ttf") },
    { name: "Noto-SC-Bold", file: fontFile("@expo-google-fonts/noto-sans-sc", "700Bold", "NotoSansSC_700Bold.ttf") },
    { name: "Noto-KR-Bold", file: fontFile("@expo-google-fonts/noto-sans-kr", "700Bold", "NotoSansKR_700Bold.ttf") },
  ],
};

/** Sets the document's font to the base font of a weight (Helvetica), for labels and Latin text. */
export function selectBaseFont(doc: PDFKit.PDFDocument, weight: FontWeight): PDFKit.PDFDocument {
  return selectFont(doc, CHAIN[weight][0].name);
}

/** Font files read once per process: a document would read its fonts again otherwise (the CJK ones are 6-10 MB). */
const fileBytes = new Map<string, Buffer>();
function bytesOf(file: string): Buffer {
  let bytes = fileBytes.get(file);
  if (!bytes) {
    bytes = fs.readFileSync(file);
    fileBytes.set(file, bytes);
  }
  return bytes;
}

const FACES = new Map([...CHAIN.regular, ...CHAIN.bold].map((face) => [face.name, face]));
const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Sets the document's font, registering an embedded one with pdfkit the first time the document uses it. */
function selectFont(doc: PDFKit.PDFDocument, name: string): PDFKit.PDFDocument {
  const file = FACES.get(name)?.file;
  if (file) {
    let names = registered.get(doc);
    if (!names) {
      names = new Set();
      registered.set(doc, names);
    }
    if (!names.has(name)) {
      doc.registerFont(name, bytesOf(file));
      names.add(name);
    }
  }
  return doc.font(name);
}

/** Unicode code points the WinAnsi encoding puts at 0x80-0x9F (curly quotes, dashes, euro...). */
const WIN_ANSI_EXTRAS = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013,
  0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

/**
 * Which characters each embedded font has, read from its character map (the regular and bold files of a
 * family cover the same characters, so the regular one answers for both). Opened on first need: most
 * documents never leave Helvetica.
 */
const characterMaps = new Map<number, fontkit.Font>();
function covers(index: number, codePoint: number): boolean {
  const file = CHAIN.regular[index].file;
  if (!file) return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRAS.has(codePoint);
  let font = characterMaps.get(index);
  if (!font) {
    font = fontkit.create(bytesOf(file)) as fontkit.Font;
    characterMaps.set(index, font);
  }
  return font.hasGlyphForCodePoint(codePoint);
}

/** The index in the chain of the first font that has the character, or -1. */
function fontIndexFor(codePoint: number): number {
  for (let i = 0; i < CHAIN.regular.length; i++) if (covers(i, codePoint)) return i;
  return -1;
}

const bidi = bidiFactory();

/** A piece of a value drawn with one font; the pieces are in visual (left-to-right) order. */
export interface TextRun {
  font: string;
  text: string;
  /** Arabic or Hebrew: its characters are in reading order, and the shaper lays the run out right to left. */
  rightToLeft?: boolean;
}

/**
 * pdfkit lays text out word by word (each word through fontkit, then the words left to right), which puts a
 * right-to-left run's words in reading order from the left. Given explicit OpenType features it lays the
 * whole run out at once, and fontkit reverses it as a right-to-left script requires. Kerning is on anyway.
 */
const WHOLE_RUN: PDFKit.Mixins.OpenTypeFeatures[] = ["kern"];

/** Helvetica's ascender (its AFM's, in thousandths of the size), the same in bold. */
const HELVETICA_ASCENDER = 718;

/**
 * Splits one field into runs of one font and one direction each, in visual order. Each character gets its
 * bidirectional embedding level (Unicode's algorithm, bidi-js, in a left-to-right paragraph: our documents
 * are in English) and a font, chosen word by word. The runs are then reordered as
 * the algorithm's rule L2 says (reverse every sequence at level k or above, from the highest level down to
 * the lowest odd one). The characters inside a right-to-left run stay in reading order: fontkit, which
 * pdfkit lays text out with, shapes an Arabic or Hebrew run and reverses it itself.
 */
export function textRuns(value: string, weight: FontWeight): TextRun[] {
  // One field, one line: line breaks and tabs become spaces.
  const text = value.normalize("NFC").replace(/[\t\n\r]/g, " ");
  const faces = CHAIN[weight];
  if (text === "") return [{ font: faces[0].name, text: "" }];
  const { levels } = bidi.getEmbeddingLevels(text, "ltr");

  // Each word takes the first font that has all its letters, so a word is drawn in one typeface; a space
  // keeps the font before it (in the same direction), so a name in one script is one run. A word no one font has (two scripts
  // run together) is split where it must be, and a character no font has becomes "?".
  const chars: Array<{ text: string; font: number; level: number }> = [];
  let index = 0;
  for (const word of text.split(/(\s+)/)) {
    if (word === "") continue;
    const codePoints = [...word].map((ch) => ch.codePointAt(0)!);
    const before = chars[chars.length - 1];
    const space = /^\s/.test(word);
    const wordFont = space
      ? before && before.level === levels[index]
        ? before.font
        : 0
      : CHAIN.regular.findIndex((_, i) => codePoints.every((cp) => covers(i, cp)));
    let previous = chars[chars.length - 1]?.font ?? 0;
    for (const ch of word) {
      const codePoint = ch.codePointAt(0)!;
      const font = wordFont >= 0 ? wordFont : covers(previous, codePoint) ? previous : fontIndexFor(codePoint);
      chars.push({ text: font < 0 ? "?" : ch, font: font < 0 ? previous : font, level: levels[index] });
      previous = chars[chars.length - 1].font;
      index += ch.length;
    }
  }

  const runs: Array<{ font: number; level: number; text: string }> = [];
  for (const ch of chars) {
    const last = runs[runs.length - 1];
    if (last && last.font === ch.font && last.level === ch.level) last.text += ch.text;
    else runs.push({ ...ch });
  }

  const highest = Math.max(...runs.map((run) => run.level));
  const lowestOdd = Math.min(...runs.map((run) => (run.level % 2 === 1 ? run.level : Infinity)));
  for (let level = highest; Number.isFinite(lowestOdd) && level >= lowestOdd; level--) {
    for (let start = 0; start < runs.length;) {
      if (runs[start].level < level) {
        start++;
        continue;
      }
      let end = start;
      while (end + 1 < runs.length && runs[end + 1].level >= level) end++;
      runs.splice(start, end - start + 1, ...runs.slice(start, end + 1).reverse());
      start = end + 1;
    }
  }
  return runs.map((run) =>
    run.level % 2 === 1 ? { font: faces[run.font].name, text: run.text, rightToLeft: true } : { font: faces[run.font].name, text: run.text },
  );
}

type TextOptions = PDFKit.Mixins.TextOptions;

/**
 * Draws one field at (x, y) like `doc.text`, in as many fonts as it needs. pdfkit's `continued` joins the
 * runs into one paragraph, so wrapping and alignment treat the field as a whole. pdfkit hangs each piece
 * from the top of the line by its own font's ascender, which would set a Noto run lower than the Helvetica
 * beside it: every run is given Helvetica's, so all of them sit on one baseline.
 */
export function drawText(doc: PDFKit.PDFDocument, value: string, x: number, y: number, options: TextOptions & { weight?: FontWeight } = {}) {
  const { weight = "regular", ...textOptions } = options;
  // pdfkit keeps the size privately; a document is always given one before text is drawn.
  const fontSize = (doc as unknown as { _fontSize: number })._fontSize;
  const baseline = -(HELVETICA_ASCENDER / 1000) * fontSize;
  const runs = textRuns(value, weight);
  runs.forEach((run, i) => {
    selectFont(doc, run.font);
    const runOptions: TextOptions = { baseline, continued: i < runs.length - 1, ...(run.rightToLeft ? { features: WHOLE_RUN } : {}) };
    if (i === 0) doc.text(run.text, x, y, { ...textOptions, ...runOptions });
    else doc.text(run.text, runOptions);
  });
  // Later text is set in the base font unless its caller says otherwise.
  selectBaseFont(doc, weight);
}

/**
 * The height `drawText` will take. Exact for a field in one font; for a field in several, the tallest the
 * whole field would be in any of its fonts (each font measures the others' characters by its fallback glyph,
 * so this errs on the tall side rather than overlapping the next row).
 */
export function heightOfText(doc: PDFKit.PDFDocument, value: string, options: TextOptions & { weight?: FontWeight } = {}): number {
  const { weight = "regular", ...textOptions } = options;
  const runs = textRuns(value, weight);
  const visual = runs.map((run) => run.text).join("");
  let height = 0;
  for (const font of new Set(runs.map((run) => run.font))) {
    selectFont(doc, font);
    height = Math.max(height, doc.heightOfString(visual || " ", textOptions));
  }
  selectBaseFont(doc, weight);
  return height;
}
