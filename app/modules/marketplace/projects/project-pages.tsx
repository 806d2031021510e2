import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { AudioPlayer, isPlayableAudio } from "~/components/audio-player";
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
import type { MarketplaceService } from "~/db/schema";
import { SERVICE_LABELS, SERVICE_STAGES } from "../marketplace-rules";
import { MessageThread } from "../messages/message-thread";
import type { ProjectActionData, ProjectForm, ProjectRowView, ProjectView } from "./project-routes.server";

/**
 * The project pages' UI: the lists (member and admin) and the project page, whose forms depend on
 * who looks (client, provider, administrator). Every form is a plain <Form method="post"> (Conform), working
 * without JavaScript; errors show beside their fields and the values are kept.
 */

const STATUS_TEXT: Record<string, string> = {
  awaiting_funding: "Awaiting funding",
  in_progress: "In progress",
  awaiting_approval: "Awaiting approval",
  revision_requested: "Revision requested",
  completed: "Completed",
  canceled: "Canceled",
};
// The lists' filter options, from the shared rules (the schema module stays on the server).
const SERVICES = Object.keys(SERVICE_LABELS) as MarketplaceService[];
const STAGES = [...new Set([...Object.values(SERVICE_STAGES).flat(), "completed"])];
const STATUS_TAG: Record<string, string> = {
  awaiting_funding: "pending",
  in_progress: "pending",
  awaiting_approval: "pending",
  revision_requested: "pending",
  completed: "approved",
  canceled: "rejected",
};
const stageText = (stage: string) => {
  const text = stage.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/* ------------------------------------------------------------------ lists */

interface ListData {
  rows: ProjectRowView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function columns(show: "client" | "provider" | "both"): Array<DataColumn<ProjectRowView>> {
  return [
    {
      key: "project",
      header: "Project",
      rowHeader: true,
      cell: (r) => (
        <Link to={r.href} className="font-medium text-brand-800 underline">
          Project #{r.id}
        </Link>
      ),
    },
    { key: "service", header: "Service", cell: (r) => r.service },
    ...(show !== "provider" ? [{ key: "provider", header: "Provider", cell: (r: ProjectRowView) => r.providerName }] : []),
    ...(show !== "client" ? [{ key: "client", header: "Client", cell: (r: ProjectRowView) => r.clientName }] : []),
    { key: "stage", header: "Stage", cell: (r) => r.stage },
    { key: "status", header: "Status", cell: (r) => <StatusTag status={STATUS_TAG[r.status] ?? "pending"} label={r.statusLabel} /> },
    { key: "funding", header: "Funding", cell: (r) => r.funding },
    { key: "amount", header: "Amount", align: "right", cell: (r) => <span className="tabular-nums">{r.amount}</span> },
    { key: "created", header: "Opened", cell: (r) => <DateTime iso={r.createdAt} /> },
  ];
}

/** A filter's select: the shared SelectField, options given as [value, label] pairs. */
function Select({ id, name, label, value, options }: { id: string; name: string; label: string; value: string; options: Array<[string, string]> }) {
  return (
    <div className="min-w-40">
      <SelectField label={label} selectProps={{ id, name, defaultValue: value }} options={options.map(([v, l]) => ({ value: v, label: l }))} />
    </div>
  );
}

const STATUS_OPTIONS: Array<[string, string]> = [["", "All statuses"], ...Object.keys(STATUS_TEXT).map((s): [string, string] => [s, STATUS_TEXT[s] ?? s])];

export function MemberProjectsPage({
  loaderData,
}: {
  loaderData: ListData & { memberId: number; query: { as: "client" | "provider"; status: string; stage: string; page: number } };
}) {
  const { query } = loaderData;
  const filtered = Boolean(query.status || query.stage);
  const tab = (as: "client" | "provider", text: string) => (
    <Link
      to={as === "client" ? "?" : "?as=provider"}
      aria-current={query.as === as ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${query.as === as ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
    >
      {text}
    </Link>
  );
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="mt-1 text-sm text-stone-600">
          Work you hired providers for, and work you do for clients. A project opens when a client accepts an estimate.
        </p>
      </div>
      <nav aria-label="Your role" className="flex gap-2">
        {tab("client", "As client")}
        {tab("provider", "As provider")}
      </nav>
      <FilterForm label="Filter projects" clear={filtered}>
        {query.as === "provider" ? <input type="hidden" name="as" value="provider" /> : null}
        <Select id="projects-status" name="status" label="Status" value={query.status} options={STATUS_OPTIONS} />
        <Select
          id="projects-stage"
          name="stage"
          label="Stage"
          value={query.stage}
          options={[["", "All stages"], ...STAGES.map((s): [string, string] => [s, stageText(s)])]}
        />
      </FilterForm>
      <DataTable
        caption={query.as === "client" ? "Projects as client" : "Projects as provider"}
        columns={columns(query.as === "client" ? "client" : "provider")}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={filtered}
            noMatch="No projects match these filters."
            noMatchHint="Try another status or stage"
            empty={query.as === "client" ? "You have not hired anyone yet." : "No client has hired you yet."}
            emptyHint={query.as === "client" ? "Ask a provider for an estimate from their profile page." : "Clients find you through your provider profiles."}
          />
        }
      />
      <Pagination
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        total={loaderData.total}
        pageSize={loaderData.pageSize}
        noun={["project", "projects"]}
      />
    </div>
  );
}

export function AdminProjectsPage({ loaderData }: { loaderData: ListData & { query: { status: string; service: string; q: string; page: number } } }) {
  const { query } = loaderData;
  const filtered = Boolean(query.status || query.service || query.q);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="mt-1 text-sm text-stone-600">Every project: confirm funding, and resolve disputes.</p>
      </div>
      <FilterForm label="Filter projects" clear={filtered}>
        <div className="min-w-56 flex-1">
          <label htmlFor="projects-q" className="block text-sm font-medium text-stone-800">
            Client, provider or project number
          </label>
          <input id="projects-q" type="search" name="q" defaultValue={query.q} maxLength={100} className={inputClass} />
        </div>
        <Select id="projects-status" name="status" label="Status" value={query.status} options={STATUS_OPTIONS} />
        <Select
          id="projects-service"
          name="service"
          label="Service"
          value={query.service}
          options={[["", "All services"], ...SERVICES.map((s): [string, string] => [s, SERVICE_LABELS[s]])]}
        />
      </FilterForm>
      <DataTable
        caption="Projects"
        columns={columns("both")}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={loaderData.total}
            pageCount={loaderData.pageCount}
            filtered={filtered}
            noMatch="No projects match these filters."
            noMatchHint="Try another search, status or service"
            empty="No projects yet."
            emptyHint="A project opens when a client accepts an estimate."
          />
        }
      />
      <Pagination
        page={loaderData.page}
        pageCount={loaderData.pageCount}
        total={loaderData.total}
        pageSize={loaderData.pageSize}
        noun={["project", "projects"]}
      />
    </div>
  );
}

/* ------------------------------------------------------------------ the project page */

type AdminExtras = { twoFactorOn?: boolean; accountPath?: string };

const lastResultFor = (actionData: ProjectActionData | undefined, form: ProjectForm) => (actionData?.form === form ? actionData.result : undefined);

function Card({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z]+/g, "-")}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function Summary({ view }: { view: ProjectView }) {
  const p = view.project;
  const rows: Array<[string, ReactNode]> = [
    ["Service", p.service],
    [
      "Work request",
      <Link key="request" to={view.workRequestPath} className="text-brand-800 underline">
        #{p.workRequestId}
      </Link>,
    ],
    ["Client", view.client.name],
    ["Provider", view.provider.name],
    ["Amount", p.amount],
    [`Platform fee (${p.feePercent}%)`, p.fee],
    ["The provider receives", p.providerReceives],
    ["Stage", p.stage],
    ["Status", p.statusLabel],
    ["Funding", p.fundingLabel],
    ...(p.paidBy ? ([["Paid by", p.paidBy]] as Array<[string, ReactNode]>) : []),
    ["Revisions", `${p.revisionsUsed} of ${p.revisionsIncluded} used`],
  ];
  if (p.pointsPercent) rows.push(["Points", `${p.pointsPercent}% of the song's master royalties (a split proposal on completion)`]);
  if (p.dueAt) rows.push(["Due", <DateTime key="due" iso={p.dueAt} />]);
  if (p.settlement) rows.push(["Settled", `${p.settlement.released} released, ${p.settlement.fee} fee, ${p.settlement.refunded} refunded`]);
  if (p.resolution) rows.push(["Resolution", p.resolution]);
  return (
    <Card title="Summary">
      <dl aria-label="Project summary" className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-stone-600">{label}</dt>
            <dd className="text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Funding({ view, actionData }: { view: ProjectView; actionData?: ProjectActionData }) {
  const p = view.project;
  if (view.role !== "client" || p.fundingStatus !== "unfunded" || p.status !== "awaiting_funding") return null;
  const balance = view.balance;
  return (
    <Card title="Fund the project" id="fund">
      <p className="text-sm text-stone-700">
        The work starts once <strong>{p.amount}</strong> is held in escrow. It is released to the provider only when you approve the delivery; if the project is
        canceled before that, it comes back to you.
      </p>
      {balance ? (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <h3 className="text-sm font-semibold text-stone-900">From your Backline balance</h3>
          <p className="text-sm text-stone-700">
            Available: <strong className="tabular-nums">{balance.available}</strong>.{" "}
            {balance.covers
              ? "You will be asked for your password if you have not confirmed it in the last 10 minutes."
              : `Not enough to pay ${p.amount}: pay another way, or when more income arrives.`}
          </p>
          {/* The form stays without its button when the balance is short, to show a refusal (the balance moved since the page loaded). */}
          <OneButtonForm
            intent="balance"
            label={`Pay ${p.amount} from my balance`}
            pending="Paying…"
            lastResult={lastResultFor(actionData, "balance")}
            noButton={!view.can.payFromBalance}
          />
        </div>
      ) : null}
      {view.can.payByCard ? (
        <div className="space-y-2 rounded-lg border border-stone-200 p-4">
          <h3 className="text-sm font-semibold text-stone-900">By card</h3>
          <p className="text-sm text-stone-700">Pay on Stripe&rsquo;s secure page; the project is funded as soon as Stripe confirms the payment.</p>
          <OneButtonForm intent="checkout" label={`Pay ${p.amount} by card`} pending="Opening Stripe…" lastResult={lastResultFor(actionData, "checkout")} />
        </div>
      ) : null}
      <div className="space-y-1 rounded-lg border border-stone-200 p-4">
        <h3 className="text-sm font-semibold text-stone-900">By bank transfer</h3>
        <p className="text-sm text-stone-700">
          Send <strong>{p.amount}</strong> with the reference <strong className="font-mono">BACKLINE-PROJECT-{p.id}</strong>. The platform confirms your payment
          when it arrives (usually within a few working days).
        </p>
      </div>
    </Card>
  );
}

function OneButtonForm({
  intent,
  label,
  pending,
  lastResult,
  className,
  noButton,
}: {
  intent: string;
  label: string;
  pending: string;
  lastResult?: SubmissionResult<string[]>;
  className?: string;
  noButton?: boolean;
}) {
  const [form] = useForm({ id: `project-${intent}`, lastResult });
  if (noButton && !form.errors?.length) return null;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <FormAlert id={form.errorId} errors={form.errors} />
      {noButton ? null : (
        <div className="sm:[&>*]:w-auto">
          <SubmitButton name="intent" value={intent} pendingLabel={pending} className={className}>
            {label}
          </SubmitButton>
        </div>
      )}
    </Form>
  );
}

function ReasonForm({
  intent,
  label,
  button,
  pending,
  lastResult,
  field = "reason",
  help,
  danger,
}: {
  intent: string;
  label: string;
  button: string;
  pending: string;
  lastResult?: SubmissionResult<string[]>;
  field?: string;
  help?: string;
  danger?: boolean;
}) {
  const [form, fields] = useForm({ id: `project-${intent}`, lastResult, shouldValidate: "onSubmit" });
  const f = fields[field]!;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextareaField
        label={label}
        textareaProps={{ ...getTextareaProps(f), rows: 2, maxLength: field === "note" ? 2000 : 500 }}
        errors={f.errors}
        errorId={f.errorId}
        help={help}
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value={intent} pendingLabel={pending} className={danger ? dangerButton : undefined}>
          {button}
        </SubmitButton>
      </div>
    </Form>
  );
}

function UploadForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  // Only this form's own success empties it: an error reply moves the URL to ?upload=deliverable.
  const resetKey = useFormResetKey("upload");
  const [form, fields] = useForm({ id: `project-${resetKey}`, lastResult });
  return (
    <Form method="post" action="?upload=deliverable" encType="multipart/form-data" {...getFormProps(form)} className="space-y-3" key={resetKey}>
      <FormAlert id={form.errorId} errors={form.errors} />
      <div>
        <label htmlFor="deliverable-file" className="block text-sm font-medium text-stone-800">
          Deliverable file
        </label>
        <input
          id="deliverable-file"
          type="file"
          name="file"
          accept=".wav,.flac,.aif,.aiff,.mp3,.m4a,.aac,.ogg,.zip,audio/*,application/zip"
          aria-invalid={fields.file.errors?.length ? true : undefined}
          aria-describedby={fields.file.errors?.length ? `${fields.file.errorId} deliverable-file-help` : "deliverable-file-help"}
          className="mt-1 block w-full text-sm"
        />
        <p id="deliverable-file-help" className="mt-1 text-xs text-stone-500">
          Audio (WAV, FLAC, AIFF, MP3, AAC, Ogg) or a zip of it, up to 500 MB.
        </p>
        <FieldErrors id={fields.file.errorId} errors={fields.file.errors} />
      </div>
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton pendingLabel="Uploading…">Upload deliverable</SubmitButton>
      </div>
    </Form>
  );
}

function ReviewForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({ id: "project-review", lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Rating (1 to 5)"
        inputProps={{ ...getInputProps(fields.rating, { type: "number" }), min: 1, max: 5, step: 1, inputMode: "numeric" }}
        errors={fields.rating.errors}
        errorId={fields.rating.errorId}
      />
      <TextareaField
        label="Your review"
        textareaProps={{ ...getTextareaProps(fields.body), rows: 4, maxLength: 5000 }}
        errors={fields.body.errors}
        errorId={fields.body.errorId}
        help="Shown on the provider's profile as a verified review."
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="review" pendingLabel="Publishing…">
          Publish review
        </SubmitButton>
      </div>
    </Form>
  );
}

function ResolveForm({ lastResult, amount }: { lastResult?: SubmissionResult<string[]>; amount: string }) {
  const [form, fields] = useForm<{ outcome: string; releaseAmount: string; reason: string }>({
    id: "project-resolve",
    lastResult,
    shouldValidate: "onSubmit",
    defaultValue: { outcome: "split" },
  });
  const [outcome, setOutcome] = useState<string | null>(null);
  const shown = outcome ?? (fields.outcome.value as string | undefined) ?? "split";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <SelectField
        label="Outcome"
        selectProps={{ ...getSelectProps(fields.outcome), onChange: (e) => setOutcome(e.currentTarget.value) }}
        options={[
          { value: "split", label: "Split: part to the provider, the rest refunded" },
          { value: "release", label: `Release all ${amount} to the provider (less the fee)` },
          { value: "refund", label: `Refund all ${amount} to the client` },
        ]}
        errors={fields.outcome.errors}
        errorId={fields.outcome.errorId}
      />
      {shown === "split" ? (
        <Field
          label="To the provider (USD, before the fee)"
          inputProps={{ ...getInputProps(fields.releaseAmount, { type: "text" }), inputMode: "decimal", placeholder: "50.00", autoComplete: "off" }}
          errors={fields.releaseAmount.errors}
          errorId={fields.releaseAmount.errorId}
          help={`Dollars and cents, more than $0.00 and less than ${amount}.`}
        />
      ) : null}
      <TextareaField
        label="Reason"
        textareaProps={{ ...getTextareaProps(fields.reason), rows: 2, maxLength: 500 }}
        errors={fields.reason.errors}
        errorId={fields.reason.errorId}
        help="Recorded with the resolution and sent to both parties."
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="resolve" pendingLabel="Resolving…">
          Resolve
        </SubmitButton>
      </div>
    </Form>
  );
}

function Deliverables({ view }: { view: ProjectView }) {
  return (
    <Card title="Deliverables">
      {view.deliverables.length === 0 ? (
        <p className="text-sm text-stone-600">Nothing delivered yet.</p>
      ) : (
        <ul aria-label="Deliverables" className="divide-y divide-stone-100 text-sm">
          {view.deliverables.map((d) => (
            <li key={d.id} className="space-y-2 py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <a href={d.href} download={d.fileName} className="font-medium break-all text-brand-800 underline">
                  {d.fileName}
                </a>
                <span className="text-stone-600">
                  {d.round === 0 ? "First delivery" : `After revision ${d.round}`} ·{" "}
                  {(d.bytes / 1024 / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB · <DateTime iso={d.createdAt} withTime />
                </span>
              </div>
              {isPlayableAudio(d.mime) ? <AudioPlayer src={d.href} label={`Listen to ${d.fileName}`} /> : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function ProjectPage({ loaderData: view, actionData }: { loaderData: ProjectView & AdminExtras; actionData?: ProjectActionData }) {
  const p = view.project;
  const can = view.can;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to={view.listPath} className="text-brand-800 underline">
              Projects
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">Project #{p.id}</h1>
          <p className="mt-1 text-sm text-stone-600">
            {p.service} by {view.provider.name} for {view.client.name} · opened <DateTime iso={p.createdAt} />
          </p>
        </div>
        <StatusTag status={STATUS_TAG[p.status] ?? "pending"} label={p.statusLabel} />
      </header>

      {view.area === "admin" && view.twoFactorOn === false ? (
        <TwoFactorRequired message="Moving escrow needs two-factor authentication on your account." accountPath={view.accountPath ?? "/"} />
      ) : null}
      {view.area === "member" && view.role === "admin" ? (
        <p className="text-sm text-stone-700">
          You see this project as an administrator.{" "}
          <Link to={view.adminPath} className="font-medium text-brand-800 underline">
            Open it in the admin area
          </Link>{" "}
          to confirm funding or resolve it.
        </p>
      ) : null}

      <Summary view={view} />
      <Funding view={view} actionData={actionData} />

      {can.fund ? (
        <Card title="Confirm funding">
          <p className="text-sm text-stone-700">
            Confirm only once {p.amount} from the client has arrived (reference BACKLINE-PROJECT-{p.id}). It is then held in escrow.
          </p>
          <FundForm lastResult={lastResultFor(actionData, "fund")} />
        </Card>
      ) : null}

      {can.advance || can.upload ? (
        <Card title="Your work">
          {can.advance ? (
            <div className="space-y-1">
              <p className="text-sm text-stone-700">
                Stage: {p.stage}. Next: {p.nextStage}.
              </p>
              <OneButtonForm
                intent="advance"
                label={`Move to ${p.nextStage}`}
                pending="Moving…"
                lastResult={lastResultFor(actionData, "advance")}
                className={secondaryButton}
              />
            </div>
          ) : null}
          {can.upload ? <UploadForm lastResult={lastResultFor(actionData, "upload")} /> : null}
        </Card>
      ) : null}

      {view.role === "provider" && p.status === "awaiting_funding" ? (
        <p className="rounded-md bg-stone-50 px-4 py-3 text-sm text-stone-700">
          The client has not funded this project yet: start the work once it is funded (you are notified).
        </p>
      ) : null}

      {can.approve ? (
        <Card title="Review the delivery">
          <p className="text-sm text-stone-700">
            Approving completes the project and releases {p.amount} from escrow: {p.providerReceives} to the provider, {p.fee} platform fee.
          </p>
          <OneButtonForm intent="approve" label="Approve delivery" pending="Approving…" lastResult={lastResultFor(actionData, "approve")} />
          {can.revise ? (
            <ReasonForm
              intent="revision"
              field="note"
              label="What should change?"
              button="Request a revision"
              pending="Sending…"
              help={`Revision ${p.revisionsUsed + 1} of ${p.revisionsIncluded} included.`}
              lastResult={lastResultFor(actionData, "revision")}
            />
          ) : (
            <p className="text-sm text-stone-600">All {p.revisionsIncluded} revisions included are used.</p>
          )}
        </Card>
      ) : null}

      <Deliverables view={view} />

      {view.review ? (
        <Card title="Review">
          <p className="text-sm" aria-label={`Rated ${view.review.rating} of 5`}>
            <span aria-hidden="true" className="text-amber-600">
              {"★".repeat(view.review.rating)}
              {"☆".repeat(5 - view.review.rating)}
            </span>{" "}
            {view.review.rating} of 5 · verified
          </p>
          {view.review.body ? <p className="text-sm whitespace-pre-wrap text-stone-800">{view.review.body}</p> : null}
        </Card>
      ) : can.review ? (
        <Card title="Leave a review">
          <ReviewForm lastResult={lastResultFor(actionData, "review")} />
        </Card>
      ) : null}

      {can.resolve ? (
        <Card title="Resolve a dispute">
          <ResolveForm lastResult={lastResultFor(actionData, "resolve")} amount={p.amount} />
        </Card>
      ) : null}

      {can.cancel || (can.adminCancel && !can.resolve) ? (
        <Card title="Cancel the project">
          <p className="text-sm text-stone-700">
            {p.fundingStatus === "funded" ? `The ${p.amount} in escrow is refunded to the client.` : "Nothing has been paid yet."}{" "}
            {view.area === "member" ? "Once work is delivered, only an administrator can cancel." : ""}
          </p>
          <ReasonForm
            intent="cancel"
            label="Why cancel?"
            button="Cancel the project"
            pending="Canceling…"
            lastResult={lastResultFor(actionData, "cancel")}
            danger
          />
        </Card>
      ) : null}

      {view.area === "member" ? (
        <MessageThread
          messages={view.messages}
          viewerId={view.viewerId}
          canPost={can.message}
          lastResult={lastResultFor(actionData, "message")}
          liveThreadId={p.workRequestId}
        />
      ) : (
        <MessageThread messages={view.messages} viewerId={view.viewerId} canPost={false} liveThreadId={p.workRequestId} />
      )}
    </div>
  );
}

function FundForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({ id: "project-fund", lastResult, shouldValidate: "onSubmit" });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <Field
        label="Payment reference"
        inputProps={{ ...getInputProps(fields.reference, { type: "text" }), maxLength: 120, autoComplete: "off" }}
        errors={fields.reference.errors}
        errorId={fields.reference.errorId}
        help="What the bank statement shows for the client's payment."
      />
      <div className="flex justify-end sm:[&>*]:w-auto">
        <SubmitButton name="intent" value="fund" pendingLabel="Confirming…">
          Confirm funding
        </SubmitButton>
      </div>
    </Form>
  );
}
