/**
 * A document's text as the public page shows it (app/routes/legal-terms.$documentName.tsx uses the same
 * `prose-legal` class), for the admin preview and version history. `html` must be sanitised already
 * (sanitizeDocumentHtml, on the server).
 */
export const LEGAL_CONTENT_CLASS = "prose-legal";

/** Lists and small headings inside the editor, which the reset styles would otherwise flatten. */
export const EDITOR_CONTENT_CLASS = "[&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 [&_h1]:text-xl [&_h1]:font-bold [&_h3]:font-semibold";

export function LegalContent({ html }: { html: string }) {
  return <div className={LEGAL_CONTENT_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}
