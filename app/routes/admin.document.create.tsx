import { Link } from "react-router";
import { pageTitle } from "~/components/page-title";
import { DocumentForm } from "~/modules/legal/documents/document-form";
import { adminDocumentCreateAction, adminDocumentCreateLoader } from "~/modules/legal/documents/document-routes.server";
import type { Route } from "./+types/admin.document.create";

/** /admin/document/create (the spec writes `document/create/`: the trailing slash is matched too, decision 024). */
export const handle = { routeName: "admin-document-create" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "New document");

export const loader = (args: Route.LoaderArgs) => adminDocumentCreateLoader(args);
export const action = (args: Route.ActionArgs) => adminDocumentCreateAction(args);

export default function AdminDocumentCreateRoute({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <Link to="/admin/documents" className="text-sm font-medium text-brand-800 underline">
          All documents
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">New document</h1>
        <p className="mt-1 text-sm text-stone-600">A new document is saved as a draft: nobody sees it until you preview and publish it from its page.</p>
      </div>
      <section aria-label="Document" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        <DocumentForm id="create-document" lastResult={actionData} defaults={{ name: "", slug: "", required: true, content: "" }} />
      </section>
    </div>
  );
}
