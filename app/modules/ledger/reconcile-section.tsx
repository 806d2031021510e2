import { Form } from "react-router";
import { DateTime, formatCount } from "~/components/formatting";
import { SubmitButton } from "~/components/forms";

/** The last reconcile of an import, as its page shows it (see reconcile.server.ts). */
export interface ReconcileView {
  reconciled: boolean;
  linesChecked: number;
  accountsChecked: number;
  mismatchedLines: number;
  mismatches: Array<{ check: string; label: string; expectedMicros: string; foundMicros: string }>;
  checkedAt: string;
}

const CHECK_LABELS: Record<string, string> = {
  account: "Line parts vs postings",
  line: "Line's parts vs the line",
  summary: "Running totals vs postings",
  entry: "Entry",
};

/** The reconcile's verdict on the import's page, and the button that runs it again (a plain form: works without JavaScript). */
export function ReconcileSection({ result }: { result: ReconcileView | null }) {
  return (
    <section aria-labelledby="reconcile-heading" className="space-y-3" data-testid="reconcile">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reconcile-heading" className="text-lg font-semibold">
          Reconcile
        </h2>
        <Form method="post">
          <SubmitButton
            name="intent"
            value="reconcile"
            pendingLabel="Reconciling…"
            className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-50"
          >
            {result ? "Reconcile again" : "Reconcile now"}
          </SubmitButton>
        </Form>
      </div>
      {!result ? (
        <p className="text-sm text-stone-600">Not reconciled yet: the check runs in the background after the import, or now with the button.</p>
      ) : result.reconciled ? (
        <p className="text-sm text-green-800">
          ✓ Reconciled: every part of its {formatCount(result.linesChecked)} lines sums exactly to its postings, on {formatCount(result.accountsChecked)}{" "}
          accounts, and the running totals agree. Checked <DateTime iso={result.checkedAt} withTime />.
        </p>
      ) : (
        <div className="space-y-2">
          <p role="alert" className="text-sm text-red-700">
            {result.mismatches.length} mismatch{result.mismatches.length === 1 ? "" : "es"} found
            {result.mismatchedLines > 0 ? ` (${formatCount(result.mismatchedLines)} lines whose parts do not sum to them)` : ""}. Checked{" "}
            <DateTime iso={result.checkedAt} withTime />.
          </p>
          <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
            <table className="w-full text-sm">
              <caption className="sr-only">Mismatches, in micro-units</caption>
              <thead>
                <tr className="text-left text-stone-500">
                  <th className="px-4 py-2 font-medium">Check</th>
                  <th className="px-4 py-2 font-medium">Where</th>
                  <th className="px-4 py-2 text-right font-medium">Expected (micro-units)</th>
                  <th className="px-4 py-2 text-right font-medium">Found</th>
                </tr>
              </thead>
              <tbody>
                {result.mismatches.map((m, i) => (
                  <tr key={i} className="border-t border-stone-100">
                    <td className="px-4 py-2">{CHECK_LABELS[m.check] ?? m.check}</td>
                    <td className="px-4 py-2">{m.label}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{m.expectedMicros}</td>
                    <td className="px-4 py-2 text-right tabular-nums">{m.foundMicros}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
