import type { ChangePart } from "./change-part";

/**
 * What changed in a document since the version the user agreed to (the agreement page). The parts are the
 * server's word diff: nothing here but markup, so the page ships no diff code. Removed words are struck
 * through, added ones underlined, each also named for screen readers.
 */
export function DocumentChanges({ name, changes }: { name: string; changes: { sinceVersion: number; parts: ChangePart[] | null } }) {
  return (
    <details className="mt-2 text-sm" open>
      <summary className="cursor-pointer font-medium text-stone-800">
        What changed since version {changes.sinceVersion}, which you agreed to<span className="sr-only"> ({name})</span>
      </summary>
      {changes.parts ? (
        <div
          className="mt-2 max-h-64 overflow-y-auto rounded-md border border-stone-200 bg-stone-50 p-3 leading-relaxed whitespace-pre-wrap text-stone-700"
          data-testid="document-changes"
          tabIndex={0}
          role="region"
          aria-label={`Changes to ${name}`}
        >
          {changes.parts.map((part, i) =>
            part.kind === "added" ? (
              <ins key={i} className="bg-green-100 text-green-900 underline decoration-green-700">
                <span className="sr-only">[added: </span>
                {part.text}
                <span className="sr-only">]</span>
              </ins>
            ) : part.kind === "removed" ? (
              <del key={i} className="bg-red-100 text-red-900 line-through decoration-red-700">
                <span className="sr-only">[removed: </span>
                {part.text}
                <span className="sr-only">]</span>
              </del>
            ) : (
              <span key={i}>{part.text}</span>
            ),
          )}
        </div>
      ) : (
        <p className="mt-2 text-stone-600">Only the formatting changed, or the earlier text is not on record: please read the whole document.</p>
      )}
    </details>
  );
}
