import { diffWords } from "diff";
import sanitizeHtml from "sanitize-html";

/**
 * What changed between two versions of a document, as its readers see it: a word diff (jsdiff) of the text
 * content, not of the markup. Computed on the server, so the agreement page ships no diff library.
 */

import type { ChangePart } from "./change-part";

export type { ChangePart };

const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|pre|div|tr|table|ul|ol)>|<br\s*\/?>/gi;

/** The readable text of document HTML: one line per block, tags dropped, entities decoded. */
export function documentText(html: string): string {
  const withBreaks = html.replace(BLOCK_END, (tag) => `${tag}\n`);
  // No tags allowed: sanitize-html keeps the text (never a script's or style's) and escapes only & < > ".
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

/** Unchanged runs longer than this are shortened to their ends, so the changes stand out. */
const CONTEXT = 160;

/** The word diff of two HTML texts; null when their text is the same. */
export function documentChanges(beforeHtml: string, afterHtml: string): ChangePart[] | null {
  const before = documentText(beforeHtml);
  const after = documentText(afterHtml);
  if (before === after) return null;
  const parts = diffWords(before, after, { maxEditLength: 20_000 }) ?? [
    { value: before, removed: true },
    { value: after, added: true },
  ];
  const result = (parts as Array<{ value: string; added?: boolean; removed?: boolean }>).map((p): ChangePart => ({
    kind: p.added ? "added" : p.removed ? "removed" : "same",
    text: p.value,
  }));
  return result.map((part, i) => {
    if (part.kind !== "same" || part.text.length <= CONTEXT * 2 + 20) return part;
    const head = i === 0 ? "" : part.text.slice(0, CONTEXT);
    const tail = i === result.length - 1 ? "" : part.text.slice(-CONTEXT);
    return { kind: "same", text: `${head} … ${tail}` };
  });
}
