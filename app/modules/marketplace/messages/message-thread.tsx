import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Fragment, useState, type ReactNode } from "react";
import { Form } from "react-router";
import { z } from "zod";
import { DateTime } from "~/components/formatting";
import { FormAlert, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { useRealtimeEvent } from "~/components/realtime/realtime";
import { LIMITS } from "../marketplace-rules";

/**
 * The message thread of a work request or a project, shared by both pages.
 *
 * Props (stable API):
 * - `messages`: the thread oldest first (newest last), as `listMessages` returns it with `createdAt` as an
 *   ISO string (see `messagesForPage`).
 * - `viewerId`: the signed-in user's id; their own messages are labelled "You".
 * - `canPost`: shows the post form (false for read-only views, e.g. an administrator's request page).
 * - `lastResult`: the Conform reply of the last post (`actionData.message` when the route's action answered
 *   the `message` intent with field errors), so errors show beside the field and the text is kept.
 * - `action`: where the form posts (default: the current route).
 * - `liveThreadId`: the work request whose thread this is; while the page is open, messages posted by anyone
 *   arrive over its private realtime channel (`threadChannel`) and are appended without a reload.
 *
 * The form posts `intent=message` and `body`. The route's action reads it with `MessageFormSchema` (through
 * `parseForm`), calls `postMessage(actor, target, body)` and redirects with `redirectAfterSuccess(path, id,
 * …)` so the form empties; on a `MarketplaceError` with field `body` it answers 400 with the reply.
 *
 * Safety: message bodies are user input. They are rendered as React text only (escaped), line breaks kept by
 * CSS; web addresses (http/https only) become links with rel="nofollow noopener noreferrer ugc" opening in a
 * new tab, everything else stays text. No HTML from a message ever reaches the page.
 */

export const MESSAGE_INTENT = "message";

export const MessageFormSchema = z.object({
  intent: z.literal(MESSAGE_INTENT),
  body: z
    .string({ error: "Write a message." })
    .trim()
    .min(1, "Write a message.")
    .max(LIMITS.messageMax, `A message is at most ${LIMITS.messageMax} characters.`),
});

/** The thread's private channel (as Echo names it, without `private-`) and its event (decision 021). */
export const threadChannel = (workRequestId: number) => `marketplace-thread.${workRequestId}`;
export const THREAD_EVENT = "marketplace.message";

export interface ThreadMessage {
  id: number;
  body: string;
  senderId: number | null;
  senderName: string | null;
  createdAt: string;
}

/** `listMessages` rows as loader data (dates as ISO strings). */
export function messagesForPage(rows: Array<Omit<ThreadMessage, "createdAt"> & { createdAt: Date }>): ThreadMessage[] {
  return rows.map((m) => ({
    id: m.id,
    body: m.body,
    senderId: m.senderId,
    senderName: m.senderName,
    createdAt: m.createdAt.toISOString(),
  }));
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;

/** Text with its http(s) addresses as safe links; everything is React text (escaped). */
export function LinkifiedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    // Trailing punctuation belongs to the sentence, not the address.
    const raw = match[0].replace(/[.,;:!?)\]]+$/, "");
    const at = match.index ?? 0;
    let href: string | null = null;
    try {
      const url = new URL(raw);
      href = url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      <a key={at} href={href} target="_blank" rel="nofollow noopener noreferrer ugc" className="break-all text-brand-800 underline">
        {raw}
      </a>,
    );
    last = at + raw.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>{p}</Fragment>
      ))}
    </>
  );
}

/** A realtime payload, checked: only a well-formed message is shown (as text, like every message). */
function threadMessageOf(payload: unknown): ThreadMessage | null {
  const m = payload as Partial<ThreadMessage> | null;
  if (!m || typeof m.id !== "number" || typeof m.body !== "string" || typeof m.createdAt !== "string") return null;
  return {
    id: m.id,
    body: m.body,
    senderId: typeof m.senderId === "number" ? m.senderId : null,
    senderName: typeof m.senderName === "string" ? m.senderName : null,
    createdAt: m.createdAt,
  };
}

/** The loaded thread plus what arrived live since, once each, oldest first. */
function useLiveThread(messages: ThreadMessage[], liveThreadId: number | undefined): ThreadMessage[] {
  const [arrived, setArrived] = useState<ThreadMessage[]>([]);
  useRealtimeEvent(liveThreadId ? threadChannel(liveThreadId) : null, `.${THREAD_EVENT}`, (payload) => {
    const message = threadMessageOf(payload);
    if (message) setArrived((current) => (current.some((m) => m.id === message.id) ? current : [...current, message]));
  });
  if (arrived.length === 0) return messages;
  const known = new Set(messages.map((m) => m.id));
  const newest = messages.at(-1)?.id ?? 0;
  const extra = arrived.filter((m) => !known.has(m.id) && m.id > newest);
  return extra.length === 0 ? messages : [...messages, ...extra];
}

export function MessageThread({
  messages: loaded,
  viewerId,
  canPost,
  lastResult,
  action,
  liveThreadId,
}: {
  messages: ThreadMessage[];
  viewerId: number;
  canPost: boolean;
  lastResult?: SubmissionResult<string[]> | null;
  action?: string;
  liveThreadId?: number;
}) {
  const resetKey = useFormResetKey();
  const messages = useLiveThread(loaded, liveThreadId);
  return (
    <section id="messages" aria-labelledby="messages-heading" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="messages-heading" className="text-lg font-semibold">
        Messages
      </h2>
      {messages.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No messages yet.</p>
      ) : (
        <ol aria-label="Messages" aria-live="polite" aria-relevant="additions" className="mt-3 space-y-3">
          {messages.map((m) => (
            <li key={m.id} className={`rounded-lg px-3 py-2 text-sm ${m.senderId === viewerId ? "ml-6 bg-brand-50" : "mr-6 bg-stone-50"}`}>
              <p className="text-xs text-stone-600">
                <span className="font-semibold text-stone-800">{m.senderId === viewerId ? "You" : (m.senderName ?? "Deleted user")}</span> ·{" "}
                <DateTime iso={m.createdAt} withTime />
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words text-stone-900">
                <LinkifiedText text={m.body} />
              </p>
            </li>
          ))}
        </ol>
      )}
      {canPost && <MessageForm key={`message-${resetKey}`} lastResult={lastResult} action={action} />}
    </section>
  );
}

function MessageForm({ lastResult, action }: { lastResult?: SubmissionResult<string[]> | null; action?: string }) {
  const [form, fields] = useForm({
    id: "message-form",
    lastResult,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" action={action} className="mt-4 space-y-3" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label="New message"
        textareaProps={{
          ...getTextareaProps(fields.body),
          maxLength: LIMITS.messageMax,
          rows: 3,
        }}
        errors={fields.body.errors}
        errorId={fields.body.errorId}
        help={`Plain text and links, up to ${LIMITS.messageMax} characters.`}
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value={MESSAGE_INTENT} pendingLabel="Sending…">
          Send message
        </SubmitButton>
      </div>
    </Form>
  );
}
