import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { FormAlert, SubmitButton, TextareaField } from "~/components/forms";
import type { ReleaseRejectionReason } from "~/db/schema";
import type { StatusChangeItem } from "~/modules/catalog/catalog.server";
import type { ReleasePreflightProblem } from "../preflight.server";
import { RELEASE_STATUS_LABELS, releaseFieldAnchor, REVIEW_FIELDS } from "../release-options";
import { TakedownSchema } from "../release-schemas";
import { buttonDanger, buttonPrimary, type ReleaseFormProps, type Result, StepField } from "./release-page-parts";

export function PreflightList({
  problems,
  title = "Preflight check",
  refused = false,
}: {
  problems: ReleasePreflightProblem[];
  title?: string;
  refused?: boolean;
}) {
  const blocking = problems.filter((p) => p.blocking);
  const notes = problems.filter((p) => !p.blocking);
  return (
    <div aria-label={title} role="region" className="space-y-3">
      {blocking.length === 0 ? (
        <p className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">Everything the stores need is there.</p>
      ) : (
        // A refused submission is said here, once: the problems are the reason (no second box above or below).
        <div role={refused ? "alert" : undefined} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">
            {refused ? "Not submitted: " : ""}
            {blocking.length} {blocking.length === 1 ? "problem blocks" : "problems block"} submission:
          </p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {blocking.map((p) => (
              <li key={`${p.code}-${p.field}`} data-code={p.code}>
                {p.message}{" "}
                <Link to={p.fixHref} className="font-medium underline">
                  Fix
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {notes.length ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-stone-700">
          {notes.map((p) => (
            <li key={`${p.code}-${p.field}`} data-code={p.code}>
              {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The preflight and the submit button, as one panel: after a refused submission its problems replace the list (one
 * box, named "Why the submission was refused"), never a second list or an alert repeating it.
 */
export function SubmitPanel({
  problems,
  submit,
  action,
  step,
  title,
}: Pick<ReleaseFormProps, "action" | "step"> & {
  problems: ReleasePreflightProblem[];
  submit: { result: Result; problems?: ReleasePreflightProblem[] };
  title?: string;
}) {
  const refused = Boolean(submit.problems?.length);
  return (
    <div className="space-y-4">
      {refused ? (
        <PreflightList problems={submit.problems!} title="Why the submission was refused" refused />
      ) : (
        <PreflightList problems={problems} title={title} />
      )}
      <SubmitForm action={action} step={step} problems={submit.problems ?? problems} result={submit} />
    </div>
  );
}

export function RejectionReasonsPanel({ reasons, profilePath }: { reasons: ReleaseRejectionReason[] | null; profilePath?: string }) {
  if (!reasons?.length) return null;
  const labels = new Map<string, string>(REVIEW_FIELDS.map((f) => [f.field, f.label]));
  return (
    <div role="region" aria-label="Reviewer's reasons" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-semibold">The reviewer asked for changes:</p>
      <ul className="mt-2 space-y-1">
        {reasons.map((r) => (
          <li key={r.field}>
            {profilePath ? (
              <Link to={`${profilePath}#${releaseFieldAnchor(r.field)}`} className="font-medium underline">
                {labels.get(r.field) ?? r.field}
              </Link>
            ) : (
              <span className="font-medium">{labels.get(r.field) ?? r.field}</span>
            )}
            : {r.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function StatusHistoryList({ history }: { history: StatusChangeItem[] }) {
  if (!history.length) return <p className="text-sm text-stone-600">No changes yet.</p>;
  return (
    <ol className="space-y-2 text-sm">
      {history.map((h) => (
        <li key={h.id} className="rounded-md border border-stone-200 p-2">
          <p>
            <span className="font-medium">{RELEASE_STATUS_LABELS[h.toStatus]}</span>
            {h.actor ? ` by ${h.actor.name} ${h.actor.lastName}` : ""}
            <span className="text-stone-500"> · {new Date(h.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC</span>
          </p>
          {h.reason ? <p className="mt-1 whitespace-pre-line text-stone-700">{h.reason}</p> : null}
        </li>
      ))}
    </ol>
  );
}

export function TakedownForm({ action, lastResult }: { action?: string; lastResult: Result }) {
  const [form, fields] = useForm({
    id: "release-takedown",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TakedownSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" action={action} className="space-y-3" {...getFormProps(form)}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label="Why should the release be taken down?"
        errors={fields.reason.errors}
        errorId={fields.reason.errorId}
        textareaProps={{ ...getTextareaProps(fields.reason), maxLength: 1000, rows: 3 }}
      />
      <SubmitButton name="intent" value="takedown" pendingLabel="Requesting…" className={buttonDanger}>
        Request takedown
      </SubmitButton>
    </Form>
  );
}

export function SubmitForm({
  action,
  step,
  problems,
  result,
}: Pick<ReleaseFormProps, "action" | "step"> & { problems: ReleasePreflightProblem[]; result: { result: Result; problems?: ReleasePreflightProblem[] } }) {
  const blocking = problems.some((p) => p.blocking);
  return (
    <Form method="post" action={action} className="space-y-3">
      <StepField step={step} />
      {/* A refusal with problems is shown by the list (SubmitPanel); any other refusal (the release moved on) here. */}
      <FormAlert errors={result.problems?.length ? undefined : (result.result?.error?.[""] ?? undefined)} />
      <p className="text-sm text-stone-600">
        {blocking
          ? "Fix the problems above first; you can still try, and we will tell you what is missing."
          : "An administrator reviews the release before it goes to the stores."}
      </p>
      <SubmitButton name="intent" value="submit" pendingLabel="Submitting…" className={buttonPrimary}>
        Submit for review
      </SubmitButton>
    </Form>
  );
}
