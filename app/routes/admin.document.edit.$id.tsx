import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Count, DateTime } from "~/components/formatting";
import { SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { StatusTag } from "~/components/status-tag";
import { DocumentForm } from "~/modules/legal/documents/document-form";
import { adminDocumentEditAction, adminDocumentEditLoader } from "~/modules/legal/documents/document-routes.server";
import { LegalContent } from "~/modules/legal/documents/legal-content";
import type { Route } from "./+types/admin.document.edit.$id";

export const handle = { routeName: "admin-document-edit" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageTitle(matches, loaderData?.document.name, "Edit document");

export const loader = (args: Route.LoaderArgs) => adminDocumentEditLoader(args);
export const action = (args: Route.ActionArgs) => adminDocumentEditAction(args);

const smallButton =
  "inline-flex w-full items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 disabled:opacity-60 sm:w-auto";

/** The public page's title: the slug's words (legal-terms.$documentName.tsx). */
const publicTitle = (slug: string) => slug.replace(/-/g, " ");

export default function AdminDocumentEditRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { document: doc } = loaderData;
  const formDefaults = { name: doc.name, slug: doc.slug, required: doc.required, content: doc.draft?.content ?? doc.publishedContent };
  const status = doc.published ? "published" : doc.version === null ? "draft" : "unpublished";
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <Link to="/admin/documents" className="text-sm font-medium text-brand-800 underline">
          All documents
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight break-words">Edit document: {doc.name}</h1>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-stone-600">
          <StatusTag status={status} label={status === "draft" ? "Draft (never published)" : undefined} />
          {doc.required ? <StatusTag status="required" /> : null}
          {doc.version !== null ? <span>Version in force: {doc.version}</span> : null}
          {doc.published ? (
            <Link to={`/legal-terms/${doc.slug}`} className="font-medium text-brand-800 underline">
              Open the public page
            </Link>
          ) : null}
        </div>
      </div>

      <Card title="Document" id="document-form">
        <DocumentForm
          key={`${doc.draft?.updatedAt ?? ""}-${doc.version ?? 0}`}
          id="edit-document"
          lastResult={actionData}
          defaults={formDefaults}
          publish={{ nextVersion: doc.nextVersion, required: doc.required }}
        />
      </Card>

      <Card
        title={
          doc.draft
            ? `Preview of the draft (version ${doc.nextVersion}, not published)`
            : doc.version !== null
              ? `Published text (version ${doc.version})`
              : "Preview"
        }
        id="preview"
      >
        {doc.draft ? (
          <div className="space-y-3">
            <p className="text-sm text-stone-600">
              Saved <DateTime iso={doc.draft.updatedAt} withTime />
              {doc.draft.updatedBy ? ` by ${doc.draft.updatedBy}` : ""}. This is the text as Legal Terms will show it, after sanitising.
              {doc.published ? " Users still see the published version until you publish this one." : ""}
            </p>
            <PublicLook slug={doc.slug} version={doc.nextVersion} html={doc.draft.content} />
            <Form method="post" className="flex justify-end">
              <SubmitButton name="intent" value="discard" pendingLabel="Discarding…" className={smallButton}>
                Discard the draft
              </SubmitButton>
            </Form>
          </div>
        ) : doc.version !== null ? (
          <PublicLook slug={doc.slug} version={doc.version} html={doc.publishedContent} />
        ) : (
          <p className="text-sm text-stone-600">Save a draft to preview it here.</p>
        )}
      </Card>

      <Card title="Versions" id="versions">
        {doc.versions.length ? (
          <ol className="divide-y divide-stone-200" aria-label="Published versions, newest first">
            {doc.versions.map((v) => (
              <li key={v.version} className="py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-medium">
                    Version {v.version}
                    {v.version === doc.version && doc.published ? <span className="ml-2 text-sm font-normal text-green-800">(in force)</span> : null}
                  </p>
                  <p className="text-sm text-stone-600">
                    Published <DateTime iso={v.publishedAt} withTime />
                    {v.publishedBy ? ` by ${v.publishedBy}` : ""} · <Count value={v.signatures} /> {v.signatures === 1 ? "agreement" : "agreements"}
                  </p>
                </div>
                <details className="mt-1">
                  <summary className="cursor-pointer text-sm text-brand-800 underline-offset-2 hover:underline">Show the text of version {v.version}</summary>
                  <div className="mt-2 rounded-md border border-stone-200 p-4">
                    <LegalContent html={v.content} />
                  </div>
                </details>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-stone-600">Not published yet.</p>
        )}
        {doc.published ? (
          <Form method="post" className="mt-4 flex flex-col gap-2 border-t border-stone-200 pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-stone-600">
              Withdrawing removes it from Legal Terms and from what users must agree to. Versions and agreements are kept.
            </p>
            <SubmitButton name="intent" value="withdraw" pendingLabel="Withdrawing…" className={smallButton}>
              Withdraw the document
            </SubmitButton>
          </Form>
        ) : null}
        <p className="mt-4 text-sm">
          <Link to={`/admin/signatures?document=${doc.id}`} className="font-medium text-brand-800 underline">
            Who agreed to this document
          </Link>
        </p>
      </Card>
    </div>
  );
}

function PublicLook({ slug, version, html }: { slug: string; version: number; html: string }) {
  return (
    <article className="rounded-lg border border-dashed border-stone-300 bg-white p-5" data-testid="document-preview">
      <h2 className="text-3xl font-bold tracking-tight capitalize">{publicTitle(slug)}</h2>
      <p className="mt-1 text-sm text-stone-500">Version {version}</p>
      <div className="mt-6">
        <LegalContent html={html} />
      </div>
    </article>
  );
}

function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4 rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}
