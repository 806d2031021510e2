import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, Form } from "react-router";
import { z } from "zod";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count, DateTime } from "~/components/formatting";
import { Field, FieldErrors, FormAlert, SubmitButton, useFormResetKey } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { pageTitle } from "~/components/page-title";
import { Pagination } from "~/components/pagination";
import { VERSION_CONTENT_CLASS } from "~/components/whats-new";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { redirectAfterSuccess } from "~/modules/flash/flash.server";
import { socketIdOf } from "~/modules/notifications/broadcaster.server";
import { PublishVersionSchema } from "~/modules/versions/version-schema";
import { VERSION_CONTENT_MAX, VERSION_NAME_MAX } from "~/modules/versions/versions";
import { listVersions, publishVersion, VersionValidationError, type VersionListRow } from "~/modules/versions/versions.server";
import type { Route } from "./+types/admin.versions";
import { parseForm, readForm } from "~/modules/security/form-body.server";

export const handle = { routeName: "admin-versions" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "App versions");

const pageParam = z.coerce.number().int().min(1).max(1_000_000).catch(1);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  const page = pageParam.parse(new URL(request.url).searchParams.get("page") ?? 1);
  return { list: await listVersions({ page }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireAdminUser(request, context);
  const submission = parseForm(await readForm(request), { schema: PublishVersionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const version = await publishVersion({ ...submission.value, publishedBy: user.id, socketId: socketIdOf(request) });
    return redirectAfterSuccess("/admin/versions", version.id, `${version.name} was published. Everyone signed in sees its notes once, in “What’s new”.`);
  } catch (error) {
    if (error instanceof VersionValidationError) {
      return data(submission.reply({ fieldErrors: error.fieldErrors }), { status: 400 });
    }
    throw error;
  }
}

const columns: Array<DataColumn<VersionListRow>> = [
  {
    key: "name",
    header: "Version",
    rowHeader: true,
    cell: (v) => (
      <>
        <span className="break-words">{v.name}</span>
        <details className="mt-1 font-normal">
          <summary className="cursor-pointer text-sm text-brand-800 underline-offset-2 hover:underline">Show notes</summary>
          <div
            className={`mt-2 max-w-prose rounded-md border border-stone-200 bg-white p-3 ${VERSION_CONTENT_CLASS}`}
            dangerouslySetInnerHTML={{ __html: v.content }}
          />
        </details>
      </>
    ),
  },
  { key: "published", header: "Published", cell: (v) => <DateTime iso={v.publishedAt} withTime /> },
  { key: "by", header: "Published by", cell: (v) => v.publishedBy ?? <span className="text-stone-500">Deleted account</span> },
  {
    key: "seen",
    header: "Seen by",
    align: "right",
    cell: (v) => (
      <>
        <Count value={v.seenCount} /> {v.seenCount === 1 ? "user" : "users"}
      </>
    ),
  },
];

export default function AdminVersions({ loaderData, actionData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">App versions</h1>
        <p className="mt-1 text-sm text-stone-600">
          Publish the notes of a new version: everyone signed in sees the newest one once, in a “What’s new” window.
        </p>
      </div>

      <PublishVersion lastResult={actionData} />

      <section aria-labelledby="version-list-heading" className="space-y-4">
        <h2 id="version-list-heading" className="text-lg font-semibold">
          Published versions
        </h2>
        <DataTable
          caption={
            <>
              Published versions, newest first, page {list.page} of {list.pageCount}
            </>
          }
          columns={columns}
          rows={list.versions}
          rowKey={(v) => v.id}
          empty={
            list.total > 0 ? (
              <p className="font-medium text-stone-900">There is nothing on this page.</p>
            ) : (
              <>
                <p className="font-medium text-stone-900">No versions yet.</p>
                <p className="mt-1 text-sm text-stone-600">Publish the first one with the form above.</p>
              </>
            )
          }
        />
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          total={list.total}
          pageSize={list.pageSize}
          noun={["version", "versions"]}
          label="Version list pages"
        />
      </section>
    </div>
  );
}

function PublishVersion({ lastResult }: { lastResult: Route.ComponentProps["actionData"] }) {
  const formResetKey = useFormResetKey();
  const [form, fields] = useForm({
    id: "publish-version",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PublishVersionSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const { key: contentKey, ...contentProps } = getTextareaProps(fields.content);
  const contentHelpId = `${fields.content.id}-help`;
  const contentInvalid = Boolean(fields.content.errors?.length);
  const draft = typeof fields.content.value === "string" ? fields.content.value : "";
  return (
    <section aria-labelledby="publish-version-heading" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="publish-version-heading" className="text-lg font-semibold">
        Publish a version
      </h2>
      <Form key={formResetKey} method="post" className="mt-4 space-y-4" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <Field
          label="Version name"
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), maxLength: VERSION_NAME_MAX, autoComplete: "off", placeholder: "e.g. 2.4.0" }}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
          help={`Up to ${VERSION_NAME_MAX} characters.`}
        />
        <div className="grid gap-4 lg:grid-cols-2">
          <div>
            <label htmlFor={fields.content.id} className="block text-sm font-medium text-stone-800">
              What’s new (HTML)
            </label>
            <textarea
              key={contentKey}
              {...contentProps}
              rows={14}
              maxLength={VERSION_CONTENT_MAX}
              spellCheck
              aria-invalid={contentInvalid || undefined}
              aria-describedby={[contentInvalid ? fields.content.errorId : undefined, contentHelpId].filter(Boolean).join(" ")}
              placeholder={"<h2>New</h2>\n<ul>\n  <li>…</li>\n</ul>"}
              className={`mt-1 block w-full resize-y rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-sm ${
                contentInvalid ? "border-red-500" : "border-stone-300"
              } focus:border-brand-700 focus:ring-1 focus:ring-brand-700 focus:outline-none`}
            />
            <p id={contentHelpId} className="mt-1 text-xs text-stone-500">
              Headings, paragraphs, lists, links, emphasis and code are kept; any other markup (scripts, styles, images, attributes) is removed when you
              publish.
            </p>
            <FieldErrors id={fields.content.errorId} errors={fields.content.errors} />
          </div>
          <LivePreview content={draft} />
        </div>
        <div className="flex justify-end">
          <SubmitButton
            pendingLabel="Publishing…"
            className="inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto"
          >
            Publish version
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/**
 * What users will see, sanitised by the server's own function (POST /api/versions/preview) so the preview
 * cannot differ from what is stored. Only with JavaScript; debounced while typing.
 */
function LivePreview({ content }: { content: string }) {
  const hydrated = useHydrated();
  const [preview, setPreview] = useState<{ source: string; html: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!hydrated) return;
    if (!content.trim()) {
      setPreview({ source: content, html: "" });
      setFailed(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch("/api/versions/preview", {
          method: "POST",
          body: new URLSearchParams({ content }),
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const body = (await response.json()) as { data: { html: string } };
        setPreview({ source: content, html: body.data.html });
        setFailed(false);
      } catch {
        if (!controller.signal.aborted) setFailed(true);
      }
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [content, hydrated]);

  if (!hydrated) return null;
  const stale = preview !== null && preview.source !== content;
  return (
    <div>
      <p id="version-preview-label" className="block text-sm font-medium text-stone-800">
        Preview
      </p>
      <div
        role="region"
        aria-labelledby="version-preview-label"
        aria-busy={stale || undefined}
        data-testid="version-preview"
        className={`mt-1 min-h-40 rounded-md border border-dashed border-stone-300 bg-stone-50 px-4 py-3 transition-opacity ${stale ? "opacity-60" : ""}`}
      >
        {failed ? (
          <p className="text-sm text-red-700">The preview is unavailable right now; publishing still works.</p>
        ) : !content.trim() ? (
          <p className="text-sm text-stone-500">The notes appear here as you type.</p>
        ) : preview === null || !preview.source.trim() ? (
          <p className="text-sm text-stone-500">Loading the preview…</p>
        ) : preview.html ? (
          <div className={VERSION_CONTENT_CLASS} dangerouslySetInnerHTML={{ __html: preview.html }} />
        ) : (
          <p className="text-sm text-amber-800">Nothing readable is left once unsupported HTML is removed.</p>
        )}
      </div>
    </div>
  );
}
