import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { lazy, Suspense, useState } from "react";
import { Form } from "react-router";
import { CheckboxField, Field, FieldErrors, FormAlert, SubmitButton } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { DOCUMENT_CONTENT_MAX, DOCUMENT_NAME_MAX, DOCUMENT_SLUG_MAX } from "./document-schemas";

/** TipTap, in a chunk of its own: requested only once this form is on screen in a browser. */
const DocumentEditor = lazy(() => import("./document-editor.client"));

export interface DocumentFormDefaults {
  name: string;
  slug: string;
  required: boolean;
  content: string;
}

const secondaryButton =
  "inline-flex w-full items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2.5 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50 disabled:opacity-60 sm:w-auto";
const primaryButton =
  "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60 sm:w-auto";

/**
 * The create and edit form: name, slug, required flag and the text. Server-validated (the action answers with
 * the messages beside the fields and the values kept), so it works the same without JavaScript, where the
 * text is a plain HTML textarea.
 */
export function DocumentForm({
  id,
  lastResult,
  defaults,
  publish,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaults: DocumentFormDefaults;
  /** Edit page: the publish button's version and whether users will be asked to agree again. */
  publish?: { nextVersion: number; required: boolean };
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: { name: defaults.name, slug: defaults.slug, required: defaults.required ? "on" : undefined, content: defaults.content },
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-5" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <Field
          label="Name"
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), maxLength: DOCUMENT_NAME_MAX, autoComplete: "off" }}
          errors={fields.name.errors}
          errorId={fields.name.errorId}
          help="As listed on Legal Terms and the agreement page, e.g. Terms of Service."
        />
        <Field
          label="Slug"
          inputProps={{ ...getInputProps(fields.slug, { type: "text" }), maxLength: DOCUMENT_SLUG_MAX, autoComplete: "off", spellCheck: false }}
          errors={fields.slug.errors}
          errorId={fields.slug.errorId}
          help="The public address /legal-terms/{slug}: lowercase letters, digits and hyphens. Its words are the page title."
        />
      </div>
      <CheckboxField
        label="Required: every user must agree to it (and to each new version) before using the product"
        inputProps={getInputProps(fields.required, { type: "checkbox" })}
        errors={fields.required.errors}
        errorId={fields.required.errorId}
      />
      <DocumentContentField
        textareaProps={getTextareaProps(fields.content)}
        errors={fields.content.errors}
        errorId={fields.content.errorId}
        invalid={Boolean(fields.content.errors?.length)}
        initial={typeof fields.content.initialValue === "string" ? fields.content.initialValue : defaults.content}
      />
      <div className="flex flex-col gap-3 border-t border-stone-200 pt-4 sm:flex-row sm:items-center sm:justify-end">
        {publish ? (
          <p className="text-sm text-stone-600 sm:mr-auto">
            {publish.required
              ? `Publishing makes this text version ${publish.nextVersion}: every user is asked to agree to it on their next request.`
              : `Publishing makes this text version ${publish.nextVersion}, shown on Legal Terms.`}
          </p>
        ) : null}
        <SubmitButton name="intent" value="save" pendingLabel="Saving…" className={publish ? secondaryButton : primaryButton}>
          Save draft
        </SubmitButton>
        {publish ? (
          <SubmitButton name="intent" value="publish" pendingLabel="Publishing…" className={primaryButton}>
            Publish version {publish.nextVersion}
          </SubmitButton>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * The text: a textarea of HTML on the server and without JavaScript; once hydrated, the rich-text editor
 * over it (the textarea, hidden, is still what the form posts), with a switch back to the HTML.
 */
function DocumentContentField({
  textareaProps,
  errors,
  errorId,
  invalid,
  initial,
}: {
  textareaProps: ReturnType<typeof getTextareaProps>;
  errors: string[] | undefined;
  errorId: string;
  invalid: boolean;
  initial: string;
}) {
  const hydrated = useHydrated();
  const [mode, setMode] = useState<"rich" | "html">("rich");
  const [editorKey, setEditorKey] = useState(0);
  const { key, ...props } = textareaProps;
  const textareaId = props.id;
  const labelId = `${textareaId}-label`;
  const helpId = `${textareaId}-help`;
  const rich = hydrated && mode === "rich";
  const describedBy = [invalid ? errorId : undefined, helpId].filter(Boolean).join(" ");
  const currentHtml = () => {
    const el = typeof document === "undefined" ? null : document.getElementById(textareaId);
    return el instanceof HTMLTextAreaElement ? el.value : initial;
  };
  return (
    <div>
      <div className="flex items-end justify-between gap-3">
        <label id={labelId} htmlFor={textareaId} className="block text-sm font-medium text-stone-800">
          Text{rich ? "" : " (HTML)"}
        </label>
        {hydrated ? (
          <button
            type="button"
            className="text-sm font-medium text-brand-800 underline"
            onClick={() => {
              if (mode === "html") setEditorKey((k) => k + 1);
              setMode(mode === "rich" ? "html" : "rich");
            }}
          >
            {mode === "rich" ? "Edit the HTML" : "Back to the editor"}
          </button>
        ) : null}
      </div>
      {rich ? (
        <div className={`mt-1 overflow-hidden rounded-md border bg-white shadow-sm ${invalid ? "border-red-500" : "border-stone-300"}`}>
          <Suspense fallback={<p className="px-4 py-3 text-sm text-stone-500">Loading the editor…</p>}>
            <DocumentEditor key={editorKey} textareaId={textareaId} initialHtml={currentHtml()} labelId={labelId} describedBy={describedBy} invalid={invalid} />
          </Suspense>
        </div>
      ) : null}
      <textarea
        key={key}
        {...props}
        hidden={rich}
        rows={18}
        maxLength={DOCUMENT_CONTENT_MAX}
        spellCheck
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`mt-1 block w-full resize-y rounded-md border bg-white px-3 py-2 font-mono text-sm shadow-sm ${
          invalid ? "border-red-500" : "border-stone-300"
        } focus:border-brand-700 focus:ring-1 focus:ring-brand-700 focus:outline-none`}
      />
      <p id={helpId} className="mt-1 text-xs text-stone-500">
        Headings, paragraphs, lists, links and emphasis are kept. Anything else (scripts, styles, images, event attributes, javascript: links) is removed when
        you save.
      </p>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}
