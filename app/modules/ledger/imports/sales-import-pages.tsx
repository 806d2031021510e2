import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form, Link, useActionData, useFetcher } from "react-router";
import { DataTable } from "~/components/data-table";
import { Count, DateTime, formatCount } from "~/components/formatting";
import { Field, FieldErrors, FormAlert, SelectField, SubmitButton } from "~/components/forms";
import { Pagination } from "~/components/pagination";
import { useRealtimeEvent } from "~/components/realtime/realtime";
import { useRevalidateWhenIdle } from "~/components/realtime/revalidate-on";
import { StatusTag } from "~/components/status-tag";
import { ReconcileSection } from "../reconcile-section";
import type { SalesImportData, SuspenseQueueData, UploadActionData, UploadSalesData } from "./sales-import-routes.server";

/**
 * The admin's sales upload pages. The upload is a plain multipart form (it works without JavaScript);
 * an import's progress arrives live over realtime, and without JavaScript the page refreshes itself
 * while the import runs.
 */

const KIND_OPTIONS = [
  { value: "digital", label: "Digital (stores and streaming)" },
  { value: "pro", label: "PRO (performing rights)" },
  { value: "license", label: "Licence (sync and other licences)" },
];
const KIND_LABELS: Record<string, string> = { digital: "Digital", pro: "PRO", license: "Licence" };
const STATUS_LABELS: Record<string, string> = { queued: "Queued", processing: "Processing", completed: "Completed", failed: "Failed", refused: "Refused" };
const STATUS_TAG: Record<string, string> = { queued: "pending", processing: "in_progress", completed: "completed", failed: "rejected", refused: "rejected" };

const dollars = (decimal: string) => {
  const negative = decimal.startsWith("-");
  const [units, fraction = ""] = decimal.replace("-", "").split(".");
  return `${negative ? "−" : ""}$${formatCount(Number(units))}.${fraction.slice(0, 2).padEnd(2, "0")}`;
};
/** The six-decimal figure in full, for the reconciliation: nothing rounded away. */
const exact = (decimal: string) => `${decimal} USD`;

const ADMIN_CHANNEL = "admin-notifications";
const PROGRESS_EVENT = ".sales-import.progress";

const MATCH_PROGRESS_EVENT = ".suspense-match.progress";

interface ProgressPayload {
  importId?: number;
  matchId?: number;
  status: string;
  lines: number;
}

/**
 * Live line counts of running work (imports, or suspense matches) over realtime, by id; reloads the page's data
 * when one finishes. One mechanism for both: the job publishes {id, status, lines} on the admin channel.
 */
function useLiveProgress(event: string, idOf: (payload: ProgressPayload) => number | undefined): Record<number, number> {
  const [lines, setLines] = useState<Record<number, number>>({});
  // Work may finish while the redirect that started it is still loading the page: its reload waits for that load.
  const revalidate = useRevalidateWhenIdle();
  useRealtimeEvent(ADMIN_CHANNEL, event, (payload) => {
    const progress = payload as ProgressPayload;
    const id = idOf(progress);
    if (id === undefined) return;
    if (progress.status === "processing") setLines((current) => ({ ...current, [id]: progress.lines }));
    else revalidate();
  });
  return lines;
}

const useImportProgress = () => useLiveProgress(PROGRESS_EVENT, (p) => p.importId);

function ImportStatus({ status, lines }: { status: string; lines?: number | null }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <StatusTag status={STATUS_TAG[status] ?? status} label={STATUS_LABELS[status] ?? status} />
      {status === "processing" && lines ? (
        <span className="text-xs text-stone-600 tabular-nums">
          <Count value={lines} /> lines posted…
        </span>
      ) : null}
    </span>
  );
}

/**
 * How far a queued or running import has gone: the lines posted out of the lines the upload's check read, as a
 * labelled progress bar (live over realtime; without JavaScript the page refreshes itself).
 */
function ImportProgress({ status, posted, expected }: { status: string; posted: number; expected: number | null }) {
  const done = expected ? Math.min(posted, expected) : posted;
  return (
    <section aria-labelledby="progress-heading" className="space-y-2 rounded-lg border border-stone-200 bg-white p-4">
      <h2 id="progress-heading" className="text-sm font-semibold">
        {status === "queued" ? "Waiting for the worker" : "Posting the statement"}
      </h2>
      {expected ? (
        <progress
          id="import-progress"
          max={expected}
          value={done}
          aria-labelledby="progress-heading"
          aria-describedby="progress-count"
          className="h-2 w-full accent-brand-700"
        />
      ) : null}
      <p id="progress-count" className="text-sm text-stone-700 tabular-nums" data-testid="import-progress">
        {status === "queued"
          ? `${expected ? `${formatCount(expected)} lines checked; ` : ""}queued.`
          : `${formatCount(done)}${expected ? ` of ${formatCount(expected)}` : ""} lines posted.`}{" "}
        This page updates by itself.
      </p>
    </section>
  );
}

/** Without JavaScript the page reloads itself while an import is waiting or running. */
function RefreshWhileRunning({ running }: { running: boolean }) {
  return running ? (
    <noscript>
      <meta httpEquiv="refresh" content="3" />
    </noscript>
  ) : null;
}

export function UploadSalesPage({ loaderData }: { loaderData: UploadSalesData }) {
  const { imports, page, pageSize, total } = loaderData;
  // With JavaScript the form posts through a fetcher: a refused file answers beside its field and the address
  // stays /admin/upload-sales (a navigation would leave the index route's "?index" in it); an accepted one
  // redirects to its import. Without JavaScript it is the same form post, answered by the page (actionData).
  const actionData = useActionData() as UploadActionData | undefined;
  const upload = useFetcher<UploadActionData>({ key: "upload-sales" });
  const [form, fields] = useForm<{ kind: string; exchange_rate: string; file: File }>({
    id: "upload-sales",
    lastResult: (upload.data ?? actionData)?.result,
    defaultValue: { kind: "digital" },
  });
  const live = useImportProgress();
  return (
    <div className="mx-auto w-full max-w-6xl space-y-8">
      <RefreshWhileRunning running={imports.some((i) => i.status === "queued" || i.status === "processing")} />
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Upload sales</h1>
        <p className="mt-1 text-sm text-stone-600">
          Statements from stores, societies and licensees. A file is checked whole before it is accepted; then it is posted to the ledger in one go, and nothing
          of it is posted if anything fails.
        </p>
      </header>

      <section aria-labelledby="upload-heading" className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="upload-heading" className="text-lg font-semibold">
          Upload a statement
        </h2>
        <upload.Form method="post" encType="multipart/form-data" className="mt-4 grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
          <div className="sm:col-span-2">
            <FormAlert id={form.errorId} errors={form.errors} />
          </div>
          <SelectField
            label="Kind"
            errors={fields.kind.errors}
            errorId={fields.kind.errorId}
            selectProps={{ ...getSelectProps(fields.kind), id: "field-kind" }}
            options={KIND_OPTIONS}
          />
          <Field
            label="Exchange rate (optional)"
            errors={fields.exchange_rate.errors}
            errorId={fields.exchange_rate.errorId}
            help="US dollars per unit of the statement's currency, for lines that carry no rate of their own, such as 1.0832."
            inputProps={{ ...getInputProps(fields.exchange_rate, { type: "text" }), id: "field-exchange-rate", inputMode: "decimal", autoComplete: "off" }}
          />
          <div className="sm:col-span-2">
            <label htmlFor="field-file" className="block text-sm font-medium text-stone-800">
              Statement file
            </label>
            <input
              id="field-file"
              type="file"
              name="file"
              accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
              aria-invalid={fields.file?.errors?.length ? true : undefined}
              aria-describedby={fields.file?.errors?.length ? `${fields.file.errorId} field-file-help` : "field-file-help"}
              className="mt-1 block w-full text-sm"
            />
            <p id="field-file-help" className="mt-1 text-xs text-stone-500">
              Backline CSV for any kind; DistroKid TSV, TuneCore CSV or CD Baby for digital; BMI or ASCAP for PRO. Up to 512 MB.
            </p>
            <FieldErrors id={fields.file?.errorId} errors={fields.file?.errors} />
          </div>
          <div className="sm:col-span-2">
            <SubmitButton pendingLabel="Checking the file…" busy={upload.state === "submitting"}>
              Upload and import
            </SubmitButton>
          </div>
        </upload.Form>
      </section>

      <section aria-labelledby="history-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="history-heading" className="text-lg font-semibold">
            Import history
          </h2>
          <Link to="/admin/suspense" className="text-sm text-brand-800 underline">
            Lines in suspense, every import
          </Link>
        </div>
        <DataTable
          caption="Sales imports, newest first"
          rows={imports}
          rowKey={(row) => row.id}
          empty={<p className="text-sm text-stone-600">No statement has been imported yet.</p>}
          columns={[
            {
              key: "file",
              header: "Statement",
              cell: (row) => (
                <span className="block min-w-0">
                  <Link to={`/admin/upload-sales/${row.id}`} className="font-medium break-all text-brand-900 hover:underline">
                    #{row.id} {row.fileName}
                  </Link>
                  <span className="block text-xs text-stone-500">
                    {KIND_LABELS[row.kind]} · {row.layout} · <DateTime iso={row.createdAt} withTime />
                    {row.uploader ? ` · ${row.uploader}` : ""}
                  </span>
                </span>
              ),
            },
            { key: "status", header: "Status", cell: (row) => <ImportStatus status={row.status} lines={live[row.id] ?? row.lines} /> },
            { key: "lines", header: "Lines", align: "right", cell: (row) => (row.status === "completed" ? <Count value={row.lines} /> : "—") },
            { key: "matched", header: "Matched", align: "right", cell: (row) => (row.status === "completed" ? <Count value={row.matched} /> : "—") },
            { key: "unmatched", header: "Unmatched", align: "right", cell: (row) => (row.status === "completed" ? <Count value={row.unmatched} /> : "—") },
            { key: "total", header: "Total", align: "right", cell: (row) => (row.status === "completed" ? dollars(row.total) : "—") },
            { key: "suspense", header: "Suspense", align: "right", cell: (row) => (row.status === "completed" ? dollars(row.suspense) : "—") },
          ]}
        />
        <Pagination
          page={page}
          pageCount={Math.max(1, Math.ceil(total / pageSize))}
          pageSize={pageSize}
          total={total}
          noun={["import", "imports"]}
          label="Import history pages"
        />
      </section>
    </div>
  );
}

interface MatchRow {
  id: number;
  status: string;
  code: string | null;
  expectedLines: number;
  lines: number;
  error: string | null;
  createdAt: string;
}

/**
 * The latest suspense matches and how far each has gone (queued, processing with a count and a bar, completed),
 * live over realtime like an import's progress; without JavaScript the page refreshes itself while one runs,
 * and with it the data is reloaded every few seconds too (realtime is best effort).
 */
function MatchProgressPanel({ matches }: { matches: MatchRow[] }) {
  const live = useLiveProgress(MATCH_PROGRESS_EVENT, (p) => p.matchId);
  const running = matches.some((m) => m.status === "queued" || m.status === "processing");
  const revalidate = useRevalidateWhenIdle();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(revalidate, 3000);
    return () => clearInterval(timer);
  }, [running, revalidate]);
  if (matches.length === 0) return null;
  return (
    <section aria-labelledby="matches-heading" className="space-y-2 rounded-lg border border-stone-200 bg-white p-4">
      <RefreshWhileRunning running={running} />
      <h2 id="matches-heading" className="text-sm font-semibold">
        Latest matches
      </h2>
      <ul className="space-y-2 text-sm" data-testid="suspense-matches">
        {matches.map((m) => {
          const done = m.status === "processing" ? Math.min(live[m.id] ?? m.lines, m.expectedLines) : m.lines;
          return (
            <li key={m.id} className="space-y-1">
              <span className="inline-flex flex-wrap items-center gap-2">
                <StatusTag status={STATUS_TAG[m.status] ?? m.status} label={STATUS_LABELS[m.status] ?? m.status} />
                <span className="break-all">{m.code ?? "one line"}</span>
                <span className="text-stone-600 tabular-nums">
                  {m.status === "queued"
                    ? `${formatCount(m.expectedLines)} line${m.expectedLines === 1 ? "" : "s"} to move; queued.`
                    : m.status === "processing"
                      ? `${formatCount(done)} of ${formatCount(m.expectedLines)} lines allocated.`
                      : m.status === "completed"
                        ? `${formatCount(m.lines)} line${m.lines === 1 ? "" : "s"} moved out of suspense.`
                        : (m.error ?? "Failed: nothing moved.")}
                </span>
              </span>
              {m.status === "processing" ? (
                <progress max={m.expectedLines} value={done} aria-label={`Match of ${m.code ?? "one line"}`} className="h-2 w-full accent-brand-700" />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function SalesImportPage({ loaderData }: { loaderData: SalesImportData }) {
  const { salesImport: row, reconciliation, reconcile, unmatched, options, lines, linesSoFar, matches } = loaderData;
  const actionData = useActionData() as { lineId: number; error: string } | undefined;
  const live = useImportProgress();
  const running = row.status === "queued" || row.status === "processing";
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <RefreshWhileRunning running={running} />
      <header className="space-y-1">
        <p className="text-sm text-stone-500">
          <Link to="/admin/upload-sales" className="hover:underline">
            Upload sales
          </Link>{" "}
          / import #{row.id}
        </p>
        <h1 className="text-2xl font-semibold tracking-tight break-all">{row.fileName}</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
          <ImportStatus status={row.status} lines={live[row.id] ?? linesSoFar} />
          <span>
            {KIND_LABELS[row.kind]} · {row.layout}
          </span>
          {row.statementId ? <span>Statement {row.statementId}</span> : null}
          {row.exchangeRate ? <span>Rate entered: {row.exchangeRate}</span> : null}
          <span>
            Uploaded <DateTime iso={row.createdAt} withTime />
            {row.uploader ? ` by ${row.uploader}` : ""}
          </span>
        </p>
      </header>

      {row.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {row.error}
        </p>
      ) : null}
      {running ? <ImportProgress status={row.status} posted={live[row.id] ?? linesSoFar ?? 0} expected={row.expectedLines} /> : null}
      <MatchProgressPanel matches={matches} />

      {row.status === "completed" && reconciliation ? (
        <section aria-labelledby="figures-heading" className="space-y-3">
          <h2 id="figures-heading" className="text-lg font-semibold">
            Figures
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(
              [
                ["Lines", <Count value={row.lines} />],
                ["Matched", <Count value={row.matched} />],
                ["Unmatched", <Count value={row.unmatched} />],
                ["Total", dollars(row.total)],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-lg border border-stone-200 bg-white p-3">
                <dt className="text-xs text-stone-500">{label}</dt>
                <dd className="text-lg font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          {/* Two columns fit a phone: the labels wrap, the amounts never do (no minimum width hiding them off-screen). */}
          <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
            <table className="w-full text-sm">
              <caption className="px-4 py-2 text-left font-medium">Reconciliation: where the statement's money went (micro-units in full)</caption>
              <tbody>
                {[
                  ["Members' earnings", reconciliation.earnings],
                  ["Held for pending split parties", reconciliation.held],
                  ["Platform commission", reconciliation.commission],
                  ["Suspense (unmatched)", reconciliation.suspense],
                ].map(([label, value]) => (
                  <tr key={label} className="border-t border-stone-100">
                    <th scope="row" className="px-4 py-2 text-left font-normal text-stone-700">
                      {label}
                    </th>
                    <td className="px-4 py-2 text-right whitespace-nowrap tabular-nums">{exact(value!)}</td>
                  </tr>
                ))}
                <tr className="border-t-2 border-stone-300 font-semibold" data-testid="reconciliation-total">
                  <th scope="row" className="px-4 py-2 text-left">
                    Posted
                  </th>
                  <td className="px-4 py-2 text-right whitespace-nowrap tabular-nums">{exact(reconciliation.posted)}</td>
                </tr>
                <tr className="font-semibold">
                  <th scope="row" className="px-4 py-2 text-left">
                    Statement total
                  </th>
                  <td className="px-4 py-2 text-right tabular-nums">
                    <span className="whitespace-nowrap">{exact(row.total)}</span>{" "}
                    {reconciliation.posted === row.total ? (
                      <span className="block text-green-800">✓ balances</span>
                    ) : (
                      <span className="block text-red-700">does not balance</span>
                    )}
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      {row.status === "completed" ? <ReconcileSection result={reconcile} /> : null}

      {row.status === "completed" ? (
        <section aria-labelledby="unmatched-heading" className="space-y-3">
          <h2 id="unmatched-heading" className="text-lg font-semibold">
            Unmatched lines
          </h2>
          {unmatched.total === 0 ? (
            <p className="text-sm text-stone-600">Every line is matched: nothing of this statement is in suspense.</p>
          ) : (
            <>
              <p className="text-sm text-stone-600">
                Their money waits in suspense. Match a line and it moves to its owners; other lines with the same {row.kind === "pro" ? "IPI" : "code"} are
                matched with it, and later statements match by themselves.
              </p>
              <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
                {unmatched.rows.map((line) => (
                  <li key={line.id} className="grid gap-3 p-3 text-sm lg:grid-cols-[1fr_auto] lg:items-center">
                    <div className="min-w-0">
                      <p className="font-medium break-words">
                        Line {line.lineNo}: {line.trackTitle ?? line.releaseTitle ?? "untitled"}{" "}
                        {line.artist ? <span className="text-stone-500">· {line.artist}</span> : null}
                      </p>
                      <p className="text-xs text-stone-600">
                        {line.source} · {line.period}
                        {line.isrc ? ` · ISRC ${line.isrc}` : ""}
                        {line.upc ? ` · UPC ${line.upc}` : ""}
                        {line.iswc ? ` · ISWC ${line.iswc}` : ""}
                        {line.ipi ? ` · IPI ${line.ipi}` : ""} · <span className="font-medium tabular-nums">{dollars(line.amount)}</span>
                      </p>
                    </div>
                    <MatchForm line={line.id} kind={row.kind} options={options} error={actionData?.lineId === line.id ? actionData.error : undefined} />
                  </li>
                ))}
              </ul>
              <Pagination
                page={unmatched.page}
                pageCount={Math.max(1, Math.ceil(unmatched.total / unmatched.pageSize))}
                pageSize={unmatched.pageSize}
                total={unmatched.total}
                noun={["line", "lines"]}
                label="Unmatched line pages"
              />
            </>
          )}
        </section>
      ) : null}

      {row.status === "completed" ? <ImportLines lines={lines} /> : null}
    </div>
  );
}

const MATCHED_BY: Record<string, string> = {
  isrc: "ISRC",
  upc: "UPC",
  "ipi-iswc": "IPI and ISWC",
  "ipi-title": "IPI and title",
  ipi: "IPI",
  alias: "remembered code",
  admin: "by hand",
};

/** Every line of the statement as read, with what it matched; paged by line number. */
function ImportLines({ lines }: { lines: SalesImportData["lines"] }) {
  return (
    <section aria-labelledby="lines-heading" id="lines" className="scroll-mt-20 space-y-3">
      <h2 id="lines-heading" className="text-lg font-semibold">
        Lines
      </h2>
      <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
        <table className="w-full min-w-[48rem] text-left text-sm">
          <caption className="sr-only">The statement's lines from line {lines.fromLine || 1}</caption>
          <thead className="bg-stone-50 text-xs text-stone-600 uppercase">
            <tr>
              {["Line", "Period", "Store / source", "Country", "Title", "Code", "Amount", "Matched by"].map((h) => (
                <th key={h} scope="col" className={`px-3 py-2 font-semibold ${h === "Amount" ? "text-right" : ""}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.rows.map((line) => (
              <tr key={line.lineNo} id={`line-${line.lineNo}`} className="border-t border-stone-100 target:bg-amber-50">
                <td className="px-3 py-1.5 tabular-nums">{line.lineNo}</td>
                <td className="px-3 py-1.5">{line.period}</td>
                <td className="px-3 py-1.5">{line.source}</td>
                <td className="px-3 py-1.5">{line.territory ?? "—"}</td>
                <td className="px-3 py-1.5 break-words">{line.title ?? "—"}</td>
                <td className="px-3 py-1.5 font-mono text-xs">{line.code ?? "—"}</td>
                <td className="px-3 py-1.5 text-right tabular-nums" title={line.currency !== "USD" ? `${line.original} ${line.currency}` : undefined}>
                  {line.amount}
                  {line.currency !== "USD" ? (
                    <span className="block text-xs text-stone-500">
                      {line.original} {line.currency}
                    </span>
                  ) : null}
                </td>
                <td className="px-3 py-1.5">
                  {line.matchedBy ? (MATCHED_BY[line.matchedBy] ?? line.matchedBy) : <span className="text-amber-800">suspense</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Line pages" className="flex gap-4 text-sm">
        {lines.fromLine > 0 ? (
          <Link to="?#lines" className="text-brand-800 underline">
            First lines
          </Link>
        ) : null}
        {lines.next !== null ? (
          <Link to={`?lines_from=${lines.next}#lines`} className="text-brand-800 underline">
            Next lines (from line {lines.next})
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

function MatchForm({ line, kind, options, error, label }: { line: number; kind: string; options: SalesImportData["options"]; error?: string; label?: string }) {
  const id = `match-${line}`;
  const errorId = `${id}-error`;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={label ?? `Match line ${line}`}>
      <input type="hidden" name="intent" value="match" />
      <input type="hidden" name="line" value={line} />
      {kind === "pro" ? (
        <div>
          <label htmlFor={id} className="block text-xs font-medium text-stone-700">
            Member (email or id)
          </label>
          <input
            id={id}
            name="member"
            type="text"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="mt-1 w-64 max-w-full rounded-md border border-stone-300 px-2 py-1.5 text-sm"
          />
        </div>
      ) : (
        <div className="min-w-0">
          <label htmlFor={id} className="block text-xs font-medium text-stone-700">
            Song or release
          </label>
          <select
            id={id}
            name="target"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="mt-1 w-72 max-w-full rounded-md border border-stone-300 px-2 py-1.5 text-sm"
          >
            <option value="">Choose…</option>
            <optgroup label="Songs">
              {options.songs.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
            <optgroup label="Releases (shared over their tracks)">
              {options.releases.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      )}
      <SubmitButton pendingLabel="Matching…">Match</SubmitButton>
      {error ? (
        <p id={errorId} role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </Form>
  );
}

const CODE_LABELS: Record<string, string> = { isrc: "ISRC", upc: "UPC", ipi: "IPI", title: "Title" };

/**
 * Every import's lines in suspense grouped by the code they would be matched by, biggest amount first: matching a
 * group moves every line of it (and teaches the code, so later statements match by themselves). The search finds
 * songs and releases by title, artist, ISRC or UPC for the pickers; it is a plain GET form (no JavaScript needed).
 */
export function SuspenseQueuePage({ loaderData }: { loaderData: SuspenseQueueData }) {
  const { find, page, pageSize, total, groups, options, codes, matches } = loaderData;
  const actionData = useActionData() as { lineId: number; error: string } | undefined;
  const hasDigital = groups.some((g) => g.kind !== "pro");
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Lines in suspense</h1>
        <p className="mt-1 text-sm text-stone-600">
          Every import's unmatched lines, grouped by their code, biggest amount first. Match a group and all its lines move out of suspense to their owners;
          statements that carry the code later are matched by themselves.{" "}
          <Link to="/admin/upload-sales" className="text-brand-800 underline">
            Upload sales
          </Link>
        </p>
      </header>
      <MatchProgressPanel matches={matches} />

      {hasDigital || find ? (
        <Form
          method="get"
          role="search"
          aria-label="Catalogue search"
          className="flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3"
        >
          <div className="min-w-0 grow sm:grow-0">
            <label htmlFor="find" className="block text-sm font-medium text-stone-800">
              Find a song or release
            </label>
            <input
              id="find"
              name="find"
              type="search"
              defaultValue={find}
              aria-describedby="find-help"
              className="mt-1 w-80 max-w-full rounded-md border border-stone-300 px-2 py-1.5 text-sm"
            />
            <p id="find-help" className="mt-1 text-xs text-stone-500">
              By title, artist, ISRC or UPC: the pickers below then offer what matches.
            </p>
          </div>
          <SubmitButton>Search</SubmitButton>
        </Form>
      ) : null}
      {find ? (
        <p className="text-sm text-stone-600" role="status">
          {options.songs.length + options.releases.length === 0
            ? `No song or release matches “${find}”.`
            : `${formatCount(options.songs.length)} songs and ${formatCount(options.releases.length)} releases match “${find}”.`}
        </p>
      ) : null}

      {groups.length === 0 ? (
        <p className="rounded-lg border border-stone-200 bg-white p-4 text-sm text-stone-600">Nothing is in suspense: every line of every import is matched.</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white" aria-label="Codes in suspense">
          {groups.map((group) => (
            <li key={`${group.kind}:${group.codeType}:${group.code}`} className="grid gap-3 p-3 text-sm lg:grid-cols-[1fr_auto] lg:items-center">
              <div className="min-w-0">
                <p className="font-medium break-words">
                  {CODE_LABELS[group.codeType] ?? group.codeType} <span className="font-mono">{group.code}</span>
                  {group.title ? <span className="text-stone-600"> · {group.title}</span> : null}
                  {group.artist ? <span className="text-stone-500"> · {group.artist}</span> : null}
                </p>
                <p className="text-xs text-stone-600">
                  {KIND_LABELS[group.kind]} · {formatCount(group.lines)} {group.lines === 1 ? "line" : "lines"} ·{" "}
                  <span className="font-medium tabular-nums">{dollars(group.amount)}</span> · from{" "}
                  {group.imports.map((id, i) => (
                    <span key={id}>
                      {i > 0 ? ", " : ""}
                      <Link to={`/admin/upload-sales/${id}`} className="text-brand-800 underline">
                        import #{id}
                      </Link>
                    </span>
                  ))}
                </p>
              </div>
              <MatchForm
                line={group.lineId}
                kind={group.kind}
                options={options}
                label={`Match ${CODE_LABELS[group.codeType] ?? group.codeType} ${group.code}`}
                error={actionData?.lineId === group.lineId ? actionData.error : undefined}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(total / pageSize))}
        pageSize={pageSize}
        total={total}
        noun={["code", "codes"]}
        label="Suspense queue pages"
      />

      <section aria-labelledby="codes-heading" className="space-y-3">
        <h2 id="codes-heading" className="text-lg font-semibold">
          Remembered codes
        </h2>
        <p className="text-sm text-stone-600">
          Codes learned from matches: later statements that carry one are matched by it. Forgetting a code changes nothing already posted; its next lines land
          in suspense again.
        </p>
        {codes.rows.length === 0 ? (
          <p className="text-sm text-stone-600">No code has been learned yet.</p>
        ) : (
          <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white" aria-label="Remembered codes">
            {codes.rows.map((code) => (
              <li key={code.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
                <span className="min-w-0 break-words">
                  <span className="font-medium">
                    {CODE_LABELS[code.keyType] ?? code.keyType} <span className="font-mono">{code.key}</span>
                  </span>{" "}
                  <span className="text-stone-600">
                    → {code.target} · {KIND_LABELS[code.kind]} · <DateTime iso={code.createdAt} />
                  </span>
                </span>
                <Form method="post" aria-label={`Forget ${CODE_LABELS[code.keyType] ?? code.keyType} ${code.key}`}>
                  <input type="hidden" name="intent" value="forget" />
                  <input type="hidden" name="alias" value={code.id} />
                  <SubmitButton
                    pendingLabel="Forgetting…"
                    className="rounded-md border border-stone-300 px-3 py-1.5 text-sm font-medium text-stone-800 hover:bg-stone-50"
                  >
                    Forget
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Pagination
          page={codes.page}
          pageCount={Math.max(1, Math.ceil(codes.total / codes.pageSize))}
          pageSize={codes.pageSize}
          total={codes.total}
          noun={["code", "codes"]}
          label="Remembered code pages"
          param="codes_page"
        />
      </section>
    </div>
  );
}
