import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";
import {
  NEW_VERSION_STORAGE_KEY,
  VERSION_PUBLISHED_EVENT,
  VERSIONS_CHANNEL,
  type VersionContent,
  type WhatsNew as WhatsNewData,
} from "~/modules/versions/versions";
import { useRealtimeEvent } from "./realtime/realtime";

/**
 * "What's new": the newest app version's notes, in a modal dialog, once per
 * version per user. The layout loader passes `whatsNewFor(user.id)`; when it is unseen the dialog opens
 * after hydration and the view is recorded at once (POST /api/versions/{id}/view). With `live` (the member
 * area) a "version.published" event on the public "app-versions" channel refetches the latest version.
 * The service worker's update flow sets sessionStorage "backline:new-version" = "true": on load the latest
 * version is refetched and the key removed. Nothing renders on the server or without JavaScript.
 */

/**
 * Views being recorded right now, across layouts: until the server knows, a layout revalidating (or the
 * other area's layout mounting) may still say "unseen". Not kept afterwards, so another user signing in
 * in the same tab is not affected.
 */
const recording = new Set<number>();

/** The look of version notes (sanitised HTML), shared with the admin page's preview. */
export const VERSION_CONTENT_CLASS = [
  "text-sm leading-relaxed text-stone-800",
  "[&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-xl [&_h1]:font-semibold",
  "[&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold",
  "[&_h3]:mt-3 [&_h3]:mb-1.5 [&_h3]:text-base [&_h3]:font-semibold",
  "[&_h4]:mt-3 [&_h4]:mb-1 [&_h4]:font-semibold [&_h5]:mt-3 [&_h5]:mb-1 [&_h5]:font-semibold [&_h6]:mt-3 [&_h6]:mb-1 [&_h6]:font-semibold",
  "[&_p]:mb-3 [&_ul]:mb-3 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:mb-3 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:mb-1",
  "[&_a]:font-medium [&_a]:text-brand-800 [&_a]:underline [&_strong]:font-semibold [&_b]:font-semibold [&_mark]:bg-amber-100",
  "[&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.9em] [&_kbd]:font-mono",
  "[&_pre]:mb-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-stone-100 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_blockquote]:mb-3 [&_blockquote]:border-l-4 [&_blockquote]:border-stone-300 [&_blockquote]:pl-3 [&_blockquote]:text-stone-700",
  "[&_hr]:my-4 [&_hr]:border-stone-200 [&>:first-child]:mt-0 [&>:last-child]:mb-0 break-words",
].join(" ");

async function recordView(versionId: number) {
  recording.add(versionId);
  try {
    await fetch(`/api/versions/${versionId}/view`, { method: "POST", headers: { Accept: "application/json" } });
  } catch (error) {
    // Best effort: if it is not recorded, the notes show again on the next visit.
    console.warn("Could not record the version view:", error);
  } finally {
    recording.delete(versionId);
  }
}

async function fetchLatest(): Promise<WhatsNewData | null> {
  try {
    const response = await fetch("/api/versions/latest", { headers: { Accept: "application/json" }, cache: "no-store" });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: WhatsNewData | null };
    return body.data ?? null;
  } catch {
    return null;
  }
}

export function WhatsNew({ whatsNew, live = false }: { whatsNew: WhatsNewData | null | undefined; live?: boolean }) {
  const [version, setVersion] = useState<VersionContent | null>(null);
  // Versions this layout has opened: each opens once, whatever the data says later.
  const shown = useRef(new Set<number>());

  const show = useCallback((candidate: WhatsNewData | null | undefined) => {
    if (!candidate || candidate.seen) return;
    const { id } = candidate.version;
    if (shown.current.has(id) || recording.has(id)) return;
    shown.current.add(id);
    setVersion(candidate.version);
    void recordView(id);
  }, []);

  const refetch = useCallback(async () => show(await fetchLatest()), [show]);

  // The layout's data (after hydration, and again when the layout revalidates).
  const versionId = whatsNew?.version.id;
  const seen = whatsNew?.seen;
  const latest = useRef(whatsNew);
  latest.current = whatsNew;
  useEffect(() => {
    show(latest.current);
  }, [versionId, seen, show]);

  // The service worker says a new version of the app was installed.
  useEffect(() => {
    let flagged = false;
    try {
      flagged = window.sessionStorage.getItem(NEW_VERSION_STORAGE_KEY) === "true";
    } catch {
      // storage disabled: nothing to read
    }
    if (!flagged) return;
    void refetch().finally(() => {
      try {
        window.sessionStorage.removeItem(NEW_VERSION_STORAGE_KEY);
      } catch {
        // ignore
      }
    });
  }, [refetch]);

  // A version published while the page is open. Every open page hears it at once, so the refetches
  // are spread over a moment instead of all landing on the server together.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtimeEvent(
    live ? VERSIONS_CHANNEL : null,
    `.${VERSION_PUBLISHED_EVENT}`,
    (payload) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === "number" && shown.current.has(id)) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void refetch(), Math.floor(Math.random() * 1500));
    },
    "public",
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!version) return null;
  return <WhatsNewDialog key={version.id} version={version} onClose={() => setVersion(null)} />;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog (native <dialog> shown with showModal(): the rest of the page is inert and it sits in
 * the top layer). Focus moves to the close button, Tab stays inside, and Escape, the close buttons or a
 * click on the backdrop close it; focus then returns where it was.
 */
export function WhatsNewDialog({ version, onClose }: { version: VersionContent; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    closeRef.current?.focus();
    const root = document.documentElement;
    const overflow = root.style.overflow;
    root.style.overflow = "hidden";
    // Closed by the browser itself (Escape on some platforms goes straight to "close").
    const onNativeClose = () => onCloseRef.current();
    dialog.addEventListener("close", onNativeClose);
    return () => {
      dialog.removeEventListener("close", onNativeClose);
      if (dialog.open) dialog.close();
      root.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== "Tab") return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
    if (!items.length) {
      event.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  // The dialog element itself is only hit outside the panel, i.e. on the backdrop.
  function onPointerDown(event: PointerEvent<HTMLDialogElement>) {
    pressedOnBackdrop.current = event.target === event.currentTarget;
  }
  function onClick(event: MouseEvent<HTMLDialogElement>) {
    if (event.target === event.currentTarget && pressedOnBackdrop.current) onClose();
    pressedOnBackdrop.current = false;
  }

  return (
    // Escape and a click on the backdrop close the dialog: the listeners sit on the dialog itself.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      data-whats-new={version.id}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onClick={onClick}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg overflow-visible rounded-xl bg-transparent p-0 text-stone-900 backdrop:bg-stone-900/50"
    >
      <div className="flex max-h-[min(85vh,42rem)] flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-xl">
        <div className="flex items-start justify-between gap-4 border-b border-stone-200 px-5 py-4">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wide text-brand-800 uppercase">What’s new</p>
            <h2 id={titleId} className="mt-0.5 text-lg font-semibold break-words text-stone-900">
              {version.name}
            </h2>
          </div>
          <button
            ref={closeRef}
            type="button"
            onClick={onClose}
            className="-mt-1 -mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-stone-500 hover:bg-stone-100 hover:text-stone-800"
          >
            <span className="sr-only">Close</span>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-current">
              <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        </div>
        {/* Sanitised on the server (sanitizeVersionHtml): headings, lists, links, emphasis and code only. */}
        <div
          // A scrolling region keyboard users can reach too.
          tabIndex={0}
          role="region"
          aria-label="Release notes"
          className={`overflow-y-auto px-5 py-4 ${VERSION_CONTENT_CLASS}`}
          dangerouslySetInnerHTML={{ __html: version.content }}
        />
        <div className="flex justify-end border-t border-stone-200 px-5 py-3">
          <button
            type="button"
            onClick={onClose}
            className="inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
          >
            Got it
          </button>
        </div>
      </div>
    </dialog>
  );
}
