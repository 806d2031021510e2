import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { AudioPlayer } from "~/components/audio-player";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { DateTime } from "~/components/formatting";
import {
  dangerButton,
  Field,
  FieldErrors,
  FormAlert,
  inputClass,
  secondaryButton,
  SelectField,
  SubmitButton,
  TextareaField,
  useFormResetKey,
} from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { TwoFactorRequired } from "~/components/two-factor-required";
import type { PostProductionService } from "~/db/schema";
import type { JobActionData, JobForm, JobRowView, JobView } from "./job-routes.server";
import { PP_SERVICE_LABELS, PP_SERVICE_STAGES, PP_STATUS_LABELS, PP_STATUS_TAG, ppStageLabel } from "./post-production-rules";

/**
 * The post-production pages' UI (decision 023): the lists (member, with the form that starts a job,
 * and admin) and the job page, whose forms depend on who looks (owner, engineer, administrator). Every form
 * is a plain <Form method="post"> (Conform), working without JavaScript; errors show beside their fields and
 * the values are kept.
 */

const SERVICES = Object.keys(PP_SERVICE_LABELS) as PostProductionService[];
const STATUS_OPTIONS = [{ value: "", label: "All statuses" }, ...Object.entries(PP_STATUS_LABELS).map(([value, label]) => ({ value, label }))];

/* ------------------------------------------------------------------ lists */

interface ListData {
  rows: JobRowView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function columns(show: "owner" | "engineer" | "both"): Array<DataColumn<JobRowView>> {
  return [
    {
      key: "job",
      header: "Job",
      rowHeader: true,
      cell: (r) => (
        <Link to={r.href} className="font-medium text-brand-800 underline">
          Job #{r.id}
        </Link>
      ),
    },
    { key: "song", header: "Song", cell: (r) => <span className="break-words">{r.songTitle}</span> },
    { key: "service", header: "Service", cell: (r) => r.service },
    ...(show !== "owner" ? [{ key: "owner", header: "Owner", cell: (r: JobRowView) => r.ownerName }] : []),
    ...(show !== "engineer" ? [{ key: "engineer", header: "Engineer", cell: (r: JobRowView) => <span className="break-all">{r.engineer}</span> }] : []),
    { key: "stage", header: "Stage", cell: (r) => r.stage },
    { key: "status", header: "Status", cell: (r) => <StatusTag status={PP_STATUS_TAG[r.status]} label={r.statusLabel} /> },
    { key: "created", header: "Created", cell: (r) => <DateTime iso={r.createdAt} /> },
  ];
}

type MemberListData = ListData & {
  memberId: number;
  query: { as: "owner" | "engineer"; status: string; page: number };
  songs: Array<{ id: number; label: string }> | null;
  preselectedSongId: number | null;
};

export function MemberJobsPage({ loaderData, actionData }: { loaderData: MemberListData; actionData?: JobActionData }) {
  const { query } = loaderData;
  const filtered = Boolean(query.status);
  const tab = (as: "owner" | "engineer", text: string) => (
    <Link
      to={as === "owner" ? "?" : "?as=engineer"}
      aria-current={query.as === as ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${query.as === as ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
    >
      {text}
    </Link>
  );
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Post Production Jobs</h1>
        <p className="mt-1 text-sm text-stone-600">Send your songs to an engineer for mixing and mastering, and accept their file as the song's new audio.</p>
      </div>
      {loaderData.songs ? (
        <CreateJob
          songs={loaderData.songs}
          preselected={loaderData.preselectedSongId}
          lastResult={actionData?.form === "create" ? actionData.result : undefined}
        />
      ) : null}
      <nav aria-label="Your role" className="flex gap-2">
        {tab("owner", "My songs")}
        {tab("engineer", "As engineer")}
      </nav>
      <FilterForm label="Filter post-production jobs" clear={filtered}>
        {query.as === "engineer" ? <input type="hidden" name="as" value="engineer" /> : null}
        <div className="min-w-48">
          <SelectField label="Status" selectProps={{ id: "jobs-status", name: "status", defaultValue: query.status }} options={STATUS_OPTIONS} />
        </div>
      </FilterForm>
      <DataTable
        caption={query.as === "owner" ? "Jobs for my songs" : "Jobs as engineer"}
        columns={columns(query.as === "owner" ? "owner" : "engineer")}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={filtered}
            noMatch="No jobs match this status."
            noMatchHint="Try another status"
            empty={query.as === "owner" ? "You have not sent a song to post-production yet." : "Nobody has asked you for post-production yet."}
            emptyHint={query.as === "owner" ? "Start a job with the form above." : "Members name you by your email address."}
          />
        }
      />
      <Pagination page={loaderData.page} pageCount={loaderData.pageCount} total={loaderData.total} pageSize={loaderData.pageSize} noun={["job", "jobs"]} />
    </div>
  );
}

function CreateJob({
  songs,
  preselected,
  lastResult,
}: {
  songs: Array<{ id: number; label: string }>;
  preselected: number | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm<{ songId: string; service: string; engineerEmail: string; amount: string; notes: string }>({
    id: "create-job",
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { songId: preselected ? String(preselected) : "", service: "mixing_and_mastering" },
  });
  return (
    <section aria-labelledby="create-job-heading" className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="create-job-heading" className="text-lg font-semibold">
        Start a job
      </h2>
      {songs.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">Add a song to one of your artist pages first: a job is for one of your songs.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-3 grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <FormAlert id={form.errorId} errors={form.errors} />
          </div>
          <SelectField
            label="Song"
            selectProps={getSelectProps(fields.songId)}
            options={[{ value: "", label: "Choose a song" }, ...songs.map((s) => ({ value: String(s.id), label: s.label }))]}
            errors={fields.songId.errors}
            errorId={fields.songId.errorId}
          />
          <SelectField
            label="Service"
            selectProps={getSelectProps(fields.service)}
            options={SERVICES.map((s) => ({ value: s, label: PP_SERVICE_LABELS[s] }))}
            errors={fields.service.errors}
            errorId={fields.service.errorId}
          />
          <Field
            label="Engineer's email"
            inputProps={{ ...getInputProps(fields.engineerEmail, { type: "email" }), autoComplete: "off", maxLength: 254 }}
            errors={fields.engineerEmail.errors}
            errorId={fields.engineerEmail.errorId}
            help="A member is asked in the app; any other address gets an email invitation to create an account."
          />
          <Field
            label="Price (USD)"
            inputProps={{ ...getInputProps(fields.amount, { type: "text" }), inputMode: "decimal", placeholder: "150.00", autoComplete: "off", maxLength: 20 }}
            errors={fields.amount.errors}
            errorId={fields.amount.errorId}
            help="What you pay the engineer, held in escrow once they accept and released when you accept their file. The platform fee comes out of it."
          />
          <div className="sm:col-span-2">
            <TextareaField
              label="Notes for the engineer"
              textareaProps={{ ...getTextareaProps(fields.notes), rows: 3, maxLength: 2000 }}
              errors={fields.notes.errors}
              errorId={fields.notes.errorId}
              help="References, loudness target, stems: optional."
            />
          </div>
          <div className="flex justify-end sm:col-span-2 sm:[&>*]:w-auto">
            <SubmitButton pendingLabel="Creating…">Create job</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}

export function AdminJobsPage({ loaderData }: { loaderData: ListData & { query: { status: string; service: string; q: string; page: number } } }) {
  const { query } = loaderData;
  const filtered = Boolean(query.status || query.service || query.q);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Post Production Jobs</h1>
        <p className="mt-1 text-sm text-stone-600">Every member's mixing and mastering jobs.</p>
      </div>
      <FilterForm label="Filter post-production jobs" clear={filtered}>
        <div className="min-w-56 flex-1">
          <label htmlFor="jobs-q" className="block text-sm font-medium text-stone-800">
            Song, owner, engineer or job number
          </label>
          <input id="jobs-q" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
        </div>
        <div className="min-w-40">
          <SelectField label="Status" selectProps={{ id: "jobs-status", name: "status", defaultValue: query.status }} options={STATUS_OPTIONS} />
        </div>
        <div className="min-w-40">
          <SelectField
            label="Service"
            selectProps={{ id: "jobs-service", name: "service", defaultValue: query.service }}
            options={[{ value: "", label: "All services" }, ...SERVICES.map((s) => ({ value: s, label: PP_SERVICE_LABELS[s] }))]}
          />
        </div>
      </FilterForm>
      <DataTable
        caption="Post-production jobs"
        columns={columns("both")}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={filtered}
            noMatch="No jobs match these filters."
            noMatchHint="Try another search, status or service"
            empty="No post-production jobs yet."
            emptyHint="Members start them from their songs."
          />
        }
      />
      <Pagination page={loaderData.page} pageCount={loaderData.pageCount} total={loaderData.total} pageSize={loaderData.pageSize} noun={["job", "jobs"]} />
    </div>
  );
}

/* ------------------------------------------------------------------ the job page */

const lastResultFor = (actionData: JobActionData | undefined, form: JobForm) => (actionData?.form === form ? actionData.result : undefined);

function Card({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function OneButtonForm({
  intent,
  label,
  pending,
  lastResult,
  className,
}: {
  intent: string;
  label: string;
  pending: string;
  lastResult?: SubmissionResult<string[]>;
  className?: string;
}) {
  const [form] = useForm({ id: `job-${intent}`, lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="sm:[&>*]:w-auto">
        <SubmitButton name="intent" value={intent} pendingLabel={pending} className={className}>
          {label}
        </SubmitButton>
      </div>
    </Form>
  );
}

function TextForm(props: {
  intent: string;
  field: "reason" | "note";
  label: string;
  button: string;
  pending: string;
  lastResult?: SubmissionResult<string[]>;
  help?: string;
  danger?: boolean;
  max: number;
}) {
  const [form, fields] = useForm({ id: `job-${props.intent}`, lastResult: props.lastResult, shouldValidate: "onSubmit" });
  const f = fields[props.field];
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label={props.label}
        textareaProps={{ ...getTextareaProps(f), rows: 2, maxLength: props.max }}
        errors={f.errors}
        errorId={f.errorId}
        help={props.help}
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value={props.intent} pendingLabel={props.pending} className={props.danger ? dangerButton : undefined}>
          {props.button}
        </SubmitButton>
      </div>
    </Form>
  );
}

function UploadForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  // A fresh form (empty file input) after each successful upload only: another action's `done`, or the
  // upload's own error answer (whose URL has none), keeps the same form, so its error shows.
  const resetKey = useFormResetKey("upload");
  const [form, fields] = useForm({ id: `job-${resetKey}`, lastResult });
  return (
    <Form method="post" action="?upload=delivery" encType="multipart/form-data" {...getFormProps(form)} className="space-y-3" key={resetKey}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <div>
        <label htmlFor="delivery-file" className="block text-sm font-medium text-stone-800">
          Mixed or mastered file
        </label>
        <input
          id="delivery-file"
          type="file"
          name="file"
          accept=".wav,.flac,audio/wav,audio/x-wav,audio/flac"
          aria-invalid={fields.file.errors?.length ? true : undefined}
          aria-describedby={fields.file.errors?.length ? `${fields.file.errorId} delivery-file-help` : "delivery-file-help"}
          className="mt-1 block w-full text-sm"
        />
        <p id="delivery-file-help" className="mt-1 text-xs text-stone-500">
          WAV (PCM) or FLAC, at least 16-bit / 44.1 kHz, up to 250 MB: it becomes the song's audio when the owner accepts it.
        </p>
        <FieldErrors id={fields.file.errorId} errors={fields.file.errors} />
      </div>
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton pendingLabel="Uploading…">Upload file</SubmitButton>
      </div>
    </Form>
  );
}

function Stages({ view }: { view: JobView }) {
  const stages = PP_SERVICE_STAGES[view.job.serviceKey as PostProductionService];
  const at = view.job.stage ? stages.indexOf(view.job.stage as (typeof stages)[number]) : -1;
  const done = view.job.status === "completed";
  return (
    <ol aria-label="Stages" className="flex flex-wrap gap-2 text-sm">
      {[...stages, "completed" as const].map((s, i) => {
        const current = done ? s === "completed" : i === at;
        const past = done ? s !== "completed" : at >= 0 && i < at;
        return (
          <li
            key={s}
            aria-current={current ? "step" : undefined}
            className={`rounded-full px-3 py-1 ring-1 ring-inset ${current ? "bg-brand-900 text-white ring-brand-900" : past ? "bg-green-50 text-green-900 ring-green-200" : "text-stone-600 ring-stone-200"}`}
          >
            {ppStageLabel(s)}
          </li>
        );
      })}
    </ol>
  );
}

function shownForms(view: JobView): Record<JobForm, boolean> {
  const can = view.can;
  return {
    create: false,
    checkout: can.payByCard,
    balance: can.payFromBalance,
    fund: can.fund,
    accept: can.accept,
    decline: can.decline,
    advance: can.advance,
    upload: can.upload,
    "accept-audio": can.acceptAudio,
    revision: can.revise,
    cancel: can.cancel || can.adminCancel,
  };
}

export function JobPage({
  loaderData: view,
  actionData,
}: {
  loaderData: JobView & { twoFactorOn?: boolean; accountPath?: string };
  actionData?: JobActionData;
}) {
  const j = view.job;
  const can = view.can;
  const m = view.money;
  const rows: Array<[string, ReactNode]> = [
    [
      "Song",
      view.song.href ? (
        <Link key="song" to={view.song.href} className="text-brand-800 underline">
          {view.song.title}
        </Link>
      ) : (
        view.song.title
      ),
    ],
    ["Artist", view.song.artistName],
    ["Service", j.service],
    ["Owner", view.owner.name],
    ["Engineer", view.engineer.name ?? (view.engineer.email ? `${view.engineer.email} (invited, no account yet)` : "—")],
    ["Status", j.statusLabel],
    ["Stage", j.stageLabel],
    ["Revisions requested", String(j.revisions)],
  ];
  if (m) {
    rows.push(["Price", m.amount], [`Platform fee (${m.feePercent}%)`, m.fee], ["The engineer receives", m.engineerReceives], ["Funding", m.fundingLabel]);
    if (m.paidBy) rows.push(["Paid by", m.paidBy]);
    if (m.settlement) rows.push(["Settled", `${m.settlement.released} released, ${m.settlement.fee} fee, ${m.settlement.refunded} refunded`]);
  }
  if (j.cancelReason) rows.push([j.status === "declined" ? "Declined because" : "Canceled because", j.cancelReason]);
  if (j.previousAudio)
    rows.push([
      "Previous audio",
      j.previousAudio.had ? `${(j.previousAudio.format ?? "").toUpperCase()}, kept on this job's record` : "The song had no audio before",
    ]);
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to={view.listPath} className="text-brand-800 underline">
              Post Production Jobs
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">Job #{j.id}</h1>
          <p className="mt-1 text-sm text-stone-600">
            {j.service} of “{view.song.title}” · created <DateTime iso={j.createdAt} />
          </p>
        </div>
        <StatusTag status={PP_STATUS_TAG[j.status]} label={j.statusLabel} />
      </header>

      {/* A form sent from a page that is out of date (the job moved on): its answer shows here. */}
      {actionData && !shownForms(view)[actionData.form] ? <FormAlert errors={actionData.result.error?.[""]} /> : null}

      {view.area === "admin" && view.twoFactorOn === false && (can.fund || m?.fundingStatus === "funded") ? (
        <TwoFactorRequired message="Moving escrow needs two-factor authentication on your account." accountPath={view.accountPath ?? "/"} />
      ) : null}

      {view.area === "member" && view.role === "admin" ? (
        <p className="text-sm text-stone-700">
          You see this job as an administrator.{" "}
          <Link to={view.adminPath} className="font-medium text-brand-800 underline">
            Open it in the admin area
          </Link>
          .
        </p>
      ) : null}

      <Card title="Summary" id="summary">
        <dl aria-label="Job summary" className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-stone-600">{label}</dt>
              <dd className="break-words text-stone-900">{value}</dd>
            </div>
          ))}
        </dl>
        <Stages view={view} />
        {j.notes ? (
          <div>
            <h3 className="text-sm font-medium text-stone-600">Notes</h3>
            <p className="text-sm whitespace-pre-wrap text-stone-900">{j.notes}</p>
          </div>
        ) : null}
        {view.song.sourceHref ? (
          <div className="space-y-1 text-sm">
            <h3 className="font-medium text-stone-600">The song&rsquo;s current audio</h3>
            <AudioPlayer src={view.song.sourceHref} label={`Listen to the current audio of ${view.song.title}`} />
            {view.role !== "owner" ? (
              <p>
                <a href={view.song.sourceHref} className="font-medium text-brand-800 underline">
                  Download the song's current audio
                </a>
              </p>
            ) : null}
          </div>
        ) : null}
      </Card>

      {j.revisionNote ? (
        <div role="note" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <span className="font-semibold">Revision requested:</span> <span className="whitespace-pre-wrap">{j.revisionNote}</span>
        </div>
      ) : null}

      {can.accept ? (
        <Card title="Answer the job" id="answer">
          <p className="text-sm text-stone-700">{view.owner.name} asks you for this job. Accept it to start, or decline it.</p>
          <OneButtonForm intent="accept" label="Accept the job" pending="Accepting…" lastResult={lastResultFor(actionData, "accept")} />
          {can.decline ? (
            <TextForm
              intent="decline"
              field="reason"
              label="Why decline? (optional)"
              button="Decline the job"
              pending="Declining…"
              max={500}
              lastResult={lastResultFor(actionData, "decline")}
              danger
            />
          ) : null}
        </Card>
      ) : null}

      {can.advance || can.upload ? (
        <Card title="Your work" id="work">
          {can.advance ? (
            <div className="space-y-1">
              <p className="text-sm text-stone-700">
                Stage: {j.stageLabel}. Next: {j.nextStageLabel}.
              </p>
              <OneButtonForm
                intent="advance"
                label={`Move to ${j.nextStageLabel}`}
                pending="Moving…"
                lastResult={lastResultFor(actionData, "advance")}
                className={secondaryButton}
              />
            </div>
          ) : null}
          {can.upload ? <UploadForm lastResult={lastResultFor(actionData, "upload")} /> : null}
        </Card>
      ) : null}

      {view.role === "owner" && m && j.status === "awaiting_funding" ? <JobFunding view={view} actionData={actionData} /> : null}

      {can.fund && m ? (
        <Card title="Confirm funding" id="confirm-funding">
          <p className="text-sm text-stone-700">
            Confirm only once {m.amount} from the owner has arrived (reference {m.transferReference}). It is then held in escrow.
          </p>
          <FundForm lastResult={lastResultFor(actionData, "fund")} />
        </Card>
      ) : null}

      {view.role === "engineer" && j.status === "awaiting_funding" ? (
        <p className="rounded-md bg-stone-50 px-4 py-3 text-sm text-stone-700">
          The owner has not funded this job yet: start the work once it is funded (you are notified).
        </p>
      ) : null}

      {view.role === "owner" && j.status === "pending" ? (
        <p className="rounded-md bg-stone-50 px-4 py-3 text-sm text-stone-700">
          {j.bound
            ? "Waiting for the engineer to accept the job."
            : `An invitation was sent to ${view.engineer.email}: the job waits for them to create an account and accept it.`}
        </p>
      ) : null}

      {can.acceptAudio ? (
        <Card title="Review the delivery" id="review">
          <p className="text-sm text-stone-700">
            Listen to the newest file below. Accepting makes it the song's audio and completes the job; the song's current audio stays on this job's record.
          </p>
          <OneButtonForm intent="accept-audio" label="Accept as the song's audio" pending="Accepting…" lastResult={lastResultFor(actionData, "accept-audio")} />
          {can.revise ? (
            <TextForm
              intent="revision"
              field="note"
              label="What should change?"
              button="Request a revision"
              pending="Sending…"
              max={2000}
              lastResult={lastResultFor(actionData, "revision")}
            />
          ) : null}
        </Card>
      ) : null}

      <Card title="Deliveries" id="deliveries">
        {view.deliveries.length === 0 ? (
          <p className="text-sm text-stone-600">Nothing delivered yet.</p>
        ) : (
          <ul aria-label="Deliveries" className="divide-y divide-stone-100 text-sm">
            {view.deliveries.map((d) => (
              <li key={d.id} className="space-y-1 py-2">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <a href={d.href} download={d.fileName} className="font-medium break-all text-brand-800 underline">
                    {d.fileName}
                  </a>
                  {d.accepted ? <StatusTag status="approved" label="Accepted as the song's audio" /> : null}
                </div>
                <p className="text-stone-600">
                  {d.audio} · {d.round === 0 ? "First delivery" : `After revision ${d.round}`} · <DateTime iso={d.createdAt} withTime />
                </p>
                {/* Deliveries are WAV or FLAC, checked at upload: every one plays. */}
                <AudioPlayer src={d.href} label={`Listen to ${d.fileName}`} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      {can.cancel || can.adminCancel ? (
        <Card title="Cancel the job" id="cancel">
          <p className="text-sm text-stone-700">
            {view.area === "member"
              ? "Either of you can cancel until a file is delivered; after that, only an administrator."
              : "Both parties are told, with your reason."}
          </p>
          <TextForm
            intent="cancel"
            field="reason"
            label="Why cancel?"
            button="Cancel the job"
            pending="Canceling…"
            max={500}
            lastResult={lastResultFor(actionData, "cancel")}
            danger
          />
        </Card>
      ) : null}
    </div>
  );
}

function JobFunding({ view, actionData }: { view: JobView; actionData?: JobActionData }) {
  const m = view.money!;
  const balance = view.balance;
  return (
    <Card title="Fund the job" id="fund">
      <p className="text-sm text-stone-700">
        {view.engineer.name ?? "The engineer"} accepted the job. The work starts once <strong>{m.amount}</strong> is held in escrow; it is released to them only
        when you accept a delivery as the song&rsquo;s audio, and comes back to you if the job is canceled before that.
      </p>
      {balance ? (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <h3 className="text-sm font-semibold text-stone-900">From your Backline balance</h3>
          <p className="text-sm text-stone-700">
            Available: <strong className="tabular-nums">{balance.available}</strong>.{" "}
            {balance.covers
              ? "You will be asked for your password if you have not confirmed it in the last 10 minutes."
              : `Not enough to pay ${m.amount}: pay another way, or when more income arrives.`}
          </p>
          <BalanceForm label={`Pay ${m.amount} from my balance`} lastResult={lastResultFor(actionData, "balance")} noButton={!view.can.payFromBalance} />
        </div>
      ) : null}
      {view.can.payByCard ? (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <h3 className="text-sm font-semibold text-stone-900">By card</h3>
          <p className="text-sm text-stone-700">Pay on Stripe&rsquo;s secure page; the job is funded as soon as Stripe confirms the payment.</p>
          <OneButtonForm intent="checkout" label={`Pay ${m.amount} by card`} pending="Opening Stripe…" lastResult={lastResultFor(actionData, "checkout")} />
        </div>
      ) : null}
      <div className="space-y-1 rounded-lg border border-stone-200 p-4">
        <h3 className="text-sm font-semibold text-stone-900">By bank transfer</h3>
        <p className="text-sm text-stone-700">
          Send <strong>{m.amount}</strong> with the reference <strong className="font-mono">{m.transferReference}</strong>. The platform confirms your payment
          when it arrives (usually within a few working days).
        </p>
      </div>
    </Card>
  );
}

/** The pay-from-balance button; without it (the balance is short) the form stays only to show a refusal. */
function BalanceForm({ label, lastResult, noButton }: { label: string; lastResult?: SubmissionResult<string[]>; noButton: boolean }) {
  const [form] = useForm({ id: "job-balance", lastResult });
  if (noButton && !form.errors?.length) return null;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <FormAlert id={form.errorId} errors={form.errors} />
      {noButton ? null : (
        <div className="sm:[&>*]:w-auto">
          <SubmitButton name="intent" value="balance" pendingLabel="Paying…">
            {label}
          </SubmitButton>
        </div>
      )}
    </Form>
  );
}

function FundForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({ id: "job-fund", lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Payment reference"
        inputProps={{ ...getInputProps(fields.reference, { type: "text" }), maxLength: 120, autoComplete: "off" }}
        errors={fields.reference.errors}
        errorId={fields.reference.errorId}
        help="What the bank statement shows for the owner's payment."
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="fund" pendingLabel="Confirming…">
          Confirm funding
        </SubmitButton>
      </div>
    </Form>
  );
}
