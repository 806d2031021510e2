import { useEffect, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import type { NotificationColor } from "~/modules/notifications/colors";
import type { NotificationList } from "~/modules/notifications/notifications.server";
import { DateTime } from "./formatting";

const DOT: Record<NotificationColor, string> = {
  green: "bg-green-500",
  purple: "bg-purple-500",
  orange: "bg-orange-500",
  blue: "bg-blue-500",
  red: "bg-red-500",
  yellow: "bg-yellow-400",
  gray: "bg-stone-400",
};

/**
 * The notification bell: the unread total as a badge and a dropdown of at most
 * 24rem that scrolls. A <details> disclosure, so it opens and its forms work without JavaScript; with
 * JavaScript, Escape, a click outside and any navigation close it. Clicking a notification deletes it
 * and goes where it points; the cross deletes only that one; "Clear all" deletes every one.
 */
export function NotificationBell({ list, actionPath, label }: { list: NotificationList; actionPath: string; label: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  const total = list.meta.total;

  useEffect(() => setOpen(false), [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        ref.current?.querySelector("summary")?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <details
      ref={ref}
      open={open}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
      className="relative"
      data-notifications={label}
    >
      <summary
        className="relative flex cursor-pointer list-none items-center rounded-full p-2 text-stone-700 hover:bg-stone-100 [&::-webkit-details-marker]:hidden"
        aria-label={`${label}: ${total} unread`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8">
          <path
            d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2c0 .5-.2 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {total > 0 ? (
          <span
            data-testid="notification-count"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {total > 99 ? "99+" : total}
          </span>
        ) : null}
      </summary>
      {/* On a phone the bell is not at the screen's right edge (the avatar is): the panel spans the screen under
          the header instead of hanging off the left edge; from sm up it opens under the bell. */}
      <div className="fixed inset-x-3 top-[4.25rem] z-40 rounded-lg border border-stone-200 bg-white shadow-lg sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-[22rem]">
        <div className="flex items-center justify-between border-b border-stone-200 px-3 py-2">
          <h2 className="text-sm font-semibold">{label}</h2>
          {total > 0 ? (
            <Form method="post" action={actionPath}>
              <input type="hidden" name="intent" value="clear" />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button type="submit" className="text-xs font-medium text-brand-800 underline">
                Clear all
              </button>
            </Form>
          ) : null}
        </div>
        {list.data.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-stone-500">You are all caught up.</p>
        ) : (
          <ul className="max-h-[24rem] divide-y divide-stone-100 overflow-y-auto" aria-label={label}>
            {list.data.map((n) => (
              <li key={n.id} className="flex items-start gap-1 px-1 py-1">
                <Form method="post" action={actionPath} className="min-w-0 flex-1">
                  <input type="hidden" name="intent" value="open" />
                  <input type="hidden" name="id" value={n.id} />
                  <input type="hidden" name="redirectTo" value={redirectTo} />
                  <button type="submit" className="flex w-full items-start gap-2 rounded-md px-2 py-2 text-left hover:bg-stone-50">
                    <span aria-hidden="true" className={`mt-1.5 size-2 shrink-0 rounded-full ${DOT[n.data.color] ?? DOT.gray}`} />
                    <span className="min-w-0">
                      <span className="block text-sm break-words text-stone-800">{n.data.message}</span>
                      <span className="block text-xs text-stone-500">
                        <DateTime iso={n.created_at} withTime />
                      </span>
                    </span>
                  </button>
                </Form>
                <Form method="post" action={actionPath}>
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={n.id} />
                  <input type="hidden" name="redirectTo" value={redirectTo} />
                  <button
                    type="submit"
                    className="rounded p-1.5 text-stone-400 hover:bg-stone-100 hover:text-stone-700"
                    aria-label={`Delete notification: ${n.data.message}`}
                  >
                    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
                      <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
                    </svg>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
