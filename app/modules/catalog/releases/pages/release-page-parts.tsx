import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useActionData } from "react-router";
import { StatusTag } from "~/components/status-tag";
import type { ReleaseRejectionReason, ReleaseStatus } from "~/db/schema";
import type { ReleasePreflightProblem } from "../preflight.server";
import { RELEASE_STATUS_LABELS } from "../release-options";
import type { ReleaseActionData, ReleaseForm } from "../release-routes.server";

/**
 * The release pages (member and admin) and their forms. Each form is a plain POST with an `intent` that
 * works without JavaScript; the forms take the `action` URL and an optional `step` (a hidden field) so the
 * guided distribution flow can render them on its own pages and handle them with the exported intent
 * handlers of release-routes.server.ts.
 */

export type Result = SubmissionResult<string[]> | undefined;

/** The action data for one form of the page (undefined for the others). */
export function useReleaseActionResult(form: ReleaseForm): { result: Result; problems?: ReleasePreflightProblem[] } {
  const actionData = useActionData() as ReleaseActionData | undefined;
  return actionData?.form === form ? { result: actionData.result, problems: actionData.problems } : { result: undefined };
}

export const buttonSecondary =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-brand-700 focus-visible:outline-none disabled:opacity-60";
export const buttonPrimary =
  "inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60";
export const buttonDanger =
  "inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-600 disabled:opacity-60";

export function StepField({ step }: { step?: string }) {
  return step ? <input type="hidden" name="step" value={step} /> : null;
}

export function Section({ id, title, description, children }: { id?: string; title: string; description?: ReactNode; children: ReactNode }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, "-")}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-20 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-stone-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function ReleaseStatusTag({ status }: { status: ReleaseStatus }) {
  const tone: Record<ReleaseStatus, string> = {
    draft: "draft",
    pending_approval: "pending_approval",
    approved: "approved",
    rejected: "rejected",
    in_distribution: "published",
    takedown_requested: "pending",
    taken_down: "inactive",
  };
  return <StatusTag status={tone[status]} label={RELEASE_STATUS_LABELS[status]} />;
}

/** An administrator's reason beside the field it is about. */
export function ReasonNote({ reasons, fields }: { reasons: ReleaseRejectionReason[] | null | undefined; fields: string[] }) {
  const mine = (reasons ?? []).filter((r) => fields.includes(r.field));
  if (!mine.length) return null;
  return (
    <div className="mt-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {mine.map((r) => (
        <p key={r.field}>
          <span className="font-medium">Reviewer: </span>
          {r.message}
        </p>
      ))}
    </div>
  );
}

export interface ReleaseFormProps {
  /** The URL the form posts to (the page itself, or a step of the distribution flow). */
  action?: string;
  /** Sent as a hidden `step` field. */
  step?: string;
  lastResult?: Result;
  /** The save button's label (the flow says "Save and continue"). */
  submitLabel?: string;
}
