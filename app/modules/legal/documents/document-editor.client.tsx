import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useState, type ReactNode } from "react";
import { EDITOR_CONTENT_CLASS, LEGAL_CONTENT_CLASS } from "./legal-content";

/**
 * The rich-text editor of the document pages (TipTap on ProseMirror). Loaded only in the browser, after
 * hydration, by DocumentContentField: its code is a chunk of its own that no other page downloads. The form
 * still posts the plain `content` textarea, which this editor keeps in step with its HTML; the server
 * sanitises whatever arrives.
 */
export default function DocumentEditor({
  textareaId,
  initialHtml,
  labelId,
  describedBy,
  invalid,
}: {
  textareaId: string;
  initialHtml: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
}) {
  const editor = useEditor({
    immediatelyRender: false,
    // The few rules TipTap would inject as a <style> element are classes on the editable element instead.
    injectCSS: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"], HTMLAttributes: { target: null, rel: null, class: null } },
      }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        "data-testid": "document-editor",
        class: `${LEGAL_CONTENT_CLASS} ${EDITOR_CONTENT_CLASS} min-h-72 whitespace-pre-wrap break-words px-4 py-3 focus:outline-none`,
      },
    },
    onUpdate: ({ editor: e }) => {
      const textarea = document.getElementById(textareaId);
      if (textarea instanceof HTMLTextAreaElement) textarea.value = e.isEmpty ? "" : e.getHTML();
    },
  });

  if (!editor) return <p className="px-4 py-3 text-sm text-stone-500">Loading the editor…</p>;
  return (
    <div>
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      link: e.isActive("link"),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  return (
    <div className="border-b border-stone-200 bg-stone-50">
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 px-2 py-1.5">
        <ToolButton label="Bold" pressed={state.bold} onClick={() => editor.chain().focus().toggleBold().run()}>
          <strong>B</strong>
        </ToolButton>
        <ToolButton label="Italic" pressed={state.italic} onClick={() => editor.chain().focus().toggleItalic().run()}>
          <em>I</em>
        </ToolButton>
        <ToolButton label="Heading" pressed={state.h2} onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}>
          H2
        </ToolButton>
        <ToolButton label="Subheading" pressed={state.h3} onClick={() => editor.chain().focus().toggleHeading({ level: 3 }).run()}>
          H3
        </ToolButton>
        <ToolButton label="Bulleted list" pressed={state.bullet} onClick={() => editor.chain().focus().toggleBulletList().run()}>
          • List
        </ToolButton>
        <ToolButton label="Numbered list" pressed={state.ordered} onClick={() => editor.chain().focus().toggleOrderedList().run()}>
          1. List
        </ToolButton>
        <ToolButton label="Link" pressed={state.link} onClick={() => setLinkOpen((open) => !open)}>
          Link
        </ToolButton>
        <ToolButton label="Undo" disabled={!state.undo} onClick={() => editor.chain().focus().undo().run()}>
          ↶
        </ToolButton>
        <ToolButton label="Redo" disabled={!state.redo} onClick={() => editor.chain().focus().redo().run()}>
          ↷
        </ToolButton>
      </div>
      {linkOpen ? <LinkForm editor={editor} onDone={() => setLinkOpen(false)} /> : null}
    </div>
  );
}

/** A link's address, typed in the page (no window.prompt): http, https or mailto only; empty removes the link. */
function LinkForm({ editor, onDone }: { editor: Editor; onDone: () => void }) {
  const [href, setHref] = useState(() => (editor.getAttributes("link").href as string | undefined) ?? "");
  const [error, setError] = useState("");
  useEffect(() => setError(""), [href]);
  const apply = () => {
    const value = href.trim();
    if (!value) {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
      onDone();
      return;
    }
    if (!/^(https?:\/\/|mailto:)/i.test(value)) {
      setError("Use an address starting with https://, http:// or mailto:.");
      return;
    }
    editor.chain().focus().extendMarkRange("link").setLink({ href: value }).run();
    onDone();
  };
  return (
    <div className="flex flex-wrap items-start gap-2 border-t border-stone-200 px-2 py-2">
      <label className="text-sm font-medium text-stone-800" htmlFor="document-link-href">
        Link address
      </label>
      <div className="min-w-48 flex-1">
        <input
          id="document-link-href"
          type="url"
          value={href}
          onChange={(e) => setHref(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              apply();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "document-link-error" : undefined}
          className="block w-full rounded-md border border-stone-300 px-2 py-1 text-sm"
          placeholder="https://"
        />
        {error ? (
          <p id="document-link-error" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <button type="button" onClick={apply} className="rounded-md bg-brand-900 px-3 py-1 text-sm font-semibold text-white">
        Apply
      </button>
      <button type="button" onClick={onDone} className="rounded-md px-3 py-1 text-sm text-stone-700 hover:bg-stone-100">
        Cancel
      </button>
    </div>
  );
}

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed === undefined ? undefined : pressed}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={`min-w-9 rounded px-2 py-1 text-sm ${pressed ? "bg-brand-100 text-brand-900" : "text-stone-700 hover:bg-stone-200"} disabled:opacity-40`}
    >
      {children}
    </button>
  );
}
