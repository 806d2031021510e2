import { Link } from "react-router";
import { DateTime } from "~/components/formatting";
import type { OwnSignatureRow } from "./signatures.server";

/** A member's own agreements on their Account page: document, version, when (newest first). */
export function OwnSignatures({ rows }: { rows: OwnSignatureRow[] }) {
  if (!rows.length) return <p className="text-sm text-stone-600">No agreements recorded yet.</p>;
  return (
    <ul aria-label="Agreements" className="divide-y divide-stone-200 rounded-md border border-stone-200 text-sm">
      {rows.map((r) => (
        <li key={r.id} className="flex flex-col gap-1 px-3 py-2.5 sm:flex-row sm:items-center sm:justify-between">
          <span>
            {r.published ? (
              <Link to={`/legal-terms/${r.documentSlug}`} className="font-medium text-brand-800 underline">
                {r.documentName}
              </Link>
            ) : (
              <span className="font-medium">{r.documentName}</span>
            )}
            , version {r.version}
            {r.current ? null : <span className="text-stone-500"> (since updated)</span>}
          </span>
          <span className="text-stone-600">
            Agreed <DateTime iso={r.signedAt} withTime />
          </span>
        </li>
      ))}
    </ul>
  );
}
