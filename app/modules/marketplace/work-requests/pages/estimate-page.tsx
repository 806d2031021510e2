import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { DateTime, Money } from "~/components/formatting";
import { Field, FormAlert, SubmitButton, TextareaField, useFormResetKey } from "~/components/forms";
import { StatusTag } from "~/components/status-tag";
import { LIMITS, SERVICE_LABELS } from "../../marketplace-rules";
import { EstimateForm } from "../estimate-form";
import { card, linkClass, PageHeader, type Reply } from "./work-request-page-parts";
import { type EstimateView, ProjectNotice, type RequestPageData, SongName } from "./request-summary";

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
