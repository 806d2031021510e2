import { Form, Link } from "react-router";
import { Money } from "~/components/formatting";
import { SubmitButton } from "~/components/forms";
import { StatusTag } from "~/components/status-tag";
import { MessageThread, type ThreadMessage } from "../../messages/message-thread";
import { card, linkClass, PageHeader, type Reply } from "./work-request-page-parts";
import { ProjectNotice, type RequestPageData, RequestSummary } from "./request-summary";

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
