import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { DataTable, type DataColumn } from "~/components/data-table";
import { FilterForm } from "~/components/filter-form";
import { DateTime, Money } from "~/components/formatting";
import { Field, FormAlert, SelectField, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag, statusStyle } from "~/components/status-tag";
import { LIMITS, SERVICE_LABELS } from "../marketplace-rules";
import { MessageThread, type ThreadMessage } from "../messages/message-thread";
import { EstimateForm } from "./estimate-form";
import { SERVICE_OPTIONS } from "./work-request-forms";

/**
 * The work request pages: create-work-request, the member's and the admin's lists, a request's
 * page (details, estimate summary, actions, thread) and its estimate page (versions, the provider's form, the
 * client's answer). Route modules pass their loader and action data through.
 */

type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined;

const card = "rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6";
const linkClass = "font-medium text-brand-800 underline";
const STATUSES = ["pending", "awaiting_approval", "revision_requested", "accepted", "declined", "canceled"] as const;
const statusOptions = [{ value: "", label: "Any status" }, ...STATUSES.map((s) => ({ value: s, label: statusStyle(s).label }))];

function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children ? <div className="mt-1 text-sm text-stone-600">{children}</div> : null}
    </header>
  );
}

/* ------------------------------------------------------------------ create */

export interface CreatePageData {
  area: "member" | "admin";
  own: boolean;
  readOnly: boolean;
  provider: {
    id: number;
    name: string;
    typeLabel: string;
    profilePath: string;
  };
  songs: Array<{ id: number; label: string }>;
}

export function CreateWorkRequestPage({ data, reply }: { data: CreatePageData; reply: Reply }) {
  const [form, fields] = useForm({
    id: "work-request-form",
    lastResult: reply?.result,
    shouldValidate: "onSubmit",
  });
  const { provider } = data;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title={`Request work from ${provider.name}`}>
        {provider.typeLabel} ·{" "}
        <Link to={provider.profilePath} className={linkClass}>
          Back to the profile
        </Link>
      </PageHeader>
      {data.own || data.readOnly ? (
        <p className={`${card} text-sm text-stone-700`}>
          {data.own ? "This is your own profile: you cannot hire yourself." : "Only the member whose area this is can ask for work here."}
        </p>
      ) : (
        <section aria-label="Work request" className={card}>
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <FormAlert id={form.errorId} errors={form.errors} />
            <SelectField
              label="Service"
              selectProps={getSelectProps(fields.service)}
              options={[{ value: "", label: "Choose a service" }, ...SERVICE_OPTIONS]}
              errors={fields.service.errors}
              errorId={fields.service.errorId}
            />
            <TextareaField
              label="Description"
              textareaProps={{
                ...getTextareaProps(fields.description),
                maxLength: LIMITS.descriptionMax,
                rows: 5,
              }}
              errors={fields.description.errors}
              errorId={fields.description.errorId}
              help="What you need, the style, stems or files you have, anything the provider should know."
            />
            <TextareaField
              label="Reference links (optional)"
              textareaProps={{
                ...getTextareaProps(fields.referenceLinks),
                rows: 3,
                placeholder: "https://…",
              }}
              errors={fields.referenceLinks.errors}
              errorId={fields.referenceLinks.errorId}
              help={`One web address per line, up to ${LIMITS.links}.`}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Budget (USD)"
                inputProps={{
                  ...getInputProps(fields.budget, { type: "text" }),
                  inputMode: "decimal",
                  placeholder: "500.00",
                  autoComplete: "off",
                }}
                errors={fields.budget.errors}
                errorId={fields.budget.errorId}
              />
              <Field
                label="Deadline"
                inputProps={getInputProps(fields.deadline, { type: "date" })}
                errors={fields.deadline.errors}
                errorId={fields.deadline.errorId}
              />
            </div>
            <SelectField
              label="Song (optional)"
              selectProps={getSelectProps(fields.songId)}
              options={[
                {
                  value: "",
                  label: data.songs.length ? "No song" : "You have no songs yet",
                },
                ...data.songs.map((s) => ({
                  value: String(s.id),
                  label: s.label,
                })),
              ]}
              errors={fields.songId.errors}
              errorId={fields.songId.errorId}
              help="One of your songs the work is for; the provider may then offer points on it."
            />
            <div className="flex justify-end sm:[&>*]:w-auto">
              <SubmitButton pendingLabel="Sending…">Send work request</SubmitButton>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}

/* ------------------------------------------------------------------ lists */

export interface ListRow {
  id: number;
  service: string;
  status: string;
  budgetCents: number;
  estimateCents: number | null;
  deadline: string;
  createdAt: string;
  clientName: string;
  providerName: string;
}

interface ListData {
  rows: ListRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function listColumns(base: string, who: "client" | "provider" | "both"): Array<DataColumn<ListRow>> {
  return [
    {
      key: "id",
      header: "Request",
      rowHeader: true,
      cell: (r) => (
        <Link to={`${base}/work-request/${r.id}`} className={linkClass}>
          #{r.id} {r.service}
        </Link>
      ),
    },
    ...(who !== "client"
      ? [
          {
            key: "client",
            header: "Client",
            cell: (r: ListRow) => r.clientName,
          },
        ]
      : []),
    ...(who !== "provider"
      ? [
          {
            key: "provider",
            header: "Provider",
            cell: (r: ListRow) => r.providerName,
          },
        ]
      : []),
    {
      key: "status",
      header: "Status",
      cell: (r) => <StatusTag status={r.status} />,
    },
    {
      key: "budget",
      header: "Budget",
      align: "right",
      cell: (r) => <Money cents={r.budgetCents} />,
    },
    {
      key: "estimate",
      header: "Estimate",
      align: "right",
      cell: (r) => (r.estimateCents === null ? "—" : <Money cents={r.estimateCents} />),
    },
    {
      key: "deadline",
      header: "Deadline",
      cell: (r) => <DateTime iso={`${r.deadline}T00:00:00Z`} />,
    },
    {
      key: "created",
      header: "Sent",
      cell: (r) => <DateTime iso={r.createdAt} />,
    },
  ];
}

export function MemberWorkRequestsPage({
  data,
}: {
  data: {
    memberId: number;
    view: "sent" | "received";
    status: string;
    list: ListData;
  };
}) {
  const base = `/member/${data.memberId}`;
  const tab = (view: "sent" | "received", label: string) => (
    <Link
      to={view === "received" ? "?as=provider" : "?as=client"}
      aria-current={data.view === view ? "page" : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${data.view === view ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title="Work Requests">
        Requests you sent to providers, and requests clients sent to your profiles. Find a provider in the{" "}
        <Link to={`${base}/audio-engineers`} className={linkClass}>
          directories
        </Link>{" "}
        and choose “Request work”.
      </PageHeader>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <nav aria-label="Work request lists" className="flex gap-1">
          {tab("sent", "Sent")}
          {tab("received", "Received")}
        </nav>
        <Form method="get" className="flex items-end gap-2">
          <input type="hidden" name="as" value={data.view === "received" ? "provider" : "client"} />
          <SelectField label="Status" selectProps={{ name: "status", defaultValue: data.status }} options={statusOptions} />
          <button type="submit" className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-semibold">
            Filter
          </button>
        </Form>
      </div>
      <DataTable
        caption={data.view === "sent" ? "Work requests you sent" : "Work requests you received"}
        columns={listColumns(base, data.view === "sent" ? "client" : "provider")}
        rows={data.list.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={data.list.total}
            pageCount={data.list.pageCount}
            filtered={Boolean(data.status)}
            noMatch="No work requests have this status."
            noMatchHint="Try another status"
            empty={data.view === "sent" ? "You have not asked anyone for work yet." : "No one has asked your profiles for work yet."}
          />
        }
      />
      <Pagination
        page={data.list.page}
        pageCount={data.list.pageCount}
        total={data.list.total}
        pageSize={data.list.pageSize}
        noun={["work request", "work requests"]}
      />
    </div>
  );
}

export function AdminWorkRequestsPage({
  data,
}: {
  data: {
    filters: { status: string; service: string; q: string };
    list: ListData;
  };
}) {
  const { filters } = data;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title="Work Requests">Every work request between members. Administrators act on projects; requests are read-only here.</PageHeader>
      <FilterForm label="Filter work requests" clear={Boolean(filters.status || filters.service || filters.q)}>
        <div className="min-w-56 flex-[2]">
          <Field
            label="Search"
            inputProps={{
              name: "q",
              type: "search",
              defaultValue: filters.q,
              placeholder: "Client, provider, description or #id",
            }}
          />
        </div>
        <SelectField label="Status" selectProps={{ name: "status", defaultValue: filters.status }} options={statusOptions} />
        <SelectField
          label="Service"
          selectProps={{ name: "service", defaultValue: filters.service }}
          options={[{ value: "", label: "Any service" }, ...SERVICE_OPTIONS]}
        />
      </FilterForm>
      <DataTable
        caption="Work requests"
        columns={listColumns("/admin", "both")}
        rows={data.list.rows}
        rowKey={(r) => r.id}
        empty={
          <ListEmptyState
            total={data.list.total}
            pageCount={data.list.pageCount}
            filtered={Boolean(filters.status || filters.service || filters.q)}
            noMatch="No work requests match."
            noMatchHint="Try another search"
            empty="No work requests yet."
          />
        }
      />
      <Pagination
        page={data.list.page}
        pageCount={data.list.pageCount}
        total={data.list.total}
        pageSize={data.list.pageSize}
        noun={["work request", "work requests"]}
      />
    </div>
  );
}

/* ------------------------------------------------------------------ a request */

export interface EstimateView {
  id: number;
  version: number;
  status: string;
  lineItems: Array<{ description: string; amountCents: number }>;
  totalCents: number;
  deliveryDays: number;
  revisionsIncluded: number;
  pointsBps: number | null;
  expiresAt: string;
  expired: boolean;
  note: string | null;
  responseNote: string | null;
  createdAt: string;
}

export interface RequestPageData {
  area: "member" | "admin";
  base: string;
  viewerId: number;
  canAct: boolean;
  role: "client" | "provider" | "admin";
  request: {
    id: number;
    service: string;
    serviceLabel: string;
    status: string;
    description: string;
    referenceLinks: string[];
    budgetCents: number;
    deadline: string;
    songId: number | null;
    song: { title: string; version: string } | null;
    createdAt: string;
  };
  provider: { id: number; name: string; type: string; username: string };
  client: { id: number; name: string };
  estimates: EstimateView[];
  project: { id: number; status: string } | null;
}

/** The request's song by its title, linked for those who may open its page (the client, an administrator). */
function SongName({ data }: { data: RequestPageData }) {
  const r = data.request;
  if (!r.songId || !r.song) return <>None</>;
  const title = r.song.version ? `${r.song.title} (${r.song.version})` : r.song.title;
  const href = data.area === "admin" ? `/admin/song-profile/${r.songId}` : data.role === "client" ? `${data.base}/song-profile/${r.songId}` : null;
  return href ? (
    <Link to={href} className={linkClass}>
      {title}
    </Link>
  ) : (
    <>{title}</>
  );
}

function RequestSummary({ data }: { data: RequestPageData }) {
  const r = data.request;
  return (
    <section aria-label="Request" className={card}>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="text-stone-600">Status</dt>
        <dd>
          <StatusTag status={r.status} />
        </dd>
        <dt className="text-stone-600">Service</dt>
        <dd>{r.serviceLabel}</dd>
        <dt className="text-stone-600">Client</dt>
        <dd>{data.role === "client" ? "You" : data.client.name}</dd>
        <dt className="text-stone-600">Provider</dt>
        <dd>{data.role === "provider" ? `${data.provider.name} (your profile)` : data.provider.name}</dd>
        <dt className="text-stone-600">Budget</dt>
        <dd className="tabular-nums">
          <Money cents={r.budgetCents} />
        </dd>
        <dt className="text-stone-600">Deadline</dt>
        <dd>
          <DateTime iso={`${r.deadline}T00:00:00Z`} />
        </dd>
        <dt className="text-stone-600">Song</dt>
        <dd className="break-words">
          <SongName data={data} />
        </dd>
        <dt className="text-stone-600">Sent</dt>
        <dd>
          <DateTime iso={r.createdAt} withTime />
        </dd>
      </dl>
      <h2 className="mt-4 text-sm font-semibold text-stone-800">Description</h2>
      <p className="mt-1 text-sm whitespace-pre-wrap break-words text-stone-900">{r.description}</p>
      {r.referenceLinks.length ? (
        <>
          <h2 className="mt-4 text-sm font-semibold text-stone-800">Reference links</h2>
          <ul className="mt-1 space-y-1 text-sm">
            {r.referenceLinks.map((l) => (
              <li key={l}>
                <a href={l} target="_blank" rel="nofollow noopener noreferrer ugc" className={`${linkClass} break-all`}>
                  {l}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function ProjectNotice({ data }: { data: RequestPageData }) {
  if (!data.project) return null;
  return (
    <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
      The estimate was accepted: project #{data.project.id} is open.{" "}
      <Link to={`${data.base}/project/${data.project.id}`} className={linkClass}>
        Open project #{data.project.id}
      </Link>
    </p>
  );
}

export function WorkRequestPage({ data, messages, reply }: { data: RequestPageData; messages: ThreadMessage[]; reply: Reply }) {
  const r = data.request;
  const latest = data.estimates[0] ?? null;
  const estimatePath = `${data.base}/work-request/estimate/${r.id}`;
  const cancellable = data.canAct && data.role === "client" && ["pending", "awaiting_approval", "revision_requested"].includes(r.status);
  const cancelErrors = reply?.intent === "cancel" ? reply.result.error?.[""] : undefined;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title={`Work request #${r.id}`}>
        {r.serviceLabel} · {data.role === "client" ? `to ${data.provider.name}` : `from ${data.client.name}`} ·{" "}
        <Link
          to={data.area === "admin" ? "/admin/work-requests" : `${data.base}/work-requests${data.role === "provider" ? "?as=provider" : ""}`}
          className={linkClass}
        >
          All work requests
        </Link>
      </PageHeader>
      <ProjectNotice data={data} />
      <RequestSummary data={data} />
      <section aria-labelledby="estimate-heading" className={card}>
        <h2 id="estimate-heading" className="text-lg font-semibold">
          Estimate
        </h2>
        {latest ? (
          <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-700">
            <span>
              Version {latest.version}: <Money cents={latest.totalCents} />, delivery in {latest.deliveryDays} days
            </span>
            <StatusTag status={latest.expired ? "expired" : latest.status} label={latest.expired ? "Expired" : undefined} />
          </p>
        ) : (
          <p className="mt-2 text-sm text-stone-700">{data.role === "provider" ? "The client waits for your estimate." : "No estimate yet."}</p>
        )}
        <p className="mt-3">
          <Link to={estimatePath} className="inline-flex items-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
            {data.canAct && data.role === "provider" && ["pending", "awaiting_approval", "revision_requested"].includes(r.status)
              ? latest
                ? "Revise the estimate"
                : "Send an estimate"
              : data.canAct && data.role === "client" && latest?.status === "awaiting_approval"
                ? "Review the estimate"
                : "Estimate history"}
          </Link>
        </p>
      </section>
      {cancellable && (
        <section aria-label="Cancel the request" className={card}>
          <Form method="post" className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-stone-700">Changed your mind? Canceling closes the request and any waiting estimate.</p>
            {cancelErrors?.length ? (
              <p role="alert" className="text-sm text-red-700">
                {cancelErrors.join(" ")}
              </p>
            ) : null}
            <SubmitButton
              name="intent"
              value="cancel"
              pendingLabel="Canceling…"
              className="rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700"
            >
              Cancel the request
            </SubmitButton>
          </Form>
        </section>
      )}
      {data.area === "admin" && data.role !== "admin" ? (
        <p className="text-sm text-stone-600">
          You are a party to this request: answer it in{" "}
          <Link to={`/member/${data.viewerId}/work-request/${r.id}`} className={linkClass}>
            your member area
          </Link>
          .
        </p>
      ) : null}
      <MessageThread
        messages={messages}
        viewerId={data.viewerId}
        canPost={data.canAct}
        lastResult={reply?.intent === "message" ? reply.result : undefined}
        liveThreadId={r.id}
      />
    </div>
  );
}

/* ------------------------------------------------------------------ the estimate page */

function EstimateCard({
  e,
  songTitle,
  children,
}: {
  e: EstimateView;
  /** The request's song, to name in the points line. */
  songTitle?: string | null;
  children?: ReactNode;
}) {
  return (
    <article id={`estimate-v${e.version}`} aria-label={`Estimate version ${e.version}`} className={card}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">Version {e.version}</h3>
        <StatusTag status={e.expired ? "expired" : e.status} label={e.expired ? "Expired" : undefined} />
      </div>
      <table className="mt-3 w-full text-sm">
        <caption className="sr-only">Line items of version {e.version}</caption>
        <tbody>
          {e.lineItems.map((item, i) => (
            <tr key={i} className="border-t border-stone-100">
              <td className="py-1.5 break-words">{item.description}</td>
              <td className="py-1.5 text-right tabular-nums">
                <Money cents={item.amountCents} />
              </td>
            </tr>
          ))}
          <tr className="border-t border-stone-300 font-semibold">
            <td className="py-1.5">Total</td>
            <td className="py-1.5 text-right tabular-nums">
              <Money cents={e.totalCents} />
            </td>
          </tr>
        </tbody>
      </table>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-stone-600">Delivery</dt>
        <dd>{e.deliveryDays} days</dd>
        <dt className="text-stone-600">Revisions included</dt>
        <dd>{e.revisionsIncluded}</dd>
        <dt className="text-stone-600">Points</dt>
        <dd>
          {e.pointsBps
            ? `${(e.pointsBps / 100).toFixed(2)}% of ${songTitle ? `the master royalties of “${songTitle}”` : "the song's master royalties"}`
            : "None"}
        </dd>
        <dt className="text-stone-600">Expires</dt>
        <dd>
          <DateTime iso={e.expiresAt} withTime />
        </dd>
      </dl>
      {e.note ? <p className="mt-3 text-sm whitespace-pre-wrap break-words text-stone-800">Note: {e.note}</p> : null}
      {e.responseNote ? <p className="mt-2 text-sm whitespace-pre-wrap break-words text-stone-800">Client's answer: {e.responseNote}</p> : null}
      {children}
    </article>
  );
}

function ClientAnswer({ e, reply }: { e: EstimateView; reply: Reply }) {
  const resetKey = useFormResetKey();
  const [revisionForm, revisionFields] = useForm({
    id: `revision-${resetKey}`,
    lastResult: reply?.intent === "revision" ? reply.result : undefined,
    shouldValidate: "onSubmit",
  });
  const [declineForm, declineFields] = useForm({
    id: `decline-${resetKey}`,
    lastResult: reply?.intent === "decline" ? reply.result : undefined,
    shouldValidate: "onSubmit",
  });
  const acceptErrors = reply?.intent === "accept" ? reply.result.error?.[""] : undefined;
  return (
    <div className="mt-4 space-y-4 border-t border-stone-200 pt-4">
      <Form method="post" className="space-y-2">
        <input type="hidden" name="estimateId" value={e.id} />
        {acceptErrors?.length ? <FormAlert errors={acceptErrors} /> : null}
        <p className="text-sm text-stone-700">
          Accepting opens a project for <Money cents={e.totalCents} />; you fund it before the work starts.
        </p>
        <div className="sm:[&>*]:w-auto">
          <SubmitButton name="intent" value="accept" pendingLabel="Accepting…">
            Accept the estimate
          </SubmitButton>
        </div>
      </Form>
      <Form method="post" className="space-y-2" {...getFormProps(revisionForm)}>
        <input type="hidden" name="estimateId" value={e.id} />
        <FormAlert id={revisionForm.errorId} errors={revisionForm.errors} />
        <TextareaField
          label="What should change?"
          textareaProps={{
            ...getTextareaProps(revisionFields.note),
            maxLength: LIMITS.noteMax,
            rows: 2,
          }}
          errors={revisionFields.note.errors}
          errorId={revisionFields.note.errorId}
        />
        <div className="flex justify-end sm:[&>*]:w-auto">
          <SubmitButton
            name="intent"
            value="revision"
            pendingLabel="Sending…"
            className="rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold"
          >
            Ask for a revision
          </SubmitButton>
        </div>
      </Form>
      <Form method="post" className="space-y-2" {...getFormProps(declineForm)}>
        <input type="hidden" name="estimateId" value={e.id} />
        <FormAlert id={declineForm.errorId} errors={declineForm.errors} />
        <Field
          label="Reason for declining (optional)"
          inputProps={{
            ...getInputProps(declineFields.reason, { type: "text" }),
            maxLength: LIMITS.noteMax,
          }}
          errors={declineFields.reason.errors}
          errorId={declineFields.reason.errorId}
        />
        <div className="flex justify-end sm:[&>*]:w-auto">
          <SubmitButton
            name="intent"
            value="decline"
            pendingLabel="Declining…"
            className="rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700"
          >
            Decline
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export function EstimatePage({ data, reply }: { data: RequestPageData; reply: Reply }) {
  const r = data.request;
  const latest = data.estimates[0] ?? null;
  const providerMayEstimate = data.canAct && data.role === "provider" && ["pending", "awaiting_approval", "revision_requested"].includes(r.status);
  const resetKey = useFormResetKey();
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <PageHeader title={`Estimate for work request #${r.id}`}>
        {SERVICE_LABELS[r.service as keyof typeof SERVICE_LABELS] ?? r.serviceLabel}{" "}
        {r.song ? (
          <>
            {" "}
            for <SongName data={data} />
          </>
        ) : null}{" "}
        · budget <Money cents={r.budgetCents} /> ·{" "}
        <Link to={`${data.base}/work-request/${r.id}`} className={linkClass}>
          Back to the request
        </Link>
      </PageHeader>
      <ProjectNotice data={data} />
      {providerMayEstimate && (
        <section aria-labelledby="estimate-form-heading" className={card}>
          <h2 id="estimate-form-heading" className="text-lg font-semibold">
            {latest ? "Send a revised estimate" : "Send an estimate"}
          </h2>
          {r.status === "revision_requested" && latest?.responseNote ? (
            <p className="mt-1 text-sm text-stone-700">The client asked: {latest.responseNote}</p>
          ) : null}
          <div className="mt-4">
            <EstimateForm
              key={`estimate-${resetKey}`}
              lastResult={reply?.intent === "estimate" ? reply.result : undefined}
              revising={Boolean(latest)}
              hasSong={r.songId !== null}
              previous={latest}
            />
          </div>
        </section>
      )}
      <section aria-labelledby="versions-heading" className="space-y-4">
        <h2 id="versions-heading" className="text-lg font-semibold">
          {data.estimates.length > 1 ? "Versions, newest first" : "Estimate"}
        </h2>
        {data.estimates.length === 0 ? (
          <p className="text-sm text-stone-600">{data.role === "provider" ? "No estimate sent yet." : "The provider has not sent an estimate yet."}</p>
        ) : (
          data.estimates.map((e) => (
            <EstimateCard key={e.id} e={e} songTitle={r.song?.title}>
              {data.canAct && data.role === "client" && e.status === "awaiting_approval" && !e.expired ? (
                <ClientAnswer key={resetKey} e={e} reply={reply} />
              ) : null}
            </EstimateCard>
          ))
        )}
      </section>
    </div>
  );
}
