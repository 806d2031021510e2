import { isRouteErrorResponse, useRouteError } from "react-router";
import { useRequestInfo } from "~/context";
import { ConfirmAccess, confirmPayloadOf } from "./confirm-access";
import { NotFound } from "./not-found";

/**
 * The one error page, used by every ErrorBoundary: 404 is Not Found; any other 4xx says the request
 * could not be completed, with the server's `{ message }` when it sent one (a form that could not be
 * read, say); a 5xx never shows a stack, only the reference id the server logged it under.
 */
export function RouteErrorPage({ homeHref = "/", homeLabel = "Go to the start page" }: { homeHref?: string; homeLabel?: string }) {
  const error = useRouteError();
  const { requestId } = useRequestInfo();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) return <NotFound homeHref={homeHref} homeLabel={homeLabel} />;
  // A money-moving change that needs a fresh confirmation (requireFreshConfirmation): the confirm form.
  const confirm = isRouteErrorResponse(error) && status === 403 ? confirmPayloadOf(error.data) : null;
  if (confirm) return <ConfirmAccess confirm={confirm} />;
  const serverMessage = isRouteErrorResponse(error) ? messageOf(error.data) : null;
  return (
    <div role="alert" className="mx-auto max-w-lg px-4 py-16 text-center">
      <p className="text-sm font-semibold text-brand-800">{status}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{status < 500 ? "This request could not be completed" : "Something went wrong"}</h1>
      <p className="mt-4 text-stone-600">
        {status < 500 ? (serverMessage ?? "Please check what you asked for and try again.") : "We have been told about it. Please try again in a moment."}
      </p>
      {status >= 500 && requestId ? (
        <p className="mt-4 text-sm text-stone-500">
          Reference: <code className="rounded bg-stone-100 px-1">{requestId}</code>
        </p>
      ) : null}
      <a href={homeHref} className="mt-8 inline-block font-semibold text-brand-800 underline">
        {homeLabel}
      </a>
    </div>
  );
}

function messageOf(value: unknown): string | null {
  if (typeof value === "string" && value) return value;
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === "string" && message ? message : null;
}
