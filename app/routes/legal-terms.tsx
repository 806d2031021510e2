import { NavLink, Outlet, useParams } from "react-router";
import { pageTitle } from "~/components/page-title";
import { listPublishedDocuments } from "~/modules/legal/legal.server";
import type { Route } from "./+types/legal-terms";

export const handle = { routeName: "legal-terms" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Legal Terms");

export async function loader() {
  return { documents: await listPublishedDocuments() };
}

export default function LegalTermsRoute({ loaderData }: Route.ComponentProps) {
  const { documentName } = useParams();
  return (
    <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-[14rem_1fr]">
      <nav aria-label="Legal documents" className={`md:sticky md:top-4 md:self-start ${documentName ? "hidden md:block" : ""}`}>
        <h1 className="text-2xl font-semibold tracking-tight">Legal Terms</h1>
        {loaderData.documents.length ? (
          <ul className="mt-4 space-y-1">
            {loaderData.documents.map((doc) => (
              <li key={doc.id}>
                <NavLink
                  to={doc.slug}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-brand-50 font-semibold text-brand-900" : "text-stone-700 hover:bg-stone-100"}`
                  }
                >
                  {doc.name}
                </NavLink>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-stone-600">No documents have been published yet.</p>
        )}
      </nav>
      <div>{documentName ? <Outlet /> : <p className="text-stone-600 md:mt-12">Choose a document to read it.</p>}</div>
    </div>
  );
}
