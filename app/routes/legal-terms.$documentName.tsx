import { Link } from "react-router";
import { pageTitle } from "~/components/page-title";
import { findPublishedDocument } from "~/modules/legal/legal.server";
import type { Route } from "./+types/legal-terms.$documentName";
import { notFound } from "~/modules/http/route-errors.server";

// Moving between documents from the side list keeps the page where it is (spec: routes flagged to keep scroll).
export const handle = { routeName: "legal-terms-document", keepScroll: "legal-terms" };

/** The title is the document name from the URL with hyphens turned into spaces. */
export function documentTitle(documentName: string) {
  return documentName.replace(/-/g, " ");
}

export const meta: Route.MetaFunction = ({ matches, params }) => pageTitle(matches, documentTitle(params.documentName), "Legal Terms");

export async function loader({ params }: Route.LoaderArgs) {
  const document = await findPublishedDocument(params.documentName);
  if (!document) throw notFound();
  return {
    document: { name: document.name, content: document.content, version: document.version, updatedAt: document.updatedAt.toISOString() },
  };
}

export default function LegalDocumentRoute({ loaderData, params }: Route.ComponentProps) {
  const { document } = loaderData;
  return (
    <article>
      <Link to="/legal-terms" className="text-sm text-brand-800 underline md:hidden">
        All legal terms
      </Link>
      <h2 className="mt-2 text-3xl font-bold tracking-tight capitalize">{documentTitle(params.documentName)}</h2>
      <p className="mt-1 text-sm text-stone-500">
        Version {document.version}, updated <time dateTime={document.updatedAt}>{document.updatedAt.slice(0, 10)}</time>
      </p>
      {/* Sanitised on the server by sanitizeDocumentHtml. */}
      <div className="prose-legal mt-6" dangerouslySetInnerHTML={{ __html: document.content }} />
    </article>
  );
}

export function ErrorBoundary() {
  return (
    <div>
      <h2 className="text-2xl font-semibold">Not Found</h2>
      <p className="mt-2 text-stone-600">This document does not exist or is not published.</p>
    </div>
  );
}
