import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";

/**
 * The work request pages: create-work-request, the member's and the admin's lists, a request's
 * page (details, estimate summary, actions, thread) and its estimate page (versions, the provider's form, the
 * client's answer). Route modules pass their loader and action data through.
 */

export type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined;

export const card = "rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";
export const linkClass = "font-medium text-brand-800 underline";

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children ? <div className="mt-1 text-sm text-stone-600">{children}</div> : null}
    </header>
  );
}
